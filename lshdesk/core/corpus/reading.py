"""Reading one file: its bytes (never past the size cap, never into a FIFO), then its text through the one extractor hook."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Iterable, Iterator

from lshdesk.core.corpus import extract
from lshdesk.core.errors import NotText
from lshdesk.core.humanize import human_size

OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)  # a FIFO never blocks the open


def read_bytes(path: str, max_bytes: int) -> bytes:
    """A file's bytes, without following it into a FIFO or reading past the size cap; NotText with the reason."""
    try:
        fd = os.open(path, OPEN_FLAGS)
    except FileNotFoundError:
        raise NotText("file vanished before it could be read") from None
    except OSError as e:
        raise NotText(f"cannot read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotText("not a regular file")
        want = max_bytes + 1
        chunks: list[bytes] = []
        got = 0
        ask = min(want, st.st_size + 1)  # one read for a file that is not growing: a short read is its end
        while got < want:
            more = os.read(fd, ask)
            chunks.append(more)
            got += len(more)
            if len(more) < ask:
                break
            ask = min(want - got, 1 << 20)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as e:
        raise NotText(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise NotText(f"larger than the size cap ({human_size(max_bytes)}); it grew while scanning")
    if not data:
        raise NotText("empty file")
    return data


def text_is_bytes(data: bytes, path: str, formats: frozenset[str] | None = None) -> bool:
    """True if the file's text is exactly its bytes (ASCII, no NUL, a plain-text file): read it without decoding.

    The scan's fast path (``frontend.read_batch``) hands such bytes straight to the byte tokenizer; it must agree
    with ``file_text``: when a format needs an extractor, this must say False for it.
    """
    return (
        data.isascii()
        and b"\x00" not in data
        and (formats is None or "txt" in formats)
        and extract.sniff(data, path) == "txt"
    )


def text_is_utf8(data: bytes, path: str, formats: frozenset[str] | None = None) -> bool:
    """True if the file's text is its bytes decoded as UTF-8, should they be UTF-8 (a plain-text file with no NUL
    and no byte-order mark: ``decoding.decode`` tries UTF-8 first): the caller checks that they are."""
    return (
        not data.startswith(codecs.BOM_UTF8)
        and b"\x00" not in data
        and (formats is None or "txt" in formats)
        and extract.sniff(data, path) == "txt"
    )


def file_text(data: bytes, path: str, formats: frozenset[str] | None = None) -> str:
    """A file's text from its bytes (``path`` names it): the one place that decodes or extracts."""
    return extract.extract_text(data, path, formats)


def read_text(path: str, max_bytes: int, formats: frozenset[str] | None = None) -> str:
    """Read one file (without following it into a FIFO or past the size cap) and give its text."""
    return file_text(read_bytes(path, max_bytes), path, formats)


def iter_texts(named_paths: Iterable[tuple[str, str]], max_bytes: int) -> Iterator[tuple[str, str]]:
    """(name, text) of each file of ``(name, path)`` that can be read, one at a time (the others are left out)."""
    for name, path in named_paths:
        try:
            text = read_text(path, max_bytes)
        except (OSError, NotText):
            continue  # a file that vanished or is no longer text: the others are enough
        yield name, text
