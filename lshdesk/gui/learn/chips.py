"""Lesson 1's clickable word chips: one row of the 20 words per set, pale when out of the set, strong when in."""

from __future__ import annotations

import re

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QWidget

from lshdesk.core.teaching import lessons as t
from lshdesk.gui.theme import SET_COLORS, Tone, is_dark, keep_color, keep_style

FOCUS = Tone("#d35400", "#ffb74d")  # the keyboard focus ring: stands out on pale and on strong chips
CHIPS = {  # off: pale, on: strong; (background, border, text) for light and dark palettes
    False: (("#dce8f5", "#9bbbd4", "#222222"), ("#1d3557", "#f4f4f4", "#1d3557")),
    True: (("#2a3a4f", "#4d6a8c", "#e6e6e6"), ("#9cc3f5", "#101b2b", "#9cc3f5")),
}


def chip_css() -> str:
    """A word chip: pale when the word is out of the set, strong when it is in; a frame when it has focus."""
    (bg, border, text), (on_bg, on_text, on_border) = CHIPS[is_dark()]
    return (
        f"QPushButton {{ background:{bg}; border:1px solid {border}; border-radius:5px; padding:2px 6px; color:{text}; }}"
        f"QPushButton:checked {{ background:{on_bg}; color:{on_text}; border-color:{on_border}; }}"
        f"QPushButton:focus {{ border:2px solid {FOCUS.name()}; padding:1px 5px; }}"
    )


def legend_html() -> str:
    """What the chips' two looks mean."""
    (bg, border, text), (on_bg, on_text, _) = CHIPS[is_dark()]
    chip = lambda b, c, w: f"<span style='background:{b}; color:{c}'>&nbsp;{w}&nbsp;</span>"  # noqa: E731
    return (
        f"<b>Chips:</b> {chip(on_bg, on_text, 'strong')} the word is in the set &nbsp; "
        f"{chip(bg, text, 'pale')} it is not"
    )


def parse_words(text: str) -> list[str]:
    """The students' own words (spaces or commas between), distinct, at most 20; the article's fill the rest."""
    own = list(dict.fromkeys(w for w in re.split(r"[\s,;]+", text.strip().lower()) if w))[: len(t.UNIVERSE)]
    rest = [w for w in t.UNIVERSE if w not in own]
    return own + rest[: len(t.UNIVERSE) - len(own)]


class ChipGrid(QWidget):
    """``n_sets`` rows of word chips (two lines of ten each); emits ``toggled(set, word index)`` on a click."""

    toggled = Signal(int, int)

    def __init__(self, n_sets: int, words: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(3)
        self.chips: list[list[QPushButton]] = []
        for i in range(n_sets):
            label = QLabel(f"<b>S{i + 1}</b>")
            keep_color(label, SET_COLORS[i], "font-size:larger")
            grid.addWidget(label, 3 * i, 0, 2, 1)
            if i:
                grid.setRowMinimumHeight(3 * i - 1, 8)
            row = []
            for x in range(len(words)):
                chip = QPushButton()
                chip.setCheckable(True)
                keep_style(chip, chip_css)
                chip.clicked.connect(lambda _=False, i=i, x=x: self.toggled.emit(i, x))
                grid.addWidget(chip, 3 * i + x // 10, 1 + x % 10)
                row.append(chip)
            self.chips.append(row)
        self.set_words(words)

    def set_words(self, words: list[str]) -> None:
        """Name the chips (the words are the students' own or the article's; x is a chip's place in the list)."""
        for i, row in enumerate(self.chips):
            for x, chip in enumerate(row):
                chip.setText(words[x])
                chip.setAccessibleName(f"{words[x]} in S{i + 1}")
                chip.setToolTip(f"x = {x}. Click to put '{words[x]}' into S{i + 1} or take it out")

    def show_sets(self, sets: list[set[int]]) -> None:
        for s, row in zip(sets, self.chips):
            for x, chip in enumerate(row):
                chip.setChecked(x in s)
