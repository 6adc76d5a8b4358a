"""Rich Text Format (RTF): the text without control words (striprtf), in the document's code page."""

from __future__ import annotations

import codecs
import re

from lshdesk.core.errors import NotText

_ESCAPED = re.compile(rb"\\[\\{}]")
_CODEPAGE = re.compile(rb"\\ansicpg(\d{3,5})")
_HEX_RUN = re.compile(rb"[0-9a-fA-F\r\n]{512,}")  # embedded pictures and objects as hex: never text, slow to parse


def extract(data: bytes, name: str) -> str:
    """The text of an RTF file; a truncated one (groups left open) is refused."""
    from striprtf.striprtf import rtf_to_text

    if not data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        raise NotText("not an RTF file (no {\\rtf header), though named like one")
    plain = _ESCAPED.sub(b"", data)
    unclosed = plain.count(b"{") - plain.count(b"}")
    if unclosed > 0:
        raise NotText(f"corrupt RTF: truncated ({unclosed} group{'s' if unclosed > 1 else ''} left open)")
    encoding = "cp1252"
    m = _CODEPAGE.search(data[:4096])
    if m:
        try:
            encoding = codecs.lookup(f"cp{int(m.group(1))}").name
        except LookupError:
            pass  # a code page Python does not know: keep cp1252, the RTF default (only \'hh escapes use it)
    # RTF is 7-bit: non-ASCII comes as \'hh or \uN escapes; latin-1 keeps any stray 8-bit byte as one character
    return rtf_to_text(_HEX_RUN.sub(b"", data).decode("latin-1"), encoding=encoding, errors="replace")
