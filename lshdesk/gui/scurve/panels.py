"""The S-curve view's side panels: auto-tune (goal, button, reasoning) and the live figures of the scheme."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
)

from lshdesk.core.explore.figures import Figures
from lshdesk.core.explore.tune import Goal
from lshdesk.gui.accessible import describe
from lshdesk.gui.theme import keep_style, muted

RECALL_SAID = (
    "The share of the pairs at or above the threshold to make candidates; the fewest candidates reaching it win"
)
CAP_SAID = "The most candidate pairs the scheme may make; within it, the highest recall at the threshold wins"


class TunePanel(QGroupBox):
    """The auto-tune goal and its parameter, the button, follow-the-threshold, and the reasoning; edits are forwarded
    (``goalEdited``, ``followEdited``) and the state's values shown back with ``set_goal`` and ``set_follow``."""

    tuneRequested = Signal()
    goalEdited = Signal(object)  # Goal
    followEdited = Signal(bool)

    def __init__(self, parent=None) -> None:
        super().__init__("Auto-tune", parent)
        self.goal_box = QComboBox()
        self.goal_box.addItem("Balance FP / FN areas", "weights")
        self.goal_box.addItem("Reach a recall", "recall")
        self.goal_box.addItem("Cap the candidates", "candidates")
        self.goal_box.setToolTip("What the scheme is chosen for, at the threshold")
        self.goal_box.setAccessibleName("Auto-tune goal")
        self.fp_weight = QDoubleSpinBox()
        self.fp_weight.setRange(0.0, 1.0)
        self.fp_weight.setSingleStep(0.05)
        self.fp_weight.setValue(0.5)
        self.fp_weight.setPrefix("FP weight ")
        self.fp_weight.setAccessibleName("False-positive weight")
        self.fp_weight.setToolTip("Weight of the false-positive area; the false-negative area weighs 1 - this")
        self.recall = QDoubleSpinBox()
        self.recall.setRange(0.01, 1.0)
        self.recall.setSingleStep(0.01)
        self.recall.setValue(0.95)
        self.recall.setPrefix("recall ≥ ")
        describe(self.recall, RECALL_SAID, "Recall to reach")
        self.cap = QSpinBox()
        self.cap.setRange(0, 2_000_000_000)
        self.cap.setSingleStep(1000)
        self.cap.setValue(10_000)
        self.cap.setPrefix("≤ ")
        self.cap.setSuffix(" candidates")
        describe(self.cap, CAP_SAID, "Most candidates")
        self.param = QStackedWidget()
        for w in (self.fp_weight, self.recall, self.cap):
            self.param.addWidget(w)
        self.button = QPushButton("Auto-tune")
        self.button.setToolTip("Choose bands x rows for the threshold and the goal")
        self.follow = QCheckBox("follow the threshold")
        self.follow.setChecked(True)
        self.follow.setToolTip("Re-tune whenever the threshold moves")
        self.reason = QLabel("")
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QVBoxLayout(self)
        lay.addWidget(self.goal_box)
        lay.addWidget(self.param)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.follow)
        lay.addLayout(row)
        lay.addWidget(self.reason)
        self.goal_box.currentIndexChanged.connect(self.param.setCurrentIndex)
        self.button.clicked.connect(self.tuneRequested)
        for signal in (
            self.goal_box.currentIndexChanged,
            self.fp_weight.valueChanged,
            self.recall.valueChanged,
            self.cap.valueChanged,
        ):
            signal.connect(lambda _v: self.goalEdited.emit(self.goal()))
        self.follow.toggled.connect(self.followEdited)

    def goal(self) -> Goal:
        fp = self.fp_weight.value()
        return Goal(self.goal_box.currentData(), fp, 1.0 - fp, self.recall.value(), self.cap.value())

    def set_goal(self, goal: Goal) -> None:
        """Show a goal without announcing it."""
        widgets = (self.goal_box, self.fp_weight, self.recall, self.cap)
        for w in widgets:
            w.blockSignals(True)
        self.goal_box.setCurrentIndex(max(0, self.goal_box.findData(goal.kind)))
        self.param.setCurrentIndex(self.goal_box.currentIndex())
        self.fp_weight.setValue(goal.fp_weight / (goal.fp_weight + goal.fn_weight))
        self.recall.setValue(goal.recall)
        self.cap.setValue(goal.max_candidates)
        for w in widgets:
            w.blockSignals(False)

    def set_follow(self, on: bool) -> None:
        self.follow.blockSignals(True)
        self.follow.setChecked(on)
        self.follow.blockSignals(False)


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"


