"""Text out of the files users have: sniff the format from the bytes, then hand them to that format's extractor.

One small interface: ``extract_text(data, name, formats)`` returns the document's text or raises
``lshdesk.core.corpus.NotText`` whose message is the reason shown to the user (never a traceback).
Each format is one module with ``extract(data: bytes, name: str) -> str`` and one line in ``core.formats``; its
library is imported inside that function, so scanning plain text loads none of them.
"""

from __future__ import annotations

import functools
import importlib
import os

from lshdesk.core.corpus.extract._common import failure
from lshdesk.core.errors import NotText, ParamError
from lshdesk.core.formats import FORMATS, Format

# Bump when any extractor's output changes: part of the key of a cache of extracted text.
EXTRACT_VERSION = 1


_BY_EXT = {ext: f.id for f in FORMATS.values() for ext in f.extensions}
_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")


@functools.lru_cache(maxsize=64)
def extensions(formats: frozenset[str] | None = None) -> frozenset[str]:
    """The file extensions (lower case, with the dot) of the given formats, of all of them when None (asked for
    every file listed: kept once made)."""
    chosen = FORMATS.values() if formats is None else (FORMATS[f] for f in formats)
    return frozenset().union(*(f.extensions for f in chosen))


def format_of_extension(name: str) -> str | None:
    """The format id a file name's extension claims, or None."""
    return _BY_EXT.get(os.path.splitext(name)[1].lower())


def parse_formats(text: str) -> frozenset[str]:
    """``txt,pdf,docx`` to a set of format ids; an extension (``htm``, ``markdown``) names its format."""
    chosen = set()
    for word in (w.strip().lower().lstrip(".") for w in text.split(",")):
        if not word:
            continue
        fid = word if word in FORMATS else _BY_EXT.get("." + word)
        if fid is None:
            raise ParamError(f"unknown format {word!r}: choose from {', '.join(FORMATS)} (comma-separated)")
        chosen.add(fid)
    if not chosen:
        raise ParamError(f"no format given: choose from {', '.join(FORMATS)} (comma-separated)")
    return frozenset(chosen)


def _looks_html(data: bytes) -> bool:
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"<?xml"):
        head = head[head.find(b"?>") + 2 :].lstrip()
    return head.startswith(b"<!doctype html") or head.startswith(b"<html")


def _by_mimetype(mime: bytes) -> str | None:
    if mime.startswith(b"application/epub+zip"):
        return "epub"
    if mime.startswith(b"application/vnd.oasis.opendocument.text"):
        return "odt"
    return None


def _sniff_zip(data: bytes, ext: str) -> str:
    if data[30:38] == b"mimetype":  # ODF and EPUB store an uncompressed 'mimetype' member first
        start = 30 + int.from_bytes(data[26:28], "little") + int.from_bytes(data[28:30], "little")
        found = _by_mimetype(data[start : start + 64])
        if found:
            return found
    import io
    import zipfile

    names: set[str] = set()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            found = _by_mimetype(zf.read("mimetype")[:64]) if "mimetype" in names else None
            if found:
                return found
    except Exception:  # truncated or damaged: guess from what the bytes and the name still show
        names = {"word/document.xml"} if b"word/document.xml" in data else set()
    if "word/document.xml" in names:
        return "docx"
    if "META-INF/container.xml" in names and _BY_EXT.get(ext) != "odt":
        return "epub"
    claimed = _BY_EXT.get(ext)
    return claimed if claimed in ("docx", "odt", "epub") else "zip"  # its extractor says what is missing


def sniff(data: bytes, name: str) -> str:
    """The format of a file decided by its bytes (then its name): a format id, or ``zip``/``ole`` for others."""
    ext = os.path.splitext(name)[1].lower()
    if data.startswith(b"%PDF-") or (ext == ".pdf" and b"%PDF-" in data[:1024]):
        return "pdf"
    if data.startswith(_ZIP):
        return _sniff_zip(data, ext)
    if data.startswith(_OLE):
        return "ole"
    start = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")  # plain text: this and a dict look-up is all it costs
    if start.startswith(b"{\\rtf"):
        return "rtf"
    if start.startswith(b"<") and _looks_html(data):  # also a web page under a wrong name (an error page as .pdf)
        return "html"
    claimed = _BY_EXT.get(ext)
    if claimed is not None:  # pdf, docx, ... that the bytes do not show: its extractor says why
        return claimed
    return "txt"


def _other_reason(kind: str, data: bytes, name: str) -> str:
    if kind == "zip":
        return "a ZIP archive, not a DOCX, ODT or EPUB document"
    if _ENCRYPTED_PACKAGE in data or os.path.splitext(name)[1].lower() in (".docx", ".xlsx", ".pptx"):
        return "password-protected Office document"
    return "old binary Office file (.doc, .xls, .ppt): not read; save it as DOCX"


def extract_text(data: bytes, name: str, formats: frozenset[str] | None = None) -> str:
    """The text of a file's bytes (``name`` gives its extension); raise NotText with the reason it has none."""
    kind = sniff(data, name)
    fmt = FORMATS.get(kind)
    if fmt is None:
        raise NotText(_other_reason(kind, data, name))
    if formats is not None and kind not in formats:
        raise NotText(f"format not selected: {kind}")
    if fmt.module is None:
        from lshdesk.core.corpus.decoding import decode

        return decode(data)
    module = importlib.import_module(fmt.module)
    try:
        text = module.extract(data, name)
    except Exception as e:  # noqa: BLE001 - any library failure becomes the file's skip reason
        raise failure(e, fmt.name) from None
    if not text.strip():
        raise NotText(f"{fmt.name} has no text")
    return text


__all__ = [
    "EXTRACT_VERSION",
    "FORMATS",
    "Format",
    "extensions",
    "extract_text",
    "format_of_extension",
    "parse_formats",
    "sniff",
]
