"""A lesson's exercises: the student types an answer, then reveals the worked one (numbers are checked)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QGridLayout, QGroupBox, QLabel, QLineEdit, QPushButton, QWidget

from lshdesk.core.teaching.exercises import Exercise
from lshdesk.gui.learn.colours import FOUND, MISSED
from lshdesk.gui.learn.common import esc, rich_label
from lshdesk.gui.theme import colored


class ExerciseBox(QGroupBox):
    """Each exercise: its question, a field for the student's answer, and 'Show answer' (hidden until pressed)."""

    def __init__(self, exercises: list[Exercise], parent: QWidget | None = None) -> None:
        super().__init__("Exercises", parent)
        self.exercises = exercises
        self.replies: list[QLineEdit] = []
        self.buttons: list[QPushButton] = []
        self.answers: list[QLabel] = []
        self.questions: list[QLabel] = []
        self.fold: QCheckBox | None = None
        grid = QGridLayout(self)
        for i, ex in enumerate(exercises):
            question = rich_label(f"<b>{i + 1}.</b> {esc(ex.question)}")
            reply = QLineEdit()
            reply.setPlaceholderText("Your answer")
            reply.setAccessibleName(f"Your answer to exercise {i + 1}")
            reply.setAccessibleDescription(ex.question)  # a screen reader says the question in the field
            button = QPushButton("Show answer")
            button.setCheckable(True)
            button.setToolTip(f"Show or hide the answer to exercise {i + 1}")
            answer = rich_label("")
            answer.hide()
            button.toggled.connect(lambda on, i=i: self.reveal(i, on))
            grid.addWidget(question, 3 * i, 0, 1, 2)
            grid.addWidget(reply, 3 * i + 1, 0)
            grid.addWidget(button, 3 * i + 1, 1)
            grid.addWidget(answer, 3 * i + 2, 0, 1, 2)
            self.replies.append(reply)
            self.buttons.append(button)
            self.answers.append(answer)
            self.questions.append(question)
        grid.setColumnStretch(0, 1)

    def set_exercises(self, exercises: list[Exercise]) -> None:
        """New questions and answers for the same number of exercises (they follow the page's state); an answer shown
        is worked out again, the student's replies stay."""
        self.exercises = exercises
        for i, ex in enumerate(exercises):
            self.questions[i].setText(f"<b>{i + 1}.</b> {esc(ex.question)}")
            self.replies[i].setAccessibleDescription(ex.question)
            if self.buttons[i].isChecked():
                self.reveal(i, True)

    def make_foldable(self, folded: bool = True) -> None:
        """A switch that shows or folds away the exercises (for a page that must fit the window without them)."""
        self.fold = QCheckBox(f"Show the {len(self.exercises)} exercises")
        self.fold.setChecked(not folded)
        self.fold.setToolTip("Show the exercises' questions and answer fields, or fold them away")
        self.fold.toggled.connect(self._unfold)
        self.layout().addWidget(self.fold, 3 * len(self.exercises), 0, 1, 2)
        self._unfold(not folded)

    def _unfold(self, on: bool) -> None:
        for w in (*self.questions, *self.replies, *self.buttons):
            w.setVisible(on)
        for button, answer in zip(self.buttons, self.answers):
            answer.setVisible(on and button.isChecked())

    def reveal(self, i: int, on: bool = True) -> None:
        """Show (or hide again) exercise i's answer, with a verdict on the student's number where there is one."""
        ex, label = self.exercises[i], self.answers[i]
        self.buttons[i].setChecked(on)
        self.buttons[i].setText("Hide answer" if on else "Show answer")
        if not on:
            label.hide()
            return
        verdict = ex.check(self.replies[i].text())
        mark = (
            ""
            if verdict is None
            else colored("✓ right. ", FOUND, True)
            if verdict
            else colored("✗ not quite. ", MISSED, True)
        )
        label.setText(mark + esc(ex.answer))
        label.setVisible(self.fold is None or self.fold.isChecked())

    def reset(self) -> None:
        for i, reply in enumerate(self.replies):
            reply.clear()
            self.reveal(i, False)
