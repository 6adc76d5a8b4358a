"""Where two documents share shingles: character ranges in each original text, and the two files read to show them."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.alignment import anchors
from lshdesk.core.corpus.sources import read_text  # local files and objects in storage (URLs)
from lshdesk.core.errors import NotText, check_cancel
from lshdesk.core.params import ShingleSpec
from lshdesk.core.scan.progress import Progress
from lshdesk.core.shingle_kinds import kind_of


@dataclass(frozen=True)
class Normalised:
    """A text normalised character by character, with the original index of every character of the result."""

    text: str
    origin: list[int]


def normalise_with_offsets(text: str) -> Normalised:
    """NFKC + casefold per character (lengths may change: 'ﬁ' -> 'fi'), keeping a map back to the original."""
    if text.isascii():
        return Normalised(text.lower(), list(range(len(text))))
    out: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(text):
        s = unicodedata.normalize("NFKC", c).casefold() if not c.isascii() else c.lower()
        out.append(s)
        origin.extend([i] * len(s))
    return Normalised("".join(out), origin)


def _shingle_spans(text: str, spec: ShingleSpec) -> dict[str, list[tuple[int, int]]]:
    """Each shingle of the text and the (start, end) ranges of the original text where it occurs."""
    kind = kind_of(spec.kind)
    norm = normalise_with_offsets(text)
    units, spans = kind.spans(norm.text, norm.origin)
    n = min(spec.n, len(units))
    out: dict[str, list[tuple[int, int]]] = {}
    for i in range(len(units) - n + 1 if n else 0):
        out.setdefault(kind.sep.join(units[i : i + n]), []).append((spans[i][0], spans[i + n - 1][1]))
    return out


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(ranges):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def shared_passages(
    text_a: str, text_b: str, spec: ShingleSpec
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """Merged (start, end) character ranges of each text covered by shingles both texts contain, and their count."""
    return _passages(_shingle_spans(text_a, spec), _shingle_spans(text_b, spec))


def _passages(sa: dict, sb: dict) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    shared = sa.keys() & sb.keys()
    return (
        _merge([r for s in shared for r in sa[s]]),
        _merge([r for s in shared for r in sb[s]]),
        len(shared),
    )


@dataclass(frozen=True)
class Comparison:
    """Two texts and the (start, end) character ranges of each that shingles of both cover."""

    texts: tuple[str, str]
    spans: tuple[list[tuple[int, int]], list[tuple[int, int]]]
    n_shared: int
    note: str = ""
    anchors: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = (np.zeros(0, np.int64), np.zeros(0, np.int64))

    @property
    def identical(self) -> bool:
        """The two texts are exact copies."""
        return self.texts[0] == self.texts[1]


def compare_files(
    paths: tuple[str, str], max_bytes: int, spec: ShingleSpec, cancel: threading.Event | None = None
) -> Generator[Progress, None, Comparison]:
    """Read both files, find their shared passages and the anchors aligning them (big files take seconds: run it
    off the GUI thread).

    A file that cannot be read is shown as a line saying why; texts longer together than their kind's
    ``highlight_chars`` come back without passages, with a note (finding passages is plain Python: ~0.7 M
    characters/s for words, ~0.12 M for characters on the project's machine).
    """
    texts = []
    for path in paths:
        try:
            texts.append(read_text(path, max_bytes))
        except NotText as e:
            texts.append(f"[cannot show this file: {e}]")
        check_cancel(cancel)
        yield Progress("reading", len(texts), 2)
    size = len(texts[0]) + len(texts[1])
    if size > kind_of(spec.kind).highlight_chars:
        return Comparison((texts[0], texts[1]), ([], []), 0, f"too long to highlight ({size:,} characters)")
    sa, sb = _shingle_spans(texts[0], spec), _shingle_spans(texts[1], spec)
    spans_a, spans_b, n_shared = _passages(sa, sb)
    return Comparison((texts[0], texts[1]), (spans_a, spans_b), n_shared, anchors=anchors(sa, sb))
