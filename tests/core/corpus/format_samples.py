"""Helpers for the extraction tests and benchmark (imported as ``format_samples``): one text, written in every format.

Each ``make_<format>(doc)`` writes the same ``Doc`` with that format's own library (fpdf2, python-docx, odfpy) or by
hand where the format is plain markup (HTML, Markdown, RTF, EPUB), so the extractors are checked against
independent writers, not against themselves.
"""

from __future__ import annotations

import io
import random
import zipfile
from dataclasses import dataclass

_VOCAB = (
    "river stone garden window letter market winter summer forest harbor engine ladder candle mirror basket "
    "pencil valley bridge castle meadow thunder silver copper marble velvet orchard lantern compass anchor "
    "feather blanket village island canyon glacier prairie saddle violin trumpet quarrel promise whisper "
    "journey harvest kitchen library museum theater gallery station factory college chapter article essay "
    "report contract clause witness verdict ledger invoice budget profit signal pattern method theory "
    "measure sample average variance cluster vector matrix kernel thread socket packet network archive"
).split()


@dataclass(frozen=True)
class Doc:
    """A heading, paragraphs, and a table (rows of cells) placed after paragraph ``table_after``."""

    title: str
    paragraphs: tuple[str, ...]
    table: tuple[tuple[str, ...], ...]
    table_after: int

    def plain(self) -> str:
        """The reference text: what a person would type into a .txt file."""
        rows = ["\t".join(r) for r in self.table]
        body = list(self.paragraphs[: self.table_after]) + ["\n".join(rows)] + list(self.paragraphs[self.table_after :])
        return "\n\n".join([self.title, *body]) + "\n"


def make_doc(seed: int = 7, n_paragraphs: int = 6, words: int = 60) -> Doc:
    """A deterministic document of random words (and two accented ones, to test code pages)."""
    rng = random.Random(seed)
    paras = []
    for i in range(n_paragraphs):
        w = [rng.choice(_VOCAB) for _ in range(words)]
        if i == 1:
            w[5], w[9] = "café", "naïve"
        paras.append(" ".join(w).capitalize() + ".")
    table = tuple(tuple(f"{rng.choice(_VOCAB)} {rng.choice(_VOCAB)}" for _ in range(3)) for _ in range(4))
    return Doc("Report on " + " ".join(rng.choice(_VOCAB) for _ in range(3)), tuple(paras), table, min(2, n_paragraphs))


def make_txt(doc: Doc) -> bytes:
    return doc.plain().encode("utf-8")


def make_pdf(doc: Doc, pages: int = 2) -> bytes:
    """fpdf2, core Helvetica font; the paragraphs spread over ``pages`` pages."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 7, doc.title, new_x="LMARGIN", new_y="NEXT")
    per_page = max(1, -(-len(doc.paragraphs) // pages))
    for i, p in enumerate(doc.paragraphs):
        if i and i % per_page == 0:
            pdf.add_page()
        if i == doc.table_after:
            for row in doc.table:
                pdf.multi_cell(0, 6, "    ".join(row), new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 6, p, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    return bytes(pdf.output())


def make_image_pdf() -> bytes:
    """A page with only a drawn rectangle: no text layer (what a scan looks like to a text extractor)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 120, 80, style="F")
    return bytes(pdf.output())


def encrypt_pdf(data: bytes, user_password: str, owner_password: str = "owner") -> bytes:
    """The PDF encrypted by pypdf's writer (RC4-128: no extra package needed to write or read it)."""
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    w.encrypt(user_password, owner_password, algorithm="RC4-128")
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def make_docx(doc: Doc) -> bytes:
    import docx

    d = docx.Document()
    d.add_heading(doc.title, level=1)
    for i, p in enumerate(doc.paragraphs):
        if i == doc.table_after:
            t = d.add_table(rows=len(doc.table), cols=len(doc.table[0]))
            for r, row in enumerate(doc.table):
                for c, cell in enumerate(row):
                    t.cell(r, c).text = cell
        d.add_paragraph(p)
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def make_odt(doc: Doc) -> bytes:
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P

    d = OpenDocumentText()
    d.text.addElement(H(outlinelevel=1, text=doc.title))
    for i, p in enumerate(doc.paragraphs):
        if i == doc.table_after:
            t = Table(name="T1")
            t.addElement(TableColumn(numbercolumnsrepeated=len(doc.table[0])))
            for row in doc.table:
                tr = TableRow()
                for cell in row:
                    tc = TableCell()
                    tc.addElement(P(text=cell))
                    tr.addElement(tc)
                t.addElement(tr)
            d.text.addElement(t)
        d.text.addElement(P(text=p))
    out = io.BytesIO()
    d.write(out)
    return out.getvalue()


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def html_body(doc: Doc) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>\n" for r in doc.table)
    parts = [f"<h1>{_esc(doc.title)}</h1>"]
    for i, p in enumerate(doc.paragraphs):
        if i == doc.table_after:
            parts.append(f"<table>\n{rows}</table>")
        words = _esc(p).split(" ")
        words[3] = f"<b>{words[3]}</b>"  # inline markup must not split words or lines
        words[7] = f'<a href="https://example.org/x">{words[7]}</a>'
        parts.append("<p>" + "\n  ".join([" ".join(words[:20]), " ".join(words[20:])]) + "</p>")
    return "\n".join(parts)


