"""Texts to the spec's token bytes or character code points, a batch at a time, in compiled GIL-free code.

``kernels.utext`` does NFKC + casefold + the token and whitespace classes on UTF-8 (its tables are generated from
this interpreter's ``unicodedata`` when lshdesk is built). Texts are handed over as
``str.encode("utf-8", "surrogatepass")``: a lone surrogate (which only an extractor could leave in a text; decoding
never does) passes through as the reference leaves it. The tables cover every code point (checked one by one by
tests/core/test_unitext.py), so nothing falls back to Python; bytes that are not UTF-8 (which ``encode`` never gives)
are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from lshdesk.core.kernels import utext


def encode(texts: Sequence[str]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Texts as one UTF-8 buffer (lone surrogates kept) and the offsets of each."""
    return pack_bytes([t.encode("utf-8", "surrogatepass") for t in texts])


def pack_bytes(parts: Sequence[bytes]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Byte strings as one buffer and the offsets of each."""
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, parts), dtype=np.int64, count=len(parts)), out=offsets[1:])
    return np.frombuffer(b"".join(parts), dtype=np.uint8), offsets


def token_batch(buf: np.ndarray, offsets: np.ndarray) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Each UTF-8 document ``buf[offsets[i]:offsets[i+1]]`` as its spec tokens joined by single spaces, UTF-8 (what
    the byte tokenizer reads): (buffer, per-document offsets)."""
    out, off, bad = utext._run(buf, offsets, False)
    _checked(bad)
    return out, off


def char_batch(buf: np.ndarray, offsets: np.ndarray) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """The code points of ``shingling.char_text`` of each UTF-8 document: (code points, per-document offsets)."""
    out, off, bad = utext._run(buf, offsets, True)
    _checked(bad)
    return out, off


def token_parts(texts: Sequence[str]) -> list[bytes]:
    """``shingling.token_bytes`` of each text (ASCII texts as they are, the others through ``token_batch``)."""
    parts: list[bytes] = [t.encode("ascii") if t.isascii() else b"" for t in texts]
    other = [j for j, t in enumerate(texts) if not t.isascii()]
    if other:
        out, off = token_batch(*encode([texts[j] for j in other]))
        whole = out.tobytes()
        for k, j in enumerate(other):
            parts[j] = whole[off[k] : off[k + 1]]
    return parts


def utf8_token_parts(datas: Sequence[bytes]) -> list[bytes | None]:
    """``token_bytes`` of the text of each of these byte strings decoded as UTF-8, or None where Python's strict
    decoder would refuse them (then the caller decodes them as usual): no Python touches the characters."""
    buf, offsets = pack_bytes(datas)
    out, off, bad = utext._run(buf, offsets, False, True)
    whole = out.tobytes()
    return [None if bad[j] else whole[off[j] : off[j + 1]] for j in range(len(datas))]


def utf8_token_ids(buf: np.ndarray, offsets: np.ndarray) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]] | None:
    """The byte tokenizer's ids of ``token_bytes`` of each document ``buf[offsets[i]:offsets[i+1]]`` decoded as
    UTF-8, without the token bytes (``kernels.utext``'s ids mode): (ids, per-document offsets); None if some
    document is not UTF-8 to Python's strict decoder."""
    ids, off, bad = utext._run(buf, offsets, False, True, True)
    return None if bad.any() else (ids, off)


def _checked(bad: np.ndarray) -> None:
    """Raise if the kernel found a document that is not UTF-8 (a caller's bug: ``encode`` never gives one)."""
    if bad.any():
        raise ValueError(f"utext: document {int(np.flatnonzero(bad)[0])} of the batch is not UTF-8")
