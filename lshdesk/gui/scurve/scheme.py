"""The S-curve view's scheme panel: bands and rows (sliders and spin boxes, b x r <= k), the slots they use, the
threshold, and the preset schemes drawn for comparison."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSlider,
    QSpinBox,
    QWidget,
)

from lshdesk.core.params import Banding
from lshdesk.gui.accessible import describe, say_range
from lshdesk.gui.theme import blend

BAND_COLOURS = (QColor("#0072B2"), QColor("#56B4E9"))


class SlotBar(QWidget):
    """The k slots of a signature: used slots coloured band by band, unused slots grey."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.k, self.bands, self.rows = 128, 1, 1
        self.setMinimumHeight(14)
        self.setMaximumHeight(14)

    def set_scheme(self, k: int, bands: int, rows: int) -> None:
        self.k, self.bands, self.rows = k, bands, rows
        self.setToolTip(
            f"{bands} bands x {rows} rows use {bands * rows} of the {k} slots; {k - bands * rows} unused (grey)"
        )
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        w = self.width() / max(self.k, 1)
        used = self.bands * self.rows
        for band in range(self.bands):
            p.fillRect(QRectF(band * self.rows * w, 0, self.rows * w, self.height()), BAND_COLOURS[band % 2])
        pal = self.palette()  # unused slots: between the base and the text colour, light or dark
        p.fillRect(
            QRectF(used * w, 0, (self.k - used) * w, self.height()),
            blend(pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text), 0.2),
        )
        p.setPen(pal.color(QPalette.ColorRole.Mid))
        p.drawRect(QRectF(0, 0, self.width() - 1, self.height() - 1))


