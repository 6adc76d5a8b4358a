"""Recently opened folder sets with their reference ticks (File > Open Recent), kept in the settings as JSON."""

from __future__ import annotations

import json
import os

from PySide6.QtCore import QSettings

KEY = "recent/sets"
LEGACY_KEY = "recent/folders"
MAX_RECENT = 8


def recent_sets(settings: QSettings) -> list[tuple[list[str], set[str]]]:
    """(folders, reference folders) most recent first; a damaged or foreign value reads as no entry."""
    if settings.value(KEY) is None:  # recent single folders kept by earlier versions
        old = settings.value(LEGACY_KEY, [])
        listed = [old] if isinstance(old, str) else old if isinstance(old, list) else []
        return [([str(f)], set[str]()) for f in listed][:MAX_RECENT]
    try:
        raw = json.loads(str(settings.value(KEY, "[]") or "[]"))
    except ValueError:
        return []
    out: list[tuple[list[str], set[str]]] = []
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict):
            continue
        folders, ref = entry.get("folders"), entry.get("reference", [])
        if isinstance(folders, list) and folders and all(isinstance(f, str) for f in folders) and isinstance(ref, list):
            out.append((list(folders), {r for r in ref if isinstance(r, str) and r in folders}))
    return out[:MAX_RECENT]


def remember_set(settings: QSettings, folders: list[str], reference: set[str]) -> None:
    """Put this folder set (with its ticks) first; the same folders ticked otherwise replace the older entry."""
    keep = [(f, r) for f, r in recent_sets(settings) if f != folders]
    entries = [(folders, reference)] + keep
    settings.setValue(KEY, json.dumps([{"folders": f, "reference": sorted(r)} for f, r in entries[:MAX_RECENT]]))


def label(folders: list[str], reference: set[str]) -> str:
    """A menu entry: the first folder's path, then the others' names, reference folders marked."""

    def name(i: int, f: str) -> str:
        shown = f if i == 0 else os.path.basename(os.path.normpath(f)) or f
        return f"{shown} (reference)" if f in reference else shown

    return " + ".join(name(i, f) for i, f in enumerate(folders))
