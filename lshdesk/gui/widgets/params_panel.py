"""The Parameters panel: shingling, k, seed, hash family, measure, threshold and the banding scheme, and Scan."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.errors import LshdeskError
from lshdesk.core.explore.state import ExploreState
from lshdesk.core.params import FAMILIES, Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scurve import threshold as curve_threshold
from lshdesk.core.shingle_kinds import menu
from lshdesk.gui.theme import ERROR, keep_color
from lshdesk.gui.widgets.file_options import FileOptions

MEASURE_CHOICES = (("Jaccard", "jaccard"), ("Containment", "containment"))
SHINGLINGS = menu()


class ParamsPanel(QWidget):
    """Edits a ScanParams; emits ``paramsEdited`` with a valid one, ``scanRequested`` on Scan. With automatic bands x
    rows it shows the scheme the explorer's state says a scan uses (the last scan's own choice for its parameters)."""

    paramsEdited = Signal(object)
    scanRequested = Signal()

    def __init__(self, params: ScanParams, explore: ExploreState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.explore = explore if explore is not None else ExploreState()  # what the S-curve explorer shows
        self.shingle = QComboBox()
        self.shingle.setEditable(True)
        self.shingle.addItems(SHINGLINGS)
        self.shingle.setAccessibleName("Shingling")
        self.shingle.setToolTip(
            "What a document's set is made of: words, N consecutive words (word:N) or N characters (char:N).\n"
            "Longer shingles make reworded text look less similar; word:3 is a good default for prose."
        )
        self.k = QSpinBox()
        self.k.setRange(1, 1024)
        self.k.setToolTip("Hash functions per signature (k). More: a more exact estimate, slower scans, more memory.")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("Seed of the hash functions. The same seed gives the same signatures on every machine.")
        self.family = QComboBox()
        self.family.addItems(FAMILIES)
        self.family.setAccessibleName("Hash family")
        self.family.setToolTip(
            "fast: lshdesk's own (the quickest).\narticle: the encyclopedia entry's reference implementation.\n"
            "datasketch: the values datasketch.MinHash gives, to cross-check with that library."
        )
        self.measure = QComboBox()
        for label, key in MEASURE_CHOICES:
            self.measure.addItem(label, key)
        self.measure.setAccessibleName("Measure")
        self.measure.setToolTip(
            "Jaccard: how alike two documents are as wholes.\nContainment: how much of the smaller document is "
            "inside the larger (an excerpt in a report), each pair of document sizes with its own bands x rows."
        )
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0.01, 1.0)
        self.threshold.setSingleStep(0.05)
        self.threshold.setDecimals(2)
        self.threshold.setToolTip(
            "Similarity a pair must reach to be reported (exact Jaccard, checked for every candidate)."
        )
        self.auto = QCheckBox("auto")
        self.auto.setAccessibleName("Bands and rows chosen automatically")
        self.auto.setToolTip("Choose bands x rows for the threshold (balancing missed pairs against extra candidates).")
        self.bands = QSpinBox()
        self.bands.setRange(1, 1024)
        self.bands.setAccessibleName("Bands")
        self.bands.setToolTip("Bands: more bands catch more pairs (and more dissimilar candidates).")
        self.rows = QSpinBox()
        self.rows.setRange(1, 1024)
        self.rows.setAccessibleName("Rows per band")
        self.rows.setToolTip("Rows per band: more rows make a band stricter.")
        self.files = FileOptions()
        self.scheme_note = QLabel()
        self.scheme_note.setWordWrap(True)
        self.error = QLabel()
        keep_color(self.error, ERROR)
        self.error.setWordWrap(True)
        self.scan_button = QPushButton("Scan (F5)")
        self.scan_button.setToolTip("Read the folders and find the near-duplicate pairs")

        scheme = QHBoxLayout()
        scheme.addWidget(self.bands)
        scheme.addWidget(QLabel("x"))
        scheme.addWidget(self.rows)
        scheme.addWidget(self.auto)
        form = QFormLayout()
        form.addRow("Shingling", self.shingle)
        form.addRow("k", self.k)
        form.addRow("Seed", self.seed)
        form.addRow("Hash family", self.family)
        form.addRow("Measure", self.measure)
        form.addRow("Threshold", self.threshold)
        form.addRow("Bands x rows", scheme)
        form.addRow("Files", self.files)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(form)
        lay.addWidget(self.scheme_note)
        lay.addWidget(self.error)
        lay.addWidget(self.scan_button)
        lay.addStretch(1)

        self.set_params(params)
        self._connect()

    def _explored(self, names: frozenset[str]) -> None:
        if "scanned" in names:  # a new scan: the automatic scheme it chose
            self._show_automatic()

    def _connect(self) -> None:
        self.explore.watch(self._explored)
        for w in (self.k, self.seed, self.bands, self.rows, self.threshold):
            w.valueChanged.connect(self._edited)
        self.family.currentTextChanged.connect(self._edited)
        self.measure.currentIndexChanged.connect(self._edited)
        self.shingle.currentTextChanged.connect(self._edited)
        self.auto.toggled.connect(self._edited)
        self.scan_button.clicked.connect(self.scanRequested)
        self.files.changed.connect(self._edited)

    def set_params(self, p: ScanParams) -> None:
        self.files.set_options(p.corpus)
        widgets = (
            *(self.shingle, self.k, self.seed, self.family, self.measure, self.threshold, self.auto),
            *(self.bands, self.rows),
        )
        for w in widgets:
            w.blockSignals(True)
        self.shingle.setCurrentText(str(p.signature.shingle))
        self.k.setValue(p.signature.k)
        self.seed.setValue(p.signature.seed)
        self.family.setCurrentText(p.signature.family)
        self.measure.setCurrentIndex(max(0, self.measure.findData(p.measure)))
        self.threshold.setValue(p.threshold)
        self.auto.setChecked(p.banding is None)
        for w in widgets:
            w.blockSignals(False)
        self._show_automatic()

    def use_scheme(self, banding: Banding, threshold: float) -> None:
        """Take a scheme explored on the S-curve into the next scan: its bands x rows (auto off) and threshold."""
        for w, set_value in (
            (self.auto, lambda: self.auto.setChecked(False)),
            (self.bands, lambda: self.bands.setValue(banding.bands)),
            (self.rows, lambda: self.rows.setValue(banding.rows)),
            (self.threshold, lambda: self.threshold.setValue(threshold)),
        ):
            w.blockSignals(True)
            set_value()
            w.blockSignals(False)
        self._edited()

    def params(self) -> ScanParams:
        """The parameters shown, validated (raises LshdeskError with the fix)."""
        sig = SignatureParams(
            ShingleSpec.parse(self.shingle.currentText()), self.family.currentText(), self.k.value(), self.seed.value()
        )
        measure = self.measure.currentData() or "jaccard"
        manual = not self.auto.isChecked() and measure == "jaccard"  # containment: a scheme per pair of sizes
        banding = Banding(self.bands.value(), self.rows.value()) if manual else None
        return ScanParams(sig, round(self.threshold.value(), 4), banding, self.files.options(), measure=measure)

    def _edited(self) -> None:
        self.bands.setEnabled(not self.auto.isChecked())
        self.rows.setEnabled(not self.auto.isChecked())
        try:
            p = self.params()
        except LshdeskError as e:
            self.error.setText(str(e))
            self.scan_button.setEnabled(False)
            return
        self.error.clear()
        self.scan_button.setEnabled(True)
        self._show_automatic(p)
        self.paramsEdited.emit(p)

    def _show_automatic(self, p: ScanParams | None = None) -> None:
        """Bands x rows as a scan with these parameters uses them (the automatic choice shown when auto is on)."""
        if p is None:
            try:
                p = self.params()
            except LshdeskError:
                return
        b, why = self.explore.automatic(p)
        if p.banding is None:
            for w, v in ((self.bands, b.bands), (self.rows, b.rows)):
                w.blockSignals(True)
                w.setValue(v)
                w.blockSignals(False)
        self._update_scheme(b, p.signature.k, why)

    def _update_scheme(self, b: Banding, k: int, why: str = "") -> None:
        unused = k - b.bands * b.rows
        note = f"Pairs are likeliest to be caught above about {curve_threshold(b.bands, b.rows):.2f}."
        if unused > 0:
            note += f" {unused} of the {k} slots are unused."
        if why:
            note += f" The last scan with these parameters chose {why}."
        jaccard = self.measure.currentData() != "containment"
        if not jaccard:
            note = "Containment: documents are grouped by size, and each pair of sizes gets its own bands x rows."
        self.scheme_note.setText(note)
        for w in (self.bands, self.rows):
            w.setEnabled(jaccard and not self.auto.isChecked())
        self.auto.setEnabled(jaccard)


def scrolling(panel: ParamsPanel) -> QScrollArea:
    """The panel in a scroll area, so that a short screen scrolls it; wide enough that no box is clipped."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the parameters, which it scrolls into view
    scroll.setWidget(panel)
    bar = scroll.verticalScrollBar().sizeHint().width()  # room for the scroll bar when it shows
    scroll.setMinimumWidth(panel.minimumSizeHint().width() + bar)
    return scroll