class FiguresPanel(QGroupBox):
    """Candidates, verified pairs, precision, recall, missed pairs and the comparisons the scheme costs."""

    def __init__(self, parent=None) -> None:
        super().__init__("Live figures", parent)
        self.values = {
            key: QLabel("…")
            for key in ("candidates", "verified", "precision", "recall", "missed", "cost", "p_t", "areas")
        }
        tips = {
            "candidates": "Pairs sharing a bucket in at least one band",
            "verified": "Candidates whose exact similarity reaches the threshold",
            "precision": "Verified pairs / candidates",
            "recall": "Verified pairs / all pairs whose exact similarity reaches the threshold",
            "missed": "Pairs at or above the threshold that are not candidates",
            "cost": "Exact comparisons: one per candidate, instead of one per pair of documents",
            "p_t": "The theory: the chance that a pair exactly at the threshold becomes a candidate",
            "areas": "The theory: false positives weigh the area under the curve left of the threshold,\n"
            "false negatives the area above it right of the threshold",
        }
        titles = {"cost": "Comparisons", "p_t": "P(threshold)", "areas": "FP / FN area"}
        form = QFormLayout(self)
        for key, label in self.values.items():
            label.setToolTip(tips[key])
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)
            form.addRow(titles.get(key, key.capitalize()), label)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        keep_style(self.note, lambda: f"color:{muted().name()}")
        form.addRow(self.note)

    def show_figures(self, f: Figures | None) -> None:
        """The figures of a scheme (``show_waited`` adds how long the user waited for them, once they are seen)."""
        if f is None:
            for label in self.values.values():
                label.setText("…")
            return
        est = "≈ " if f.sampled else ""
        self.values["candidates"].setText(f"{f.n_candidates:,}")
        self.values["verified"].setText(f"{f.n_verified:,} with J ≥ {f.threshold:.2f}")
        self.values["precision"].setText(_pct(f.precision))
        rec = _pct(f.recall)
        self.values["recall"].setText(
            "computing…" if math.isnan(f.positives) else f"{est}{rec} of {est}{f.positives:,.0f}"
        )
        self.values["missed"].setText("computing…" if math.isnan(f.missed_total) else f"{est}{f.missed_total:,.0f}")
        share = _pct(f.n_candidates / f.n_pairs) if f.n_pairs else "n/a"
        self.values["cost"].setText(f"{f.n_candidates:,} of {f.n_pairs:,} ({share})")
        self.values["p_t"].setText(f"{f.p_threshold:.1%}")
        self.values["areas"].setText(f"{f.fp_area:.4f} / {f.fn_area:.4f}")
        self.note.setText(_note(f))

    def show_waited(self, f: Figures, waited: float) -> None:
        """Say how long the user waited for ``f``: from the change until the figures were on screen."""
        self.note.setText(_note(f, waited))


def _note(f: Figures, waited: float | None = None) -> str:
    """The scheme, the time from the change until its figures were seen (once known), the worker's share."""
    sampled = " · recall is estimated from a sample" if f.sampled else ""
    if waited is None:
        return f"{f.banding}: re-banded in {f.seconds * 1000:.0f} ms{sampled}"
    return (
        f"{f.banding}: shown {waited * 1000:.0f} ms after the change (re-banded in {f.seconds * 1000:.0f} ms){sampled}"
    )
