"""PDF: the text layer of each page in reading order (pypdf), pages joined by blank lines."""

from __future__ import annotations

import functools
import io
import logging
import re
import warnings

from lshdesk.core.errors import NotText

_HYPHEN_BREAK = re.compile(r"(\w)[-\u00ad]\n(?=[a-z])")  # 'exam-\nple' -> 'example' (a word broken at a line end)
_GARBLED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ue000-\uf8ff\ufffd]")


@functools.cache
def _quiet() -> None:
    """pypdf reports each repair it makes ('EOF marker not found') on its logger; a skip reason says enough."""
    logging.getLogger("pypdf").setLevel(logging.CRITICAL)
    warnings.filterwarnings("ignore", module=r"pypdf(\.|$)")


def extract(data: bytes, name: str) -> str:
    """Every page's text; raise NotText for a locked, image-only or unreadable PDF."""
    import pypdf
    from pypdf.errors import DependencyError

    _quiet()
    if b"%PDF-" not in data[:1024]:
        raise NotText("not a PDF (no %PDF- header), though named like one")
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("")  # many PDFs are encrypted with an empty password only to restrict printing
        except DependencyError:
            raise NotText("encrypted PDF (AES): reading it needs the 'cryptography' package") from None
        if not opened:
            raise NotText("password-protected PDF")
    pages = []
    for number, page in enumerate(reader.pages, 1):
        try:
            pages.append((page.extract_text() or "").strip())
        except Exception as e:  # noqa: BLE001 - say which page
            message = str(e) or type(e).__name__
            raise NotText(f"corrupt PDF: page {number}: {message[:1].lower()}{message[1:160]}") from None
    text = _HYPHEN_BREAK.sub(r"\1", "\n\n".join(p for p in pages if p))
    if not text.strip():
        raise NotText("PDF has no text layer (scanned image?)")
    if len(_GARBLED.findall(text)) > 0.3 * len(text):
        raise NotText("PDF text cannot be decoded (its fonts map no characters to Unicode)")
    return text
