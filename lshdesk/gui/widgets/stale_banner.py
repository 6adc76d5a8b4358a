"""A band over the results that says when they no longer match the folders or parameters on screen, and why."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QLabel

from lshdesk.core.params import ScanParams
from lshdesk.core.persistence.export import folder_labels
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.state import AppState


def _params_words(p: ScanParams) -> str:
    s = p.signature
    scheme = f", bands x rows {p.banding}" if p.banding else ""
    return f"threshold {p.threshold:.2f}, {s.shingle} shingles, k = {s.k}, seed {s.seed}, {s.family} family{scheme}"


def stale_note(result: ScanResult | None, folders: list[str], reference: set[str], params: ScanParams) -> str:
    """ "" when the result is of these folders (with these reference ticks) and parameters, else what it is of."""
    if result is None:
        return ""
    same = [os.path.abspath(r) for r in result.roots] == [os.path.abspath(f) for f in folders]
    ref_then = {os.path.abspath(result.roots[i]) for i in result.reference if i < len(result.roots)}
    same_ref = ref_then == {os.path.abspath(f) for f in reference}
    changed = []
    if not same or not same_ref:
        labels = folder_labels(result.roots)
        names = ", ".join(f"{x} (reference)" if i in result.reference else x for i, x in enumerate(labels))
        changed.append(f"of {names}")
    if params != result.params:
        p = result.params
        files = " and other file options" if params.corpus != p.corpus else ""
        changed.append(f"with {_params_words(p)}{files}")
    if not changed:
        return ""
    return f"<b>Out of date:</b> these results are {' '.join(changed)}. Press Scan (F5) to update them."


class StaleBanner(QLabel):
    """Follows the state; shown only while the result on screen does not match the folders and parameters."""

    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.label = self  # the text, for tests and readers that look for it
        self.setObjectName("stale_banner")
        self.setWordWrap(True)
        self.setMinimumWidth(60)  # wraps rather than widening the window (and then gets the height it needs)
        self.setAccessibleName("Results out of date")
        self.setStyleSheet(
            "#stale_banner { background: palette(alternate-base); border-left: 4px solid #d08c00; padding: 4px 8px; }"
        )
        for signal in (state.foldersChanged, state.paramsChanged, state.resultChanged):
            signal.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        s = self.state
        note = stale_note(s.result, s.folders, s.reference, s.params)
        self.setText(note)
        self.setVisible(bool(note))
