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
    slider.valueChanged.connect(spin.setValue)
    spin.valueChanged.connect(slider.setValue)
    return slider, spin


class SchemeControls(QGroupBox):
    """Bands and rows (b x r <= k: raising one lowers the other when needed), the threshold, the comparisons."""

    schemeChanged = Signal(object)  # Banding
    thresholdChanged = Signal(float)
    comparisonsChanged = Signal()

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
            c.currentIndexChanged.connect(self.comparisonsChanged)
        self.b_spin.valueChanged.connect(lambda v: self._edited("b"))
        self.r_spin.valueChanged.connect(lambda v: self._edited("r"))
        self.threshold.valueChanged.connect(self.thresholdChanged)
        self.set_k(128, {})

    def set_k(self, k: int, presets: dict[str, Banding]) -> None:
        """Slots available and the preset schemes offered for comparison."""
        self.k = k
        for w in (self.b_slider, self.b_spin, self.r_slider, self.r_spin):
            w.blockSignals(True)
            w.setMaximum(k)
            w.blockSignals(False)
        for i, c in enumerate(self.compare):
            c.blockSignals(True)
            c.clear()
            c.addItem("none", None)
            for name, s in presets.items():
                c.addItem(f"{name} {s}", (name, s))
            c.setCurrentIndex(min(i + 2, c.count() - 1) if i == 0 else 0)  # default: the balanced preset
            c.view().setMinimumWidth(c.view().sizeHintForColumn(0) + 8)  # the list shows every name whole
            c.blockSignals(False)

    def banding(self) -> Banding:
        return Banding(self.b_spin.value(), self.r_spin.value())

    def comparisons(self) -> list[tuple[str, Banding]]:
        return [c.currentData() for c in self.compare if c.currentData() is not None]

    def set_banding(self, banding: Banding) -> None:
        """Show a scheme chosen elsewhere (auto-tune, a new result) without announcing it."""
        for w, v in (
            (self.b_spin, banding.bands),
            (self.b_slider, banding.bands),
            (self.r_spin, banding.rows),
            (self.r_slider, banding.rows),
        ):
            w.blockSignals(True)
            w.setValue(v)
            w.blockSignals(False)
        self._show_slots()

    def set_threshold(self, t: float) -> None:
        self.threshold.blockSignals(True)
        self.threshold.setValue(t)
        self.threshold.blockSignals(False)

    def _edited(self, which: str) -> None:
        b, r = self.b_spin.value(), self.r_spin.value()
        if b * r > self.k:  # keep b x r <= k: the other control gives way
            if which == "b":
                self.set_banding(Banding(b, max(1, self.k // b)))
            else:
                self.set_banding(Banding(max(1, self.k // r), r))
        self._show_slots()
        self.schemeChanged.emit(self.banding())

    def _show_slots(self) -> None:
        b, r = self.b_spin.value(), self.r_spin.value()
        self.slots.set_scheme(self.k, b, r)
        self.slots_text.setText(f"{b} x {r} = {b * r} of {self.k} slots used, {self.k - b * r} unused")
