"""Finding and reading the documents of folders: every file is either read as text or skipped with a reason."""

from __future__ import annotations

import codecs
import fnmatch
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lshdesk.core import extract
from lshdesk.core.params import CorpusOptions

TEXT_EXTENSIONS = extract.extensions()  # every format lshdesk reads: plain text, PDF, DOCX, ODT, HTML, ...
VCS_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "node_modules"})


@dataclass(frozen=True)
class SourceFile:
    """A file to read: its path, which of the given folders it was found in, its name below that folder."""

    path: str
    root: int
    rel: str
    size: int
    mtime_ns: int = 0


@dataclass(frozen=True)
class Skipped:
    """A file (or folder) not used, and why, in words a user understands."""

    path: str
    reason: str


def human_size(n: float) -> str:
    """A byte count for people: '812 bytes', '4.2 KB', '1.3 MB'."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def _wanted(rel: str, name: str, options: CorpusOptions) -> str | None:
    """None if the file is to be read, else the reason it is not."""
    if any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in options.exclude):
        return "excluded by a pattern"
    if options.include:
        if any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in options.include):
            return None
        return "not matched by the include patterns"
    if options.all_files:
        return None
    ext = os.path.splitext(name)[1].lower()
    if ext in extract.extensions(options.formats):
        return None
    fid = extract.format_of_extension(name)
    if fid is not None:
        return f"format not selected: {fid}"
    what = f"'{ext}'" if ext else "no extension"
    return f"not a text file type ({what}); include it with --all-files or --include"


def walk(roots: Sequence[str], options: CorpusOptions) -> Iterator[SourceFile | Skipped]:
    """Every file below the roots (recursively, sorted), symlinked folders followed once, loops refused."""
    seen_dirs: set[tuple[int, int]] = set()
    for index, root in enumerate(roots):
        root = os.path.abspath(root)
        try:
            st = os.stat(root)
        except OSError as e:
            yield Skipped(root, f"cannot open: {e.strerror or e}")
            continue
        if not stat.S_ISDIR(st.st_mode):  # a single file given as a root
            yield from _file_entry(root, index, os.path.basename(root), os.path.basename(root), options)
            continue
        yield from _walk_dir(root, "", index, options, seen_dirs)


def _walk_dir(path: str, rel: str, index: int, options: CorpusOptions, seen: set) -> Iterator[SourceFile | Skipped]:
    try:
        st = os.stat(path)
        key = (st.st_dev, st.st_ino)
        if key in seen:
            yield Skipped(path, "folder already visited (a symbolic link loop or a second link to it)")
            return
        seen.add(key)
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as e:
        yield Skipped(path, f"cannot open folder: {e.strerror or e}")
        return
    for e in entries:
        sub = f"{rel}/{e.name}" if rel else e.name
        try:
            is_dir = e.is_dir(follow_symlinks=True)
        except OSError:
            is_dir = False
        if is_dir:
            if e.name in VCS_DIRS:
                yield Skipped(e.path, "tool or version-control folder, not read")
                continue
            yield from _walk_dir(e.path, sub, index, options, seen)
        else:
            yield from _file_entry(e.path, index, sub, e.name, options)


def _file_entry(path: str, index: int, rel: str, name: str, options: CorpusOptions) -> Iterator[SourceFile | Skipped]:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        yield Skipped(path, "broken symbolic link (its target does not exist)" if os.path.islink(path) else "file vanished")
        return
    except OSError as e:
        yield Skipped(path, f"cannot read: {e.strerror or e}")
        return
    if not stat.S_ISREG(st.st_mode):
        kind = "FIFO" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode) else "device or special file"
        yield Skipped(path, f"not a regular file ({kind})")
        return
    reason = _wanted(rel, name, options)
    if reason:
        yield Skipped(path, reason)
    elif st.st_size == 0:
        yield Skipped(path, "empty file")
    elif st.st_size > options.max_bytes:
        yield Skipped(path, f"larger than the size cap ({human_size(st.st_size)} > {human_size(options.max_bytes)})")
    else:
        yield SourceFile(path, index, rel, st.st_size, st.st_mtime_ns)


class NotText(Exception):
    """A file's bytes are not readable text; the message is the reason shown to the user."""


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


# Control characters other than \t \n \v \f \r: in "text" decoded from UTF-16 they mean 16-bit binary data.
_CONTROL_CHARS = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def _utf16_without_bom(data: bytes) -> str | None:
    """Text stored as UTF-16 with no BOM: zero bytes almost all on one side of each code unit."""
    if len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    for zeros, other, enc in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros >= 0.3 * half and other <= 0.01 * half:
            try:
                text = data.decode(enc)
            except UnicodeDecodeError:
                return None
            return None if _CONTROL_CHARS.search(text) else text
    return None


def decode(data: bytes) -> str:
    """Bytes to text: BOM, then UTF-8, then UTF-16 without BOM, then detection; raise NotText with the reason."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(enc)
            except UnicodeDecodeError:
                raise NotText(f"starts with a {enc.upper()} byte-order mark but is not valid {enc.upper()}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and "\x00" not in text:
        return text
    if b"\x00" in data:
        text = _utf16_without_bom(data)
        if text is None:
            raise NotText("binary file (contains NUL bytes)")
        return text
    from charset_normalizer import from_bytes

    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        raise NotText("not text: no character encoding fits its bytes")
    # charset_normalizer breaks ties in its own order (cp1250 before cp1252), which turns Western European
    # Latin-1 text into mojibake ("Voilà" -> "Voilŕ"): prefer cp1252, the common legacy encoding, on a tie.
    for m in matches:
        if m.encoding == "cp1252" and m.chaos == best.chaos and m.coherence == best.coherence:
            return str(m)
    return str(best)


def read_bytes(path: str, max_bytes: int) -> bytes:
    """A file's bytes, without following it into a FIFO or reading past the size cap; NotText with the reason."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
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


def file_text(data: bytes, path: str, formats: frozenset[str] | None = None) -> str:
    """A file's text from its bytes (``path`` names it): the one place that decodes or extracts."""
    return extract.extract_text(data, path, formats)


def read_text(path: str, max_bytes: int, formats: frozenset[str] | None = None) -> str:
    """Read one file (without following it into a FIFO or past the size cap) and give its text."""
    return file_text(read_bytes(path, max_bytes), path, formats)
