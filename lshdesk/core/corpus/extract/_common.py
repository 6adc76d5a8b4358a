"""What the extractors share: turning library errors into reasons (``NotText``), guarded ZIP and XML reading."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lshdesk.core.errors import NotText
from lshdesk.core.humanize import human_size

if TYPE_CHECKING:  # zipfile and ElementTree load on first use: plain text never needs them
    import zipfile
    from xml.etree.ElementTree import Element

UNPACK_LIMIT = 512 * 2**20  # a container whose members unpack to more than this is refused (a ZIP bomb?)


def failure(error: Exception, name: str) -> Exception:
    """A library's exception as the reason a file of format ``name`` is skipped ('corrupt DOCX: ...')."""
    if isinstance(error, NotText):
        return error
    if isinstance(error, RecursionError):
        return NotText(f"corrupt {name}: nested too deeply to read")
    if isinstance(error, MemoryError):
        return NotText(f"{name} too large to unpack in memory")
    raw = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)  # KeyError quotes its text
    message = raw.strip().splitlines()[0] if raw.strip() else type(error).__name__
    if len(message) > 160:
        message = message[:157] + "..."
    return NotText(f"corrupt {name}: {message[:1].lower()}{message[1:]}")


def open_zip(data: bytes, name: str) -> zipfile.ZipFile:
    """The container as a ZipFile, refused when it is not one or would unpack to more than UNPACK_LIMIT."""
    import io
    import zipfile

    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        hint = " (truncated: its table of contents is missing)" if data.startswith(b"PK\x03\x04") else ""
        raise NotText(f"corrupt {name}: not a readable ZIP container{hint}") from None
    total = sum(i.file_size for i in zf.infolist())
    if total > UNPACK_LIMIT:
        raise NotText(f"{name} would unpack to {human_size(total)}, more than {human_size(UNPACK_LIMIT)} (a ZIP bomb?)")
    return zf


def read_member(zf: zipfile.ZipFile, member: str, name: str) -> bytes:
    """One member's bytes; a missing member says which."""
    try:
        return zf.read(member)
    except KeyError:
        raise NotText(f"corrupt {name}: {member} is missing") from None


def parse_xml(data: bytes, member: str, name: str) -> Element:
    """Parse XML (expat: no external entities; entity expansion is bounded by expat >= 2.4)."""
    from xml.etree import ElementTree

    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as e:
        raise NotText(f"corrupt {name}: {member} is not well-formed XML ({e})") from None
