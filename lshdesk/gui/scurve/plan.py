"""The S-curve view's prediction for a sampled dataset: the scheme on the sliders, on the whole dataset.

Shown in the figures panel only when the scan is of a random sample of a dataset's rows (``DatasetRows.drawn``):
the whole dataset's candidate pairs, the verification they cost (ids compared, the time by the cost model) and the
pairs they report, each with its 95 % interval, from the figures of the sample the explorer has just computed
(``core.scan.plan.predict``: a few array passes over the sample's candidates, on every slider step).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from lshdesk.core.explore.figures import Figures
from lshdesk.core.humanize import human_count
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.plan import Draw, predict, sample_draw, seconds_text


class PlanLabel(QLabel):
    """'Whole dataset (N rows, from n): ≈ C candidates (low–high), verifying ≈ ids, ~s; ≈ P pairs ≥ t'."""

    def __init__(self, parent=None) -> None:
        super().__init__("", parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setToolTip(
            "The scan is of a random sample of the dataset's rows: these are the whole dataset's figures for the\n"
            "scheme shown, predicted from the sample's candidates (95 % intervals; verification by the automatic\n"
            "scheme's cost model). The recall above, measured on the sample's pairs, estimates the whole's."
        )
        self.setAccessibleName("Whole dataset, predicted from the sample")
        self.draw: Draw | None = None
        self.counts: np.ndarray | None = None
        self.setVisible(False)

    def set_result(self, result: ScanResult | None) -> None:
        """A new scan: shown only for a sample of a dataset's rows."""
        sampled = result is not None and result.dataset is not None and bool(result.dataset.drawn)
        self.draw = sample_draw(result) if sampled and result is not None else None
        self.counts = result.shingles.counts() if sampled and result is not None else None
        self.setText("…")
        self.setVisible(sampled)

    def show_figures(self, f: Figures | None) -> None:
        if self.draw is None or self.counts is None or f is None:
            return
        p = predict(self.draw, self.counts, f.left, f.right, f.jaccard, f.threshold)
        d = self.draw
        self.setText(
            f"<b>Whole dataset</b> ({d.N:,} rows, {d.n:,} drawn): ≈ {p.candidates.words()} candidates, verifying "
            f"≈ {human_count(p.ids.value)} ids in ~{seconds_text(p.seconds.value)}; ≈ {p.verified.words()} pairs "
            f"≥ {f.threshold:.2f}"
        )
