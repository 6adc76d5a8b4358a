"""The S-curve view of a containment scan: which size-class pairs are drawn, what the scheme is, and the worker
that finds the pairs' exact containment (``core.explore.containment``)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QGroupBox, QLabel, QVBoxLayout, QWidget

from lshdesk.core.explore.containment import ContainmentCurves, containment_curves
from lshdesk.core.query.containment import ContainmentPairs
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.plots.scurve_containment import ContainmentLayer
from lshdesk.gui.theme import ERROR, keep_style, muted
from lshdesk.gui.workers import WorkerSlot

JACCARD_ONLY = (
    "A containment scan chooses bands x rows for each pair of document sizes (LSH Ensemble): "
    "this re-bands a Jaccard scan only. Scan with Measure: Jaccard to use it."
)
EXPLAIN = (
    "Measure: <b>containment</b> C = |A ∩ B| / |A| of the smaller document A in the larger B. The documents are "
    "sorted into size classes (powers of two), and each pair of classes gets its own bands x rows, chosen for the "
    "lowest Jaccard a pair of those sizes can have at the threshold. So there is one curve per pair of classes."
)


class ContainmentPanel(QGroupBox):
    """The scheme of a containment scan in words, the size-class pair to draw, and its figures."""

    pickChanged = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__("Containment scheme", parent)
        self.explain = QLabel(EXPLAIN)
        self.explain.setWordWrap(True)
        keep_style(self.explain, lambda: f"color:{muted().name()}")
        self.pick = QComboBox()
        self.pick.setAccessibleName("Size classes drawn")
        self.pick.setToolTip("Draw every pair of size classes, or one pair with the spread of its sizes")
        self.pick.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.pick.setMinimumContentsLength(12)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QVBoxLayout(self)
        for w in (self.explain, self.pick, self.summary):
            lay.addWidget(w)
        self.pick.currentIndexChanged.connect(self.pickChanged)

    def show_curves(self, cc: ContainmentCurves | None) -> None:
        """List the size-class pairs (those holding drawn pairs first, by their number) and the figures."""
        self.pick.blockSignals(True)
        self.pick.clear()
        if cc is None:
            self.summary.setText("")
            self.pick.blockSignals(False)
            return
        drawn = np.bincount(cc.curve, minlength=len(cc.curves))
        self.pick.addItem(f"All drawn ({len(cc.used()):,} of {len(cc.curves):,})", None)  # short: the box is narrow
        self.pick.setItemData(
            0,
            "The size-class pairs that hold pairs (all of them if none does), drawn together",
            Qt.ItemDataRole.ToolTipRole,
        )
        for i in sorted(range(len(cc.curves)), key=lambda i: -drawn[i]):
            self.pick.addItem(f"{cc.curves[i].label()} ({drawn[i]:,})", i)
            self.pick.setItemData(
                self.pick.count() - 1,
                f"Sets of {cc.curves[i].label().replace(':', ' shingles: bands x rows')}; {drawn[i]:,} pairs drawn",
                Qt.ItemDataRole.ToolTipRole,
            )
        self.pick.blockSignals(False)
        n_cand, missed = int(cc.caught.sum()), int(cc.missed().sum())
        self.summary.setText(
            f"Threshold C ≥ {cc.threshold:g}<br>Candidates: {n_cand:,} of {cc.n_pairs:,} pairs<br>"
            f"Verified: {cc.n_verified:,}<br>Missed{' in the sample' if cc.sampled else ''}: {missed:,}"
        )

    def curve(self) -> int | None:
        """The size-class pair chosen (an index into the curves), or None for all."""
        return self.pick.currentData()


class ContainmentMode:
    """Computes a containment scan's curves in a worker and draws them on the view's plot."""

    def __init__(self, view, max_points: int) -> None:
        self.view, self.max_points = view, max_points
        self.panel = ContainmentPanel()
        self.layer = ContainmentLayer(view.plot)
        self.slot = WorkerSlot(view)
        self.curves: ContainmentCurves | None = None
        self._tips: dict[QWidget, tuple[str, str]] = {}  # the Jaccard-only controls' tooltips and accessible
        # descriptions while they are disabled (a screen reader says the reason too)
        self.panel.pickChanged.connect(self.draw)
        self.panel.hide()

    @property
    def active(self) -> bool:
        return self.layer.active

    def jaccard_controls(self, groups: tuple[QWidget, ...], enabled: bool) -> None:
        """Enable the Jaccard-only ``groups``, or disable them with a tooltip that says why."""
        for g in groups:
            g.setEnabled(enabled)
            for w in (g, *g.findChildren(QWidget)):
                if not enabled and w not in self._tips:
                    self._tips[w] = w.toolTip(), w.accessibleDescription()
                    w.setToolTip(JACCARD_ONLY)
                    if w.accessibleDescription():
                        w.setAccessibleDescription(f"{JACCARD_ONLY}. {w.accessibleDescription()}")
                elif enabled and w in self._tips:
                    tip, said = self._tips.pop(w)
                    w.setToolTip(tip)
                    w.setAccessibleDescription(said)

    def show_result(self, r: ScanResult) -> None:
        """Compute the curves of containment scan ``r`` (its candidates are all scored) and draw them."""
        self.curves = None
        self.panel.show_curves(None)
        self.panel.show()
        is_ref = np.isin(r.docs.root, np.asarray(r.reference)) if r.reference else None
        p = r.params
        self.view.scheme.set_k(r.signatures.shape[1], {})
        self.view.source.setText("Computing the exact containment of the documents' pairs…")
        candidates = r.candidates
        assert isinstance(candidates, ContainmentPairs)  # a containment scan's
        self.slot.start(
            lambda cancel: containment_curves(
                r.signatures, r.shingles, candidates, p.threshold, p.fp_weight, p.fn_weight, is_ref, cancel
            ),
            self._done,
            on_progress=lambda pr: pr.total and self.view.source.setText(f"Exact containment: {pr.stage}…"),
            on_failed=lambda message, _details: self.view.source.setText(
                f"<span style='color:{ERROR.name()}'>Could not compute: {message}</span>"
            ),
        )

    def _done(self, cc: ContainmentCurves) -> None:
        self.curves = cc
        self.panel.show_curves(cc)
        self.draw()

    def draw(self) -> None:
        cc = self.curves
        if cc is None:
            return
        pick = self.panel.curve()
        most = int(np.bincount(cc.curve, minlength=len(cc.curves)).argmax()) if cc.curves else 0
        shown = cc.curves[pick if pick is not None else most] if cc.curves else None
        if shown is not None:  # the (disabled) scheme controls show the scheme of the class pair drawn
            self.view.scheme.set_banding(shown.banding)
        self.view.scheme.set_threshold(cc.threshold)
        drawn = self.layer.show(cc, pick, self.max_points)
        total = len(cc.left) if pick is None else int(np.count_nonzero(cc.curve == pick))
        more = f" Drawn: {drawn:,} of {total:,} pairs." if drawn < total else ""
        self.view.source.setText(cc.describe() + more)

    def leave(self) -> None:
        """Stop and give the plot back to the Jaccard view."""
        self.slot.cancel()
        self.curves = None
        self.panel.hide()
        self.layer.leave()

    def shutdown(self, timeout_ms: int) -> bool:
        return self.slot.shutdown(timeout_ms)
