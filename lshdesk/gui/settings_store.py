"""What the app remembers between runs (QSettings): window layout, last parameters, engine, signature cache.

Recent folder sets are kept by ``recent_sets``.

Every value is read back as untrusted: a damaged or foreign value gives the default.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter

from lshdesk.core.errors import LshdeskError
from lshdesk.core.params import ScanParams
from lshdesk.core.persistence.session import params_from_json, params_to_json

_LAYOUT = ("window/geometry", "window/state", "window/side")


def saved_params(settings: QSettings) -> ScanParams:
    """The parameters of the last scan, or the defaults when there are none or they are damaged."""
    text = settings.value("params/last")
    try:
        return params_from_json(json.loads(str(text))) if text else ScanParams()
    except (ValueError, KeyError, TypeError, LshdeskError):
        return ScanParams()


def save_params(settings: QSettings, params: ScanParams) -> None:
    settings.setValue("params/last", json.dumps(params_to_json(params)))


def restore_layout(settings: QSettings, window: QMainWindow, side: QSplitter) -> None:
    for key, restore in zip(_LAYOUT, (window.restoreGeometry, window.restoreState, side.restoreState)):
        value = settings.value(key)
        if value is not None:
            restore(value)


def save_layout(settings: QSettings, window: QMainWindow, side: QSplitter) -> None:
    for key, value in zip(_LAYOUT, (window.saveGeometry(), window.saveState(), side.saveState())):
        settings.setValue(key, value)


def tour_done(settings: QSettings) -> bool:
    return str(settings.value("tour/done", "false")) == "true"


def engine_settings(settings: QSettings) -> tuple[str, str]:
    """('local' | 'dask', scheduler address or '') as saved."""
    kind = str(settings.value("engine/kind", "local"))
    return (kind if kind in ("local", "dask") else "local"), str(settings.value("engine/address", "") or "")


def cache_enabled(settings: QSettings) -> bool:
    return str(settings.value("cache/enabled", "true")).lower() != "false"


DIFF_TOOL_KEY = "tools/diff"  # Side by side's external diff tool (a command line); empty: the first one found


def diff_tool(settings: QSettings) -> str:
    value = settings.value(DIFF_TOOL_KEY, "")
    return value if isinstance(value, str) else ""
