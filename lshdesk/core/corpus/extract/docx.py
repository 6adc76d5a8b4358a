"""Word DOCX: paragraphs and tables in document order (python-docx); table cells tab-separated, rows on lines."""

from __future__ import annotations

import io
from typing import Any

from lshdesk.core.corpus.extract._common import open_zip


def _table(tbl: Any, parent: Any) -> str:  # python-docx's CT_Tbl and its parent
    from docx.table import Table

    table = Table(tbl, parent)
    rows = []
    for row in table.rows:
        cells = []
        for tc in row._tr.tc_lst:  # each cell once: a horizontally merged cell is one w:tc
            if tc.vMerge == "continue":  # the lower part of a vertically merged cell: its text is above
                continue
            cells.append(_blocks(tc, table).replace("\n", " "))
        rows.append("\t".join(cells))
    return "\n".join(rows)


def _blocks(element: Any, parent: Any) -> str:
    """Paragraphs and tables of a body or cell, also those inside block content controls (w:sdt)."""
    from docx.oxml.ns import qn
    from docx.text.paragraph import Paragraph

    out = []
    for child in element.iterchildren():
        if child.tag == qn("w:p"):
            out.append(Paragraph(child, parent).text)
        elif child.tag == qn("w:tbl"):
            out.append(_table(child, parent))
        elif child.tag == qn("w:sdt"):  # a content control (cover page, form field) holding paragraphs
            content = child.find(qn("w:sdtContent"))
            if content is not None:
                out.append(_blocks(content, parent))
    return "\n".join(out)


def extract(data: bytes, name: str) -> str:
    """The body's paragraphs and tables (headers, footers and comments left out)."""
    open_zip(data, "DOCX")  # refuses damaged containers and ZIP bombs with a clear reason
    import docx

    document = docx.Document(io.BytesIO(data))
    return _blocks(document.element.body, document._body)
