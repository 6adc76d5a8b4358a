"""The first-run tour: a dismissible band above the views naming the three uses, each one click away (folds to a line)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

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


SHORT_WINDOW = 760  # a window shorter than this shows the tour as one line


def _band_css() -> str:
    """The band tinted towards the highlight colour, framed in a tone between window and text (light or dark)."""
    p = app_palette()
    window, text = p.color(QPalette.ColorRole.Window), p.color(QPalette.ColorRole.WindowText)
    tint, frame = blend(window, p.color(QPalette.ColorRole.Highlight), 0.08), blend(window, text, 0.3)
    return f"#tour {{ background: {tint.name()}; border: 1px solid {frame.name()}; border-radius: 6px; }}"


class Tour(QFrame):
    """Emits ``chosen`` with 'open', 'learn' or 'scurve', and ``dismissed`` when closed for good.

    One line of buttons; the three explanations below it fold away (Details), by themselves on a short window.
    """

    chosen = Signal(str)
    dismissed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("tour")
        keep_style(self, _band_css)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 4, 10, 4)
        line = QHBoxLayout()
        outer.addLayout(line)
        intro = QLabel("<b>Welcome to lshdesk.</b>")
        intro.setToolTip("Three things to do")
        intro.setMinimumWidth(20)  # a narrow window cuts the greeting rather than widening
        line.addWidget(intro)
        self.details = QWidget()
        lay = QHBoxLayout(self.details)
        lay.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.details)
        self.buttons: dict[str, QPushButton] = {}
        for title, text, key in STEPS:
            button = QPushButton(title)
            button.setToolTip(text)
            button.setMinimumWidth(60)
            line.addWidget(button)
            label = QLabel(f"<b>{title}:</b> {text}")
            label.setWordWrap(True)
            label.setMinimumWidth(60)  # wraps rather than widening the window
            lay.addWidget(label, 1)
            button.clicked.connect(lambda _=False, k=key: self.chosen.emit(k))
            self.buttons[key] = button
        line.addStretch(1)
        self.details_button = QToolButton()
        self.details_button.setText("Details")
        self.details_button.setCheckable(True)
        self.details_button.setChecked(True)
        self.details_button.setToolTip("Show or fold away what each of the three does")
        self.details_button.setAccessibleName("Tour details")
        self.details_button.setMinimumWidth(30)
        line.addWidget(self.details_button)
        self.close_button = QPushButton("Got it")
        self.close_button.setMinimumWidth(40)
        self.close_button.setToolTip("Hide this for good (Help > Tour shows it again)")
        line.addWidget(self.close_button)
        self.close_button.clicked.connect(self._dismiss)
        self.details_button.toggled.connect(self.details.setVisible)
        self.details_button.clicked.connect(lambda: setattr(self, "_chosen_by_user", True))
        self._chosen_by_user = False
        self._watched: QWidget | None = None

    def collapsed(self) -> bool:
        return not self.details_button.isChecked()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        window = self.window()
        if window is not self and window is not self._watched:
            self._watched = window
            window.installEventFilter(self)
        self._fit()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self._watched and event.type() == QEvent.Type.Resize:
            self._fit()
        return False

    def _fit(self) -> None:
        """On a short window (under SHORT_WINDOW pixels) the tour folds to one line, unless the user chose."""
        if not self._chosen_by_user and self._watched is not None:
            self.details_button.setChecked(self._watched.height() >= SHORT_WINDOW)

    def _dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
