"""The Learn view's contents: its pages in order, by section, each with the view's attribute and how to make it, and
the list that shows them."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QListWidget

from lshdesk.gui.learn.common import LessonPage
from lshdesk.gui.learn.corpus_source import CorpusSource
from lshdesk.gui.learn.experiment_pages import BandingPage, ErrorPage
from lshdesk.gui.learn.lesson_banding import BandingLesson
from lshdesk.gui.learn.lesson_bbit import BbitLesson
from lshdesk.gui.learn.lesson_choosing import ChoosingLesson
from lshdesk.gui.learn.lesson_containment import ContainmentLesson
from lshdesk.gui.learn.lesson_demo import DemoLesson
from lshdesk.gui.learn.lesson_matrix import MatrixLesson
from lshdesk.gui.learn.lesson_scale import ScaleLesson
from lshdesk.gui.learn.lesson_scurve import SCurveLesson
from lshdesk.gui.learn.lesson_sets import SetsLesson
from lshdesk.gui.learn.lesson_signatures import SignaturesLesson
from lshdesk.gui.learn.lesson_step import StepLesson

PageMaker = Callable[[CorpusSource], LessonPage]
# The lessons in an order that builds: sets alone, one slot, signatures, banding, the S-curve, then the article's
# whole pipeline. Each line: (title, the view's attribute for the page, how to make it). Numbers are given here.
LESSONS: list[tuple[str, str, PageMaker]] = [
    ("Sets and Jaccard", "sets", lambda source: SetsLesson()),
    ("One slot, step by step", "step", lambda source: StepLesson()),
    ("Signatures and the estimate", "signatures", SignaturesLesson),
    ("Banding", "banding", BandingLesson),
    ("The S-curve", "scurve", SCurveLesson),
    ("The article's whole pipeline", "demo", lambda source: DemoLesson()),
]
EXPERIMENTS: list[tuple[str, str, PageMaker]] = [
    ("Error versus k", "error", ErrorPage),
    ("Recall and false positives", "sweep", BandingPage),
]
# Mining of Massive Datasets ch. 3, the half the article's demos lack
TEXTBOOK: list[tuple[str, str, PageMaker]] = [
    ("The signature matrix, row by row", "matrix", lambda source: MatrixLesson()),
    ("Why not compare every pair?", "scale", ScaleLesson),
    ("Choosing k, b and r", "choosing", lambda source: ChoosingLesson()),
    ("Containment", "containment", lambda source: ContainmentLesson()),
    ("b-bit MinHash (advanced)", "bbit", BbitLesson),
]
SECTIONS: list[tuple[str, list[tuple[str, str, PageMaker]], bool]] = [  # (heading, pages, numbered as lessons)
    ("Lessons", LESSONS, True),
    ("From the textbook (MMDS ch. 3)", TEXTBOOK, False),
    ("Experiments", EXPERIMENTS, False),
]


class PageList(QListWidget):
    """The list of pages: the arrow keys, Home and End skip the two headings (which cannot be chosen)."""

    def moveCursor(self, action, modifiers):
        index = super().moveCursor(action, modifiers)
        if action == QAbstractItemView.CursorAction.MoveHome:
            rows = range(self.count())
        elif action == QAbstractItemView.CursorAction.MoveEnd:
            rows = range(self.count() - 1, -1, -1)
        else:
            return index
        row = next((r for r in rows if self.item(r).flags() & Qt.ItemFlag.ItemIsEnabled), self.currentRow())
        return self.model().index(row, 0)
