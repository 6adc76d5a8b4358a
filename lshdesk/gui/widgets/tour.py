"""The first-run tour: a dismissible band above the views naming the three uses, each one click away."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from lshdesk.gui.theme import app_palette, blend, keep_style

STEPS = [
    (
        "Compare folders",
        "Open your folders (Ctrl+O or drop them here) and press Scan (F5): near-duplicate pairs "
        "and groups appear in Results; select one to read it side by side.",
        "open",
    ),
    (
        "Learn",
        "Five short lessons show how MinHash signatures estimate similarity and how banding finds the "
        "candidate pairs, with live examples.",
        "learn",
    ),
    (
        "Explore banding",
        "The S-curve tab puts this corpus's real pairs on the banding curve: move bands and rows "
        "and watch recall and precision change.",
        "scurve",
    ),
]


def _band_css() -> str:
    """The band tinted towards the highlight colour, framed in a tone between window and text (light or dark)."""
    p = app_palette()
    window, text = p.color(QPalette.ColorRole.Window), p.color(QPalette.ColorRole.WindowText)
    tint, frame = blend(window, p.color(QPalette.ColorRole.Highlight), 0.08), blend(window, text, 0.3)
    return f"#tour {{ background: {tint.name()}; border: 1px solid {frame.name()}; border-radius: 6px; }}"


class Tour(QFrame):
    """Emits ``chosen`` with 'open', 'learn' or 'scurve', and ``dismissed`` when closed for good."""

    chosen = Signal(str)
    dismissed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("tour")
        keep_style(self, _band_css)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 6, 10, 6)
        intro = QLabel("<b>Welcome to lshdesk.</b> Three things to do:")
        intro.setWordWrap(True)
        intro.setMinimumWidth(60)
        outer.addWidget(intro)
        lay = QHBoxLayout()
        outer.addLayout(lay)
        self.buttons: dict[str, QPushButton] = {}
        for title, text, key in STEPS:
            col = QVBoxLayout()
            button = QPushButton(title)
            button.setToolTip(text)
            label = QLabel(text)
            label.setWordWrap(True)
            label.setMinimumWidth(60)  # wraps rather than widening the window
            button.setMinimumWidth(60)
            col.addWidget(button)
            col.addWidget(label)
            lay.addLayout(col, 1)
            button.clicked.connect(lambda _=False, k=key: self.chosen.emit(k))
            self.buttons[key] = button
        self.close_button = QPushButton("Got it")
        self.close_button.setMinimumWidth(40)
        self.close_button.setToolTip("Hide this for good (Help > Tour shows it again)")
        lay.addWidget(self.close_button)
        self.close_button.clicked.connect(self._dismiss)

    def _dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
