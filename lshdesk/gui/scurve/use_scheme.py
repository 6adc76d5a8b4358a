"""The S-curve view's "next scan" panel: take the explored scheme into the parameters, with what it would report."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGroupBox, QLabel, QPushButton, QVBoxLayout

from lshdesk.core.explore.figures import Figures
from lshdesk.core.params import Banding


class UseScheme(QGroupBox):
    """A button "Use b x r for the next scan" and a preview: the pairs the next scan would report, against now."""

    useRequested = Signal(object, float)  # Banding, threshold

    def __init__(self, parent=None) -> None:
        super().__init__("Next scan", parent)
        self.button = QPushButton("Use this scheme for the next scan")
        self.button.setToolTip("Set the parameters' bands x rows (and threshold) to the scheme explored here")
        self.button.setEnabled(False)
        self.preview = QLabel("")
        self.preview.setWordWrap(True)
        self.preview.setAccessibleName("Next scan preview")
        lay = QVBoxLayout(self)
        lay.addWidget(self.button)
        lay.addWidget(self.preview)
        self._chosen: tuple[Banding, float] | None = None
        self.button.clicked.connect(lambda: self._chosen and self.useRequested.emit(*self._chosen))

    def show_figures(self, f: Figures | None, scanned: tuple[Banding, float, int] | None) -> None:
        """The figures of the explored scheme, and the last scan's (scheme, threshold, pairs reported)."""
        if f is None or scanned is None:
            self._chosen = None
            self.button.setText("Use this scheme for the next scan")
            self.button.setEnabled(False)
            self.preview.setText("")
            return
        b, t = f.banding, round(f.threshold, 4)
        self._chosen = (b, t)
        self.button.setText(f"Use {b.bands} x {b.rows} for the next scan")
        self.button.setEnabled(True)
        now_b, now_t, now_n = scanned
        same = (b, t) == (now_b, round(now_t, 4))
        at = f"at threshold {t:g}" + ("" if t == round(now_t, 4) else f" (now {now_t:g})")
        self.preview.setText(
            f"This is the last scan's scheme: {now_n:,} pairs reported."
            if same
            else f"The next scan would report {f.n_verified:,} pairs {at}; the last scan ({now_b}) reported {now_n:,}."
        )
