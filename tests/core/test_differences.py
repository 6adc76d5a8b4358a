"""differences: the word changes from A to B, against difflib run on independently tokenized words, and complete."""

from __future__ import annotations

import difflib
import itertools
import re
import threading
import unicodedata
from pathlib import Path

import pytest

import lshdesk.core.differences as differences_module
from lshdesk.core.differences import differences, words_of
from lshdesk.core.errors import ScanCancelled

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def _reference_words(text: str) -> list[str]:
    """Tokens the way the scan defines them, written out again: NFKC of the whole text, case-folded, [^\\W_]+."""
    return re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold())


def _reference_counts(a: str, b: str) -> dict[str, int]:
    ops = difflib.SequenceMatcher(None, _reference_words(a), _reference_words(b), autojunk=False).get_opcodes()
    count = {"deleted": 0, "inserted": 0, "changed": 0}
    for tag, i1, i2, j1, j2 in ops:
        if tag != "equal":
            count[{"delete": "deleted", "insert": "inserted", "replace": "changed"}[tag]] += (
                j2 - j1 if tag == "insert" else i2 - i1
            )
    return count


def _rebuild_b(a: str, b: str) -> list[str]:
    """B's words from A's, using only the changes: A's words outside every change, B's words inside them."""
    d = differences(a, b)
    wa, sa = words_of(a)
    wb, sb = words_of(b)
    out, pos = [], 0
    for c in d.changes:
        out += [w for w, (s, _) in zip(wa, sa) if pos <= s < c.a[0]]
        out += [w for w, (s, _) in zip(wb, sb) if c.b[0] <= s < c.b[1]]
        pos = max(c.a[1], c.a[0])
    return out + [w for w, (s, _) in zip(wa, sa) if s >= pos]


def _sample_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.rglob("*.txt"))[:12]]


@pytest.mark.parametrize(("i", "j"), list(itertools.combinations(range(12), 2))[::5])
def test_the_counts_equal_difflib_on_the_words_of_the_sample_corpus(i, j):
    texts = _sample_texts()
    a, b = texts[i], texts[j]
    d = differences(a, b)
    assert {k: d.words(k) for k in ("deleted", "inserted", "changed")} == _reference_counts(a, b)
    assert _rebuild_b(a, b) == _reference_words(b)


def test_an_edited_copy_shows_each_edit_at_its_place_in_both_texts():
    a = "The quick brown fox jumps over the lazy dog. It was a sunny day in the old town."
    b = "The quick red fox leaps over the lazy dog. It was a day in the old town by the river."
    d = differences(a, b)
    assert [(c.kind, a[c.a[0] : c.a[1]], b[c.b[0] : c.b[1]]) for c in d.changes] == [
        ("changed", "brown", "red"),
        ("changed", "jumps", "leaps"),
        ("deleted", "sunny", ""),
        ("inserted", "", "by the river"),
    ]
    assert d.summary() == "4 differences: words 1 deleted, 3 inserted, 2 changed"
    # the anchors (starts of equal stretches) align the texts: each pair of positions holds the same word
    for pa, pb in zip(*d.anchors):
        assert a[pa : pa + 3].lower() == b[pb : pb + 3].lower()


def test_words_are_compared_as_the_scan_sees_them_and_placed_in_the_original_text():
    a = "Der ﬁnale Straße BERICHT"  # a ligature, an eszett, capitals: NFKC and case folding
    b = "der finale strasse bericht, neu"
    d = differences(a, b)
    assert [(c.kind, b[c.b[0] : c.b[1]]) for c in d.changes] == [("inserted", "neu")]
    assert differences("Hello,   World!", "hello world").summary().startswith("no word differs")


def test_identical_and_empty_texts():
    assert differences("same words here", "same words here").changes == []
    d = differences("", "new words")
    assert [(c.kind, c.a, c.b) for c in d.changes] == [("inserted", (0, 0), (0, 9))]
    assert [(c.kind, c.a, c.b) for c in differences("old words", "").changes] == [("deleted", (0, 9), (0, 0))]


def test_texts_too_long_are_said_not_diffed(monkeypatch):
    monkeypatch.setattr(differences_module, "MAX_WORDS", 5)
    d = differences("one two three", "one two three four")
    assert d.changes == [] and "too long to compare word by word (7 words" in d.summary()


def test_a_cancel_stops_it():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(ScanCancelled):
        differences("a b c", "a b d", cancel)
