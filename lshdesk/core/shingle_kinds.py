"""The shingle kinds (``word``, ``char``) in one table: how each is written, shingled, highlighted and advised on.

Every place whose work depends on the kind looks it up here (``kind_of``), and an unknown kind raises
``ParamError`` saying which kinds there are: adding a kind is one row here (and its tests), not a hunt for
``kind == "char"``. The rows point at the mechanics of ``shingling`` by name and import them where they are
called, not when this module loads: ``params.ShingleSpec`` reads the table to check a spec, and parsing the
command line must not load numpy and the kernels (importing ``shingling`` takes ~0.9 s cold, ``lshdesk --help``
~0.1 s).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lshdesk.core.errors import ParamError

if TYPE_CHECKING:
    import numpy as np

    from lshdesk.core.shingling import ShingleBatch, Shingling

Spans = tuple[list[str], list[tuple[int, int]]]  # the units of a text and each one's (start, end) in the original
_SPEC_RE = re.compile(r"^([a-z]+)(?::(\d+))?$")
_WS = re.compile(r"\s")


@dataclass(frozen=True, kw_only=True)
class ShingleKind:
    """One kind of shingle: a run of ``n`` units (tokens, characters) of the text, joined by ``sep``."""

    name: str
    sized: bool  # the size must be written (char:N); else the bare name means n = 1 (word = word:1)
    example: str  # a spec of this kind, for messages
    sep: str  # joins a shingle's units into its string
    strings: Callable[[str, int], list[str]]  # the text's shingles as strings, in order, repeats kept
    text_ids: Callable[[Sequence[str], int], ShingleBatch]  # shingle id sets of whole texts
    # shingle id sets of a batch read by the scan (``frontend.Prepared``: buffer, offsets, texts, plain ASCII)
    read_ids: Callable[[np.ndarray, np.ndarray, list[str] | None, bool, int], ShingleBatch]
    reads_texts: bool  # the batch needs the decoded texts, not only the tokenizer's bytes
    spans: Callable[[str, list[int]], Spans]  # units of a normalised text, mapped back through its ``origin``
    highlight_chars: int  # both texts together beyond this are shown without passages (plain Python, see passages)
    fewer: str  # how to get fewer candidates with this kind (after "raise the threshold or ...")
    fewer_below: int | None  # ... given while n is below this (None: at every size)
    menu_sizes: tuple[int, ...]  # the sizes the parameter panel offers
    lesson_sizes: tuple[int, ...]  # the sizes the lessons and experiments offer

    def written(self, n: int) -> str:
        """The spec as the user writes it: ``word`` (n = 1 of an unsized kind) or ``name:n``."""
        return self.name if n == 1 and not self.sized else f"{self.name}:{n}"

    def advice(self, n: int) -> str:
        """How to get fewer candidates with shingles of this kind and size."""
        if self.fewer_below is None or n < self.fewer_below:
            return f"raise the threshold or {self.fewer}"
        return "raise the threshold"


def _word_strings(text: str, n: int) -> list[str]:
    from lshdesk.core.shingling import tokenize

    tokens = tokenize(text)
    if len(tokens) <= n:
        return [" ".join(tokens)] if tokens else []
    if n == 1:
        return tokens
    return [" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def _char_strings(text: str, n: int) -> list[str]:
    from lshdesk.core.shingling import char_text

    s = char_text(text)
    if len(s) <= n:
        return [s] if s else []
    return [s[i : i + n] for i in range(len(s) - n + 1)]


def _word_text_ids(texts: Sequence[str], n: int) -> ShingleBatch:
    from lshdesk.core.shingling import pack, word_batch
    from lshdesk.core.unitext import token_parts

    return word_batch(*pack(token_parts(texts)), n)  # one compiled, GIL-free call for the batch


def _char_text_ids(texts: Sequence[str], n: int) -> ShingleBatch:
    from lshdesk.core.shingling import char_batch

    return char_batch(texts, n)


def _word_read_ids(buf: np.ndarray, offsets: np.ndarray, texts: list[str] | None, plain: bool, n: int) -> ShingleBatch:
    from lshdesk.core.shingling import word_batch

    return word_batch(buf, offsets, n)  # the buffer holds every file's token bytes


def _char_read_ids(buf: np.ndarray, offsets: np.ndarray, texts: list[str] | None, plain: bool, n: int) -> ShingleBatch:
    from lshdesk.core.shingling import ascii_char_batch, char_batch

    return ascii_char_batch(buf, offsets, n) if plain else char_batch(texts or [], n)  # plain: compiled, GIL-free


def _word_spans(text: str, origin: list[int]) -> Spans:
    from lshdesk.core.shingling import TOKEN_RE

    units, spans = [], []
    for m in TOKEN_RE.finditer(text):
        units.append(m.group())
        spans.append((origin[m.start()], origin[m.end() - 1] + 1))
    return units, spans


def _char_spans(text: str, origin: list[int]) -> Spans:
    """The characters ``shingling.char_text`` keeps: each whitespace run one space, none at either end."""
    units: list[str] = []
    spans: list[tuple[int, int]] = []
    prev_space = True
    for ch, o in zip(text, origin):
        if _WS.match(ch):
            if prev_space:
                continue
            ch, prev_space = " ", True
        else:
            prev_space = False
        units.append(ch)
        spans.append((o, o + 1))
    while units and units[-1] == " ":
        units.pop()
        spans.pop()
    return units, spans


KINDS: dict[str, ShingleKind] = {
    k.name: k
    for k in (
        ShingleKind(
            name="word",
            sized=False,
            example="word:3",
            sep=" ",
            strings=_word_strings,
            text_ids=_word_text_ids,
            read_ids=_word_read_ids,
            reads_texts=False,
            spans=_word_spans,
            highlight_chars=1_000_000,
            fewer="use longer word shingles (word:3)",
            fewer_below=3,
            menu_sizes=(1, 2, 3, 5),
            lesson_sizes=(1, 2, 3),
        ),
        ShingleKind(
            name="char",
            sized=True,
            example="char:5",
            sep="",
            strings=_char_strings,
            text_ids=_char_text_ids,
            read_ids=_char_read_ids,
            reads_texts=True,
            spans=_char_spans,
            highlight_chars=200_000,
            fewer="use word shingles",
            fewer_below=None,
            menu_sizes=(3, 5, 7),
            lesson_sizes=(3, 5, 9),
        ),
    )
}


def written_forms() -> list[str]:
    """How specs are written, kind by kind: ``word``, ``word:N``, ``char:N``."""
    return [f for k in KINDS.values() for f in ([] if k.sized else [k.name]) + [k.name + ":N"]]


def forms(quote: str = "") -> str:
    """``written_forms`` in a sentence, e.g. ``word, word:N or char:N``."""
    shown = [quote + f + quote for f in written_forms()]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def kind_of(name: str) -> ShingleKind:
    """The row of kind ``name``; ``ParamError`` for a kind there is none of."""
    try:
        return KINDS[name]
    except KeyError:
        choices = forms(quote="'")
        raise ParamError(f"shingling must be {choices}, not {name!r}") from None


def parse(text: str) -> tuple[str, int]:
    """``word``, ``word:3``, ``char:5`` -> (kind, n); a sized kind without its size is refused (say how many)."""
    m = _SPEC_RE.match(text.strip().lower())
    if not m or m.group(1) not in KINDS:
        examples = ", ".join(k.example for k in KINDS.values())
        raise ParamError(f"shingling {text!r} not understood: use {forms()} (e.g. {examples})")
    kind, n = KINDS[m.group(1)], m.group(2)
    if kind.sized and n is None:
        raise ParamError(f"{kind.name} shingling needs a size: {kind.name}:N, e.g. {kind.example}")
    return kind.name, int(n) if n is not None else 1


def menu(lessons: bool = False) -> list[str]:
    """The specs a menu offers, kind by kind: the parameter panel's, or the lessons' (``lessons``)."""
    return [k.written(n) for k in KINDS.values() for n in (k.lesson_sizes if lessons else k.menu_sizes)]


def shingle_strings(text: str, spec: Shingling) -> set[str]:
    """The document's shingle set as strings (empty for a document with no tokens or characters)."""
    return set(kind_of(spec.kind).strings(text, spec.n))


def hash_shingles(texts: Sequence[str], spec: Shingling) -> ShingleBatch:
    """Each text's shingle set as sorted unique 32-bit ids, the whole batch in compiled passes."""
    if not texts:
        from lshdesk.core.shingling import empty_batch

        return empty_batch()
    return kind_of(spec.kind).text_ids(texts, spec.n)
