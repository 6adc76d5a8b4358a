"""The lessons' shingle choice (word, word:N, char:N) with a short explanation of shingle size and stop words."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QWidget

from lshdesk.core.params import ShingleSpec
from lshdesk.core.shingle_kinds import menu
from lshdesk.gui.learn.common import buddy, rich_label

CHOICES = tuple(menu(lessons=True))
EXPLAIN = (
    "<b>Shingles</b>: <i>word</i> takes each distinct word, <i>word:N</i> every run of N consecutive words, "
    "<i>char:N</i> every run of N characters. Small shingles are shared by chance: stop words such as "
    "“the” or “a” sit in almost every text, so single words make unrelated texts look alike; runs of several "
    "words are shared only where wording is copied. For character shingles <i>Mining of Massive Datasets</i> "
    "suggests 5 characters for short e-mails and 9 for long documents (long enough that a random shingle is rare)."
)


class ShingleChoice(QWidget):
    """A 'shingles' combo box and its explanation; ``changed`` carries the new ShingleSpec."""

    changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = QComboBox()
        self.box.addItems(CHOICES)
        self.box.setAccessibleName("Shingles")
        self.box.setToolTip(
            "What each text's set is made of: its words, runs of N words (word:N) or of N characters (char:N)"
        )
        self.explain = rich_label(EXPLAIN)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(buddy("Shingles:", self.box))
        lay.addWidget(self.box)
        lay.addWidget(self.explain, 1)
        self.box.currentTextChanged.connect(lambda text: self.changed.emit(ShingleSpec.parse(text)))

    def spec(self) -> ShingleSpec:
        return ShingleSpec.parse(self.box.currentText())

    def reset(self) -> None:
        self.box.setCurrentIndex(0)
