"""What differs between two texts: the words deleted, inserted and changed, as character ranges of each original text."""

from __future__ import annotations

import difflib
import threading
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from lshdesk.core.errors import check_cancel
from lshdesk.core.passages import normalise_with_offsets
from lshdesk.core.shingle_kinds import kind_of

# Beyond this many words in the two texts together the view says so instead of diffing: difflib's matcher is plain
# Python (two near-copies of 100,000 words: 4.2 s on the project's machine, busy; quadratic at worst).
MAX_WORDS = 200_000

Range = tuple[int, int]  # (start, end) character positions; start == end: the place where the other text has words


@dataclass(frozen=True)
class Change:
    """One difference: ``kind`` is "deleted" (words only in A), "inserted" (only in B) or "changed" (replaced)."""

    kind: str
    a: Range
    b: Range
    words_a: int  # how many words of A it covers
    words_b: int


@dataclass(frozen=True)
class Differences:
    """The changes from text A to text B, in order, with the anchors (equal stretches' starts) aligning the two."""

    changes: list[Change]
    anchors: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = field(
        default=(np.zeros(0, np.int64), np.zeros(0, np.int64))
    )
    note: str = ""  # why no changes were computed, if they were not

    def words(self, kind: str) -> int:
        """Words of A deleted ("deleted"), of B inserted ("inserted"), or of A replaced ("changed")."""
        return sum(c.words_b if kind == "inserted" else c.words_a for c in self.changes if c.kind == kind)

    def summary(self) -> str:
        """E.g. '3 differences: 12 words deleted, 4 inserted, 7 changed', or 'no word differs'."""
        if self.note:
            return self.note
        if not self.changes:
            return "no word differs (the texts may still differ in case, spacing or punctuation)"
        n = len(self.changes)
        parts = [f"{self.words(k):,} {k}" for k in ("deleted", "inserted", "changed") if self.words(k)]
        return f"{n:,} difference{'s' if n != 1 else ''}: words " + ", ".join(parts)


def words_of(text: str) -> tuple[list[str], list[Range]]:
    """The text's words as the scan sees them (NFKC, case-folded) and each one's range in the original text."""
    norm = normalise_with_offsets(text)
    return kind_of("word").spans(norm.text, norm.origin)


def _range(spans: list[Range], lo: int, hi: int, text_len: int) -> Range:
    """The character range of words lo..hi-1; for no word, the point after word lo-1 (or the start)."""
    if hi > lo:
        return spans[lo][0], spans[hi - 1][1]
    point = spans[lo - 1][1] if lo > 0 else 0
    return min(point, text_len), min(point, text_len)


def differences(text_a: str, text_b: str, cancel: threading.Event | None = None) -> Differences:
    """The word-level changes that turn A into B (difflib's longest matching blocks, no junk heuristic)."""
    words_a, spans_a = words_of(text_a)
    check_cancel(cancel)
    words_b, spans_b = words_of(text_b)
    if len(words_a) + len(words_b) > MAX_WORDS:
        total = len(words_a) + len(words_b)
        return Differences([], note=f"too long to compare word by word ({total:,} words, at most {MAX_WORDS:,})")
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    changes: list[Change] = []
    starts_a: list[int] = []
    starts_b: list[int] = []
    kinds = {"delete": "deleted", "insert": "inserted", "replace": "changed"}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            starts_a.append(spans_a[i1][0])
            starts_b.append(spans_b[j1][0])
            continue
        a, b = _range(spans_a, i1, i2, len(text_a)), _range(spans_b, j1, j2, len(text_b))
        changes.append(Change(kinds[tag], a, b, i2 - i1, j2 - j1))
    check_cancel(cancel)
    return Differences(changes, (np.array(starts_a, np.int64), np.array(starts_b, np.int64)))
