"""Lesson 'Banding': strict, balanced and loose on the eight sentences (or the user's files), candidates vs truly similar."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QHeaderView,
    QLabel,
    QRadioButton,
    QSpinBox,
    QTableWidgetItem,
    QWidget,
)

from lshdesk.core.humanize import plural, scheme_text
from lshdesk.core.params import Banding, SignatureParams
from lshdesk.core.scurve import presets
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import banding_exercises
from lshdesk.core.teaching.figures import to_fixed
from lshdesk.gui.learn.colours import FALSE_POSITIVE, FOUND, MISSED, swatch
from lshdesk.gui.learn.common import (
    CUTOFF_LABEL,
    MAX_LESSON_DOCS,
    CorpusSource,
    LessonPage,
    buddy,
    cutoff_box,
    esc,
    formula_box,
    lesson_grid,
    rich_label,
    sentences_note,
    short,
)
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout, together
from lshdesk.gui.learn.room import Columns, GridRoom
from lshdesk.gui.learn.tables import fit_rows, fit_width, lesson_table
from lshdesk.gui.signatures.model import row_letter
from lshdesk.gui.theme import colored, muted_html, text_on

INTRO = (
    "Comparing every pair is too slow for a big collection, so LSH cuts each signature into <b>b bands of r "
    "rows</b>. Documents whose values agree on a whole band land in the same <b>bucket</b>; sharing any bucket "
    "makes two documents a <b>candidate pair</b>, and only candidates are checked further. With k = 16: "
    "<b>strict</b> 1 × 16 needs the whole signature to agree, <b>balanced</b> 4 × 4 one band of 4 slots, "
    "<b>loose</b> 16 × 1 any single slot. Switch schemes and compare the candidates with the truly similar "
    "pairs: those whose exact Jaccard is at least the cut-off <b>t</b> you choose. A candidate below t is a "
    "<b>false positive</b>: the exact check after banding finds it and drops it; a similar pair that never "
    "becomes a candidate is <b>missed</b>, and nothing brings it back."
)
VERDICT_BG = {"found": None, "missed": MISSED, "false positive": FALSE_POSITIVE, "": None}  # found: bold
STORY = ("strict", "balanced", "loose")  # what → and ← step through
ROOM_LINES = 22  # the grid's room: summary, a header and eight rows, the legend; the rest goes to the table
ROOM_LINES_PRESENTING = 15  # at 3.5 % of the screen a line is 1/24 of it: the grid scrolls inside, on screen
MAX_ROWS = 200


class BandingLesson(LessonPage):
    """A scheme switch, the signatures with their bands, and every interesting pair with its verdict."""

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("Banding", INTRO, parent)
        self.source = source
        self.add_use_files(source, self.use_my_files)
        self.schemes = presets(16)
        self.radios: dict[str, QRadioButton] = {}
        group = QButtonGroup(self)
        row = FlowLayout()
        row.addWidget(QLabel("Scheme (← →):"))
        for name, b in self.schemes.items():
            radio = QRadioButton(f"{name} {b.bands} × {b.rows}")
            radio.setToolTip(f"Band the signatures into {plural(b.bands, 'band')} of {plural(b.rows, 'row')} ({name})")
            group.addButton(radio)
            row.addWidget(radio)
            radio.toggled.connect(lambda on: on and self.update_scheme())
            self.radios[name] = radio
        self.seed = QSpinBox()
        self.seed.setRange(1, 2**31 - 1)
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.seed.setToolTip("The seed that draws the hash functions")
        self.cutoff = cutoff_box()
        row.addWidget(together(buddy("seed", self.seed), self.seed))
        row.addWidget(together(buddy(CUTOFF_LABEL, self.cutoff), self.cutoff))
        self.add_reset(row)
        self.body.addLayout(row)
        self.summary = formula_box("")
        self.body.addWidget(self.summary)

        self.sentences = rich_label("")
        self.note = rich_label("")  # what holds of the sample sentences, under the pairs table
        self.pairs = lesson_table(["pair", "J", "estimate", "candidate", "verdict"], "Pairs")
        self.pairs.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.pairs.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.pairs.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.pairs.horizontalHeader().setStretchLastSection(True)
        self.pairs.setMinimumHeight(150)
        self.pairs.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # it is as wide as its columns
        self.grid = lesson_grid(0)
        self.room = GridRoom(ROOM_LINES)
        self.room.layout().addWidget(self.grid)
        self.exercises = ExerciseBox(banding_exercises(t.LESSON_PARAMS.seed, t.SIMILAR_CUTOFF))
        self.exercises.make_foldable()  # folded under the table, so that the lesson fits 1280 x 800 without scrolling
        # the sentences above their signatures; beside them (under them in a narrow window) the pairs table, the note
        self.columns = Columns(
            [(self.sentences, 0), (self.room, 1)],
            [(self.pairs, 1), (self.note, 0), (self.exercises, 0)],
        )
        self.body.addLayout(self.columns, 1)
        self.figure = self.room

        self.seed.valueChanged.connect(self.recompute)
        self.cutoff.valueChanged.connect(self.update_scheme)
        self.pairs.itemSelectionChanged.connect(self._pair_selected)
        self.use_my_files(False)
        self.radios["balanced"].setChecked(True)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "pairs"):
            fit_rows(self.pairs)
            self._fit_pairs_width()

    def restyle(self) -> None:
        if hasattr(self, "outcome"):
            self.update_scheme()

    def parameters(self) -> dict[str, str]:
        b = self.banding()
        return {
            "documents": self.data_name,
            "scheme": scheme_text(b.bands, b.rows),
            "hash family": f"article, seed {self.seed.value()}, k = 16",
            "cut-off t": f"{self.cutoff.value():g}",
            "candidates": ", ".join(f"{a}–{c}" for a, c in sorted(self.candidate_pairs())) or "none",
        }

    def reading(self) -> list[QWidget]:
        return [*super().reading(), self.note]

    def present(self, on: bool) -> None:
        super().present(on)
        self.room.set_lines(ROOM_LINES_PRESENTING if on else ROOM_LINES)  # the grid within a projector's screen
        self.note.setVisible(not on and not (self.use_files is not None and self.use_files.isChecked()))

    def step_forward(self) -> None:
        self._story(+1)

    def step_back(self) -> None:
        self._story(-1)

    def step_home(self) -> None:
        self.radios[STORY[0]].setChecked(True)

    def _story(self, step: int) -> None:
        name = next((n for n, r in self.radios.items() if r.isChecked()), "balanced")
        at = STORY.index(name) if name in STORY else 1
        self.radios[STORY[max(0, min(len(STORY) - 1, at + step))]].setChecked(True)

    def reset(self) -> None:
        for w in (self.seed, self.cutoff):
            w.blockSignals(True)
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.cutoff.setValue(t.SIMILAR_CUTOFF)
        for w in (self.seed, self.cutoff):
            w.blockSignals(False)
        self.radios["balanced"].setChecked(True)
        if self.use_files is not None and self.use_files.isChecked():
            self.use_files.setChecked(False)
        else:
            self.use_my_files(False)

    # --- data ---------------------------------------------------------------------------------------------------
    def use_my_files(self, on: bool) -> None:
        if on:
            docs = self.source.documents()[:MAX_LESSON_DOCS]
            self.names = [short(n.replace("\\", "/").rsplit("/", 1)[-1], 14) for n, _ in docs]
            self.full_names = [n for n, _ in docs]
            self.texts = [text for _, text in docs]
            self.data_name = (
                f"your first {len(docs)} documents" if len(docs) == MAX_LESSON_DOCS else f"your {len(docs)} documents"
            )
            self.intro_files = (
                f"<b>{esc(self.data_name)}</b>, compared as word sets. The table lists the pairs that are similar or "
                f"became candidates (at most {MAX_ROWS}); select one to see its two signatures below."
            )
        else:
            self.names = [f"sentence {i}" for i in range(len(t.SENTENCES))]
            self.full_names = list(t.SENTENCES)
            self.texts = list(t.SENTENCES)
            self.data_name = "the eight sample sentences"
            self.sentences.setText(
                "<b>The eight sentences</b> (lshdesk's own: the entry never published its sentences)<br>"
                + "<br>".join(f"<b>{i}</b> {esc(s)}" for i, s in enumerate(t.SENTENCES))
            )
            self.note.setText(muted_html(sentences_note()))
        self.note.setVisible(not on)
        self.jac = t.jaccard_matrix(self.texts)
        self.recompute()

    def recompute(self) -> None:
        params = SignatureParams(t.WORDS, "article", 16, self.seed.value())
        self.sigs = t.lesson_signatures(self.texts, params)
        self.params = params
        self._stop_words: dict[int, str] | None = None  # computed when a scheme first needs it
        self.update_scheme()

    def _update_exercises(self) -> None:
        """The exercises follow the seed and the cut-off on the page (on the sample sentences)."""
        self.exercises.set_exercises(banding_exercises(self.seed.value(), self.cutoff.value()))

    def banding(self) -> Banding:
        return (
            next(self.schemes[n] for n, r in self.radios.items() if r.isChecked())
            if any(r.isChecked() for r in self.radios.values())
            else self.schemes["balanced"]
        )

    def update_scheme(self) -> None:
        banding = self.banding()
        self.outcome = out = t.banding_outcome(self.sigs, self.jac, banding, self.cutoff.value())
        c = out.counts()
        n_sim, n_dis = int(out.similar.sum()), int((~out.similar).sum())
        self.summary.setText(
            f"<b>{scheme_text(banding.bands, banding.rows)}</b> "
            f"on {esc(self.data_name)}: {len(out.left)} pairs, {n_sim} truly similar (J ≥ cut-off "
            f"{self.cutoff.value():g}). Found "
            + colored(f"{c['found']} of {n_sim}", FOUND, True)
            + " similar pairs (<b>found</b> in bold), "
            + swatch(f"missed {c['missed']}", MISSED)
            + ", and made "
            + swatch(f"{c['false']} false positives", FALSE_POSITIVE)
            + f" of the {n_dis} dissimilar pairs. "
            + muted_html(
                "Chance that a pair of similarity J becomes a candidate: "
                f"1 − (1 − J<sup>{banding.rows}</sup>)<sup>{banding.bands}</sup>."
            )
            + self._stop_word_html(banding)
        )
        self._fill_pairs(out)
        self._show_grid()
        self._update_exercises()

    # --- showing ------------------------------------------------------------------------------------------------
    def _fill_pairs(self, out: t.BandingOutcome) -> None:
        keep = np.flatnonzero(out.candidate | out.similar | (len(self.texts) <= 8))
        keep = keep[np.lexsort((out.right[keep], out.left[keep], -out.jaccard[keep]))][:MAX_ROWS]
        self.rows = keep
        self.pairs.blockSignals(True)
        self.pairs.setRowCount(len(keep))
        for row, p in enumerate(keep):
            verdict = self.verdict(int(p))
            pair = f"{out.left[p]} – {out.right[p]}"
            if len(self.texts) <= 8:
                pair += f"  ({row_letter(int(out.left[p]))}–{row_letter(int(out.right[p]))})"
            cells = [
                pair,
                to_fixed(float(out.jaccard[p]), 2),
                to_fixed(float(out.estimate[p]), 2),
                "yes" if out.candidate[p] else "no",
                verdict,
            ]
            tip = f"{out.left[p]}: {self.full_names[out.left[p]]}\n{out.right[p]}: {self.full_names[out.right[p]]}"
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if VERDICT_BG[verdict]:
                    bg = VERDICT_BG[verdict].color()
                    item.setBackground(QBrush(bg))
                    item.setForeground(QBrush(text_on(bg)))
                elif verdict == "found" and col == len(cells) - 1:  # bold in its verdict cell (no wider columns)
                    bold = item.font()
                    bold.setBold(True)
                    item.setFont(bold)
                    item.setForeground(QBrush(FOUND.color()))
                self.pairs.setItem(row, col, item)
        self.pairs.blockSignals(False)
        self._fit_pairs_width()

    def _fit_pairs_width(self) -> None:
        fit_width(self.pairs, "false positive")  # the verdict never hides behind a scroll bar

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        fm = self.fontMetrics()
        line = 16 * (fm.horizontalAdvance("888") + 8) + fm.horizontalAdvance("MM") + 8  # 16 slots of 3 digits
        self.columns.arrange(self.viewport().width() - 40 - self.pairs.minimumWidth() >= line)

    def verdict(self, p: int) -> str:
        return t.verdict(bool(self.outcome.candidate[p]), bool(self.outcome.similar[p]))

    def stop_word_slots(self) -> dict[int, str]:
        """Slots whose minimum is the same word in every document (for the sample sentences at seed 12345: 'the')."""
        if self._stop_words is None:
            self._stop_words = facts.shared_minimum_words(self.texts, self.params) if len(self.texts) <= 8 else {}
        return self._stop_words

    def _stop_word_html(self, banding: Banding) -> str:
        """Name the word that puts every document in one bucket, where a whole band is made of such slots."""
        shared = self.stop_word_slots()
        r = banding.rows
        bands = [b for b in range(banding.bands) if all(s in shared for s in range(b * r, (b + 1) * r))]
        if not bands:
            return ""
        slot = bands[0] * r
        word = shared[slot]
        return (
            f"<br><b>Why so many candidates?</b> In slot {slot} the smallest hash of every document comes from the "
            f"same word, “{esc(word)}”, so band {bands[0]} puts all {len(self.texts)} documents in one bucket. "
            f"“{esc(word)}” is a <i>stop word</i>, in almost every English text: single-word shingles make "
            "unrelated texts share it. Shingles of several words (word:2, word:3) are shared only where wording "
            "is copied, and bands of several rows need more than one such slot."
        )

    def _pair_selected(self) -> None:
        self._show_grid()

    def _show_grid(self) -> None:
        n = len(self.texts)
        rows = self.pairs.selectionModel().selectedRows()
        if n <= 8:
            docs = list(range(n))
        elif rows:
            p = self.rows[rows[0].row()]
            docs = [int(self.outcome.left[p]), int(self.outcome.right[p])]
        elif len(self.rows):
            docs = [int(self.outcome.left[self.rows[0]]), int(self.outcome.right[self.rows[0]])]
        else:
            docs = [0, 1]
        if n > 8:
            self.sentences.setText(
                self.intro_files
                + "<br><br><b>Shown below</b><br>"
                + "<br>".join(f"<b>{row_letter(r)}</b> = {d}: {esc(self.full_names[d])}" for r, d in enumerate(docs))
            )
        jac = {(a, b): float(self.jac[docs[a], docs[b]]) for a in range(len(docs)) for b in range(a + 1, len(docs))}
        self.grid.set_data(self.sigs[docs], [self.names[d] for d in docs], self.banding(), jac)

    def candidate_pairs(self) -> set[tuple[int, int]]:
        """The candidate pairs the page shows now (for tests and screen readers)."""
        out = self.outcome
        return set(zip(out.left[out.candidate].tolist(), out.right[out.candidate].tolist()))
