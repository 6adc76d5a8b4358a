"""Bytes to text: byte-order marks, UTF-8, UTF-16 without a BOM, then detection (charset-normalizer)."""

from __future__ import annotations

import codecs
import re

from lshdesk.core.errors import NotText

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