def make_html(doc: Doc) -> bytes:
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>zzheadtitle</title>\n"
        "<style>body { font-family: zzstylefont; }</style>\n"
        "<script>var zzscriptword = 'zzscriptstring';</script></head>\n<body>\n<!-- zzcommentword -->\n"
        + html_body(doc)
        + "\n<script type='text/javascript'>document.write('zzscriptword2')</script>\n"
        "<noscript>zznoscriptword</noscript>\n</body></html>\n"
    ).encode("utf-8")


def make_md(doc: Doc) -> bytes:
    lines = [f"# {doc.title}", ""]
    for i, p in enumerate(doc.paragraphs):
        if i == doc.table_after:
            lines += ["| " + " | ".join(doc.table[0]) + " |", "|" + "---|" * len(doc.table[0])]
            lines += ["| " + " | ".join(r) + " |" for r in doc.table[1:]] + [""]
        words = p.split(" ")
        words[3] = f"*{words[3]}*"
        words[7] = f"[{words[7]}](https://example.org/zzlinkurl)"
        words[11] = f"`{words[11]}`"
        lines += [" ".join(words[:30]), " ".join(words[30:]), ""]
    return "\n".join(lines).encode("utf-8")


def _rtf_escape(s: str) -> str:
    out = []
    for ch in s:
        if ch in "\\{}":
            out.append("\\" + ch)
        elif ord(ch) < 128:
            out.append(ch)
        else:
            out.append(f"\\'{ch.encode('cp1252')[0]:02x}")
    return "".join(out)


def make_rtf(doc: Doc) -> bytes:
    """Hand-written RTF as word processors write it: font table, \\par paragraphs, \\'hh for non-ASCII."""
    parts = [
        r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss\fcharset0 Helvetica;}}",
        r"{\b " + _rtf_escape(doc.title) + r"}\par",
    ]
    for i, p in enumerate(doc.paragraphs):
        if i == doc.table_after:
            for row in doc.table:
                parts.append(r"\tab ".join(_rtf_escape(c) for c in row) + r"\par")
        parts.append(r"\pard " + _rtf_escape(p) + r"\par")
    return ("\n".join(parts) + "}\n").encode("ascii")


def make_epub(chapters: list[tuple[str, str]], spine: list[int]) -> bytes:
    """Hand-built EPUB 3: chapter i is (file name, XHTML body); the spine lists chapter indices in reading order."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr(
            "META-INF/container.xml",
            (
                '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'
            ),
        )
        for fname, body in chapters:  # file order = chapter list order, not reading order
            z.writestr(
                f"OEBPS/text/{fname}",
                (
                    '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml">'
                    f"<head><title>zzchaptertitle</title></head><body>{body}</body></html>"
                ),
            )
        items = "".join(
            f'<item id="c{i}" href="text/{f}" media-type="application/xhtml+xml"/>' for i, (f, _) in enumerate(chapters)
        )
        refs = "".join(f'<itemref idref="c{i}"/>' for i in spine)
        z.writestr(
            "OEBPS/content.opf",
            (
                '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
                '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title>'
                f"<dc:language>en</dc:language></metadata><manifest>{items}</manifest><spine>{refs}</spine></package>"
            ),
        )
    return out.getvalue()


def make_epub_doc(doc: Doc) -> bytes:
    """The document as a two-chapter EPUB whose files are stored second chapter first (the spine says otherwise)."""
    body = html_body(doc).split("\n")
    half = len(body) // 2
    first, second = "\n".join(body[:half]), "\n".join(body[half:])
    return make_epub([("b_second.xhtml", second), ("a_first.xhtml", first)], spine=[1, 0])


MAKERS = {
    "txt": (make_txt, ".txt"),
    "pdf": (make_pdf, ".pdf"),
    "docx": (make_docx, ".docx"),
    "odt": (make_odt, ".odt"),
    "html": (make_html, ".html"),
    "md": (make_md, ".md"),
    "rtf": (make_rtf, ".rtf"),
    "epub": (make_epub_doc, ".epub"),
}
