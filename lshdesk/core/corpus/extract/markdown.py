"""Markdown: the text a reader sees once rendered (markdown-it-py tokens): headings, lists, link text, tables, code."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

_LINE_END = re.compile(r"[ \t]+\n")
_BLOCK_END = {
    "heading_close": "\n\n",
    "blockquote_close": "\n",
    "tr_close": "\n",
    "th_close": "\t",
    "td_close": "\t",
    "table_close": "\n",
    "hr": "\n",
    "bullet_list_close": "\n",
    "ordered_list_close": "\n",
}
_INLINE_TEXT = {"text", "text_special", "code_inline"}
_parser = None


def _md() -> MarkdownIt:
    global _parser
    if _parser is None:
        from markdown_it import MarkdownIt

        _parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return _parser


def render_text(source: str) -> str:
    """Markdown source to plain text: markup gone, raw HTML reduced to its visible text, images left out."""
    out: list[str] = []
    for tok in _md().parse(source):
        if tok.type == "inline":
            for child in tok.children or ():
                if child.type in _INLINE_TEXT:
                    out.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    out.append("\n")
        elif tok.type in ("fence", "code_block"):
            out.append(tok.content + "\n")
        elif tok.type == "html_block":
            from lshdesk.core.corpus.extract.html import visible_text

            out.append(visible_text(tok.content) + "\n\n")
        elif tok.type == "paragraph_close":
            out.append("\n" if tok.hidden else "\n\n")  # tight list items are one line each
        elif tok.type in _BLOCK_END:
            out.append(_BLOCK_END[tok.type])
    return _LINE_END.sub("\n", "".join(out)).strip()


def extract(data: bytes, name: str) -> str:
    """The rendered text of a Markdown file (decoded like plain text)."""
    from lshdesk.core.corpus.decoding import decode

    return render_text(decode(data))