def _buddy(text: str, widget: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def _slider_spin(lo: int, hi: int, tip: str) -> tuple[QSlider, QSpinBox]:
    slider = QSlider(Qt.Orientation.Horizontal)
    spin = QSpinBox()
    for w in (slider, spin):
        w.setRange(lo, hi)
        w.setToolTip(tip)
        w.setSingleStep(1)
    slider.setPageStep(1)  # a click beside the handle or Page Up/Down moves by one, as the arrow keys do
    describe(slider, tip)  # and its range, as k changes it
    slider.valueChanged.connect(spin.setValue)
    spin.valueChanged.connect(slider.setValue)
    return slider, spin


class SchemeControls(QGroupBox):
    """Bands, rows, the threshold and the comparisons shown; the user's edits are forwarded as they are (the explorer's
    state applies b x r <= k and shows the result back with ``set_banding``)."""

    bandsEdited = Signal(int)
    rowsEdited = Signal(int)
    thresholdEdited = Signal(float)
    comparisonsEdited = Signal(tuple)  # two preset names, "" for none

    def __init__(self, parent=None) -> None:
        super().__init__("Scheme", parent)
        self.k = 128
        self.b_slider, self.b_spin = _slider_spin(
            1, 128, "Bands b: more bands catch more pairs (and more dissimilar ones)"
        )
        self.r_slider, self.r_spin = _slider_spin(1, 128, "Rows r per band: more rows make each band stricter")
        self.b_spin.setAccessibleName("Bands")
        self.r_spin.setAccessibleName("Rows")
        self.b_slider.setAccessibleName("Bands slider")
        self.r_slider.setAccessibleName("Rows slider")
        self.slots = SlotBar()
        self.slots_text = QLabel()
        self.slots_text.setWordWrap(True)  # its longest line must not widen the panel past its scroll area
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0.05, 1.0)
        self.threshold.setDecimals(2)
        self.threshold.setSingleStep(0.01)
        self.threshold.setToolTip("Similarity a pair must reach (exact Jaccard); drag the line on the plot too")
        self.threshold.setAccessibleName("Threshold")
        self.compare = [QComboBox(), QComboBox()]
        for c, name in zip(self.compare, ("Compare with a preset", "Compare with another preset")):
            c.setAccessibleName(name)
        self._lay_out()
        self.b_spin.valueChanged.connect(self.bandsEdited)
        self.r_spin.valueChanged.connect(self.rowsEdited)
        self.threshold.valueChanged.connect(self.thresholdEdited)
        for c in self.compare:
            c.currentIndexChanged.connect(lambda _i: self.comparisonsEdited.emit(self.comparisons()))
        self.set_k(128, {})

    def _lay_out(self) -> None:
        grid = QGridLayout(self)
        grid.addWidget(_buddy("Bands b", self.b_spin), 0, 0)
        grid.addWidget(self.b_slider, 0, 1)
        grid.addWidget(self.b_spin, 0, 2)
        grid.addWidget(_buddy("Rows r", self.r_spin), 1, 0)
        grid.addWidget(self.r_slider, 1, 1)
        grid.addWidget(self.r_spin, 1, 2)
        grid.addWidget(self.slots, 2, 0, 1, 3)
        grid.addWidget(self.slots_text, 3, 0, 1, 3)
        grid.addWidget(_buddy("Threshold", self.threshold), 4, 0)
        grid.addWidget(self.threshold, 4, 1, 1, 2)
        # one combo a row, the whole width: side by side they cut the preset names ("balanced 1…") at 1280 x 800
        for row, (c, word) in enumerate(zip(self.compare, ("Compare", "and")), start=5):
            c.setToolTip("Draw a preset scheme's curve for comparison")
            c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            c.setMinimumContentsLength(len("balanced 16x8"))  # a preset's name whole; the panel is as wide as this
            grid.addWidget(_buddy(word, c), row, 0)
            grid.addWidget(c, row, 1, 1, 2)

    def set_k(self, k: int, presets: dict[str, Banding]) -> None:
        """Slots available and the preset schemes offered for comparison (shown with ``set_comparisons``)."""
        self.k = k
        for w in (self.b_slider, self.b_spin, self.r_slider, self.r_spin):
            w.blockSignals(True)
            w.setMaximum(k)
            w.blockSignals(False)
        for slider in (self.b_slider, self.r_slider):
            say_range(slider)  # its range changed quietly
        for c in self.compare:
            c.blockSignals(True)
            c.clear()
            c.addItem("none", "")
            for name, s in presets.items():
                c.addItem(f"{name} {s}", name)
            c.view().setMinimumWidth(c.view().sizeHintForColumn(0) + 8)  # the list shows every name whole
            c.blockSignals(False)

    def banding(self) -> Banding:
        """The scheme shown."""
        return Banding(self.b_spin.value(), self.r_spin.value())

    def comparisons(self) -> tuple[str, ...]:
        """The preset names chosen in the two combos ("" for none)."""
        return tuple(c.currentData() or "" for c in self.compare)

    def set_comparisons(self, names: tuple[str, ...]) -> None:
        for c, name in zip(self.compare, names):
            c.blockSignals(True)
            c.setCurrentIndex(max(0, c.findData(name)))
            c.blockSignals(False)

    def set_banding(self, banding: Banding) -> None:
        """Show a scheme (the state's) without announcing it."""
        for w, v in (
            (self.b_spin, banding.bands),
            (self.b_slider, banding.bands),
            (self.r_spin, banding.rows),
            (self.r_slider, banding.rows),
        ):
            w.blockSignals(True)
            w.setValue(v)
            w.blockSignals(False)
        b, r = banding.bands, banding.rows
        self.slots.set_scheme(self.k, b, r)
        self.slots_text.setText(f"{b} x {r} = {b * r} of {self.k} slots used, {self.k - b * r} unused")

    def set_threshold(self, t: float, lowest: float | None = None) -> None:
        """Show a threshold (and the lowest one allowed) without announcing it."""
        self.threshold.blockSignals(True)
        if lowest is not None:
            self.threshold.setMinimum(lowest)
        self.threshold.setValue(t)
        self.threshold.blockSignals(False)
