"""OpenDocument text (ODT): headings, paragraphs, lists and tables of content.xml in order (zipfile + ElementTree)."""

from __future__ import annotations

from xml.etree.ElementTree import Element

from lshdesk.core.corpus.extract._common import open_zip, parse_xml, read_member
from lshdesk.core.errors import NotText

_T = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TB = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_O = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_D = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_PARAGRAPHS = {_T + "p", _T + "h"}
_ROW_GROUPS = {_TB + "table-header-rows", _TB + "table-rows", _TB + "table-row-group"}
# Not the author's running text: change-tracking records (deleted text), declarations, generated indexes, comments.
_SKIP = {
    _T + t
    for t in (
        "tracked-changes",
        "sequence-decls",
        "variable-decls",
        "user-field-decls",
        "dde-connection-decls",
        "table-of-content",
        "alphabetical-index",
        "illustration-index",
        "table-index",
        "object-index",
        "user-index",
        "bibliography",
        "note-citation",
    )
} | {
    _O + "annotation",
    _O + "annotation-end",
    _O + "forms",
    _TB + "covered-table-cell",
    _TB + "table-columns",
    _TB + "table-column",
    _TB + "table-header-columns",
}
_MAX_SPACES = 100


def _inline(p: Element, after: list[str]) -> str:
    """A paragraph's text; notes and text boxes anchored in it go to ``after`` (they follow the paragraph)."""
    parts = [p.text or ""]
    for child in p:
        tag = child.tag
        if tag == _T + "s":
            parts.append(" " * min(int(child.get(_T + "c", "1")), _MAX_SPACES))
        elif tag == _T + "tab":
            parts.append("\t")
        elif tag == _T + "line-break":
            parts.append("\n")
        elif tag == _T + "note":
            body = child.find(_T + "note-body")
            if body is not None:
                after.append(_blocks(body))
        elif tag in _SKIP:
            pass
        elif tag.startswith(_D):  # a frame or shape: a text box in it holds paragraphs of its own
            text = _blocks(child)
            if text:
                after.append(text)
        else:
            parts.append(_inline(child, after))
        parts.append(child.tail or "")
    return "".join(parts)


def _table(table: Element) -> str:
    rows = []
    stack = list(reversed(table))
    while stack:
        el = stack.pop()
        if el.tag in _ROW_GROUPS:
            stack.extend(reversed(el))
        elif el.tag == _TB + "table-row":
            cells = [_blocks(c).replace("\n", " ") for c in el if c.tag == _TB + "table-cell"]
            rows.append("\t".join(cells))
    return "\n".join(rows)


def _blocks(container: Element) -> str:
    out: list[str] = []
    for child in container:
        tag = child.tag
        if tag in _PARAGRAPHS:
            after: list[str] = []
            out.append(_inline(child, after))
            out.extend(after)
        elif tag == _TB + "table":
            out.append(_table(child))
        elif tag not in _SKIP:
            text = _blocks(child)  # lists, list items, sections, frames: containers of paragraphs
            if text:
                out.append(text)
    return "\n".join(out)


def extract(data: bytes, name: str) -> str:
    """The body text of content.xml; a password-protected ODT is refused by its manifest."""
    zf = open_zip(data, "ODT")
    if "META-INF/manifest.xml" in zf.namelist() and b"encryption-data" in zf.read("META-INF/manifest.xml"):
        raise NotText("password-protected ODT")
    root = parse_xml(read_member(zf, "content.xml", "ODT"), "content.xml", "ODT")
    body = root.find(f"{_O}body/{_O}text")
    if body is None:
        raise NotText("not an ODT text document (content.xml has no office:text body)")
    return _blocks(body)
