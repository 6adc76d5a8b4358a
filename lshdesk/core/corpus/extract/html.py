"""HTML and XHTML: the visible text only (Beautiful Soup with the stdlib parser); block elements on their own lines."""

from __future__ import annotations

import codecs
import re

_SKIP = frozenset("script style noscript template head title iframe object embed svg math canvas audio video".split())
# Elements that start a new line; those in _PARAGRAPH also leave a blank line (as a browser's margins would).
_LINE = frozenset("br dd dt li tr caption figcaption legend summary option".split())
_PARAGRAPH = frozenset(
    "address article aside blockquote body details dialog div dl fieldset figure footer form h1 h2 h3 h4 h5 h6 "
    "header hgroup hr html main nav ol p pre section table tbody tfoot thead ul".split()
)
_CELL = frozenset({"td", "th"})
_META = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([-\w.:]+)""", re.I)
_XML_DECL = re.compile(rb"""^\s*<\?xml[^>]{0,200}?encoding\s*=\s*["']([-\w.:]+)""")
_WS = re.compile(r"\s+")
_SPACES = re.compile(r"[^\S\n\t]{2,}")
_LINE_END = re.compile(r"[^\S\n]+\n")
_LEAVE, _CELL_END, _PRE_END = range(3)


def _declared(data: bytes) -> str | None:
    head = data[:4096]
    m = _XML_DECL.match(head) or _META.search(head)
    if not m:
        return None
    try:
        enc = codecs.lookup(m.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    return "cp1252" if enc in ("latin-1", "iso8859-1", "ascii") else enc  # as browsers do (WHATWG encoding spec)


def decode_html(data: bytes) -> str:
    """Bytes to text: the declared charset when there is one and it fits, else the plain-text rules."""
    from lshdesk.core.corpus.decoding import decode

    enc = _declared(data)
    if enc and not data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass  # the declared charset does not fit the bytes: decide from the bytes, as for plain text
    return decode(data)


def visible_text(markup: str) -> str:
    """The text a browser shows for ``markup``: no scripts, styles or tags; blocks on lines, cells tab-separated."""
    from bs4 import BeautifulSoup, CData, Tag
    from bs4.element import NavigableString

    out: list[str] = []
    breaks = 0  # line breaks owed before the next text: the largest any element boundary asked for
    pre = 0
    stack: list = [BeautifulSoup(markup, "html.parser")]
    while stack:  # depth-first without recursion: deeply nested pages must not overflow the stack
        node = stack.pop()
        if isinstance(node, tuple):  # leaving an element
            kind, n = node
            if kind == _CELL_END:
                out.append("\t")
            else:
                pre -= kind == _PRE_END
                breaks = max(breaks, n)
        elif isinstance(node, Tag):
            name = node.name
            if name in _SKIP or node.has_attr("hidden"):
                continue
            n = 2 if name in _PARAGRAPH else 1 if name in _LINE else 0
            breaks = max(breaks, n)
            if name == "pre":
                pre += 1
                stack.append((_PRE_END, 2))
            elif n and name != "br":
                stack.append((_LEAVE, n))
            elif name in _CELL:
                stack.append((_CELL_END, 0))
            stack.extend(reversed(node.contents))
        elif type(node) is NavigableString or type(node) is CData:  # not comments, doctypes, declarations
            text = str(node) if pre else _WS.sub(" ", str(node))
            if breaks and not text.strip():
                continue
            if breaks and out:
                out.append("\n" * breaks)
                text = text if pre else text.lstrip()
            breaks = 0
            out.append(text)
    text = _SPACES.sub(" ", "".join(out))  # tabs (table cells) and line breaks stay
    return _LINE_END.sub("\n", text).strip()


def extract(data: bytes, name: str) -> str:
    """The visible text of an HTML or XHTML file."""
    return visible_text(decode_html(data))
