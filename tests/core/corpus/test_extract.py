"""Text extraction: the same text in every format reads the same, formats are told by content, bad files give reasons."""

from __future__ import annotations

import inspect
import io
import random
import subprocess
import sys
import zipfile

import pytest
from core_helpers import jaccard
from format_samples import MAKERS, Doc, encrypt_pdf, make_doc, make_epub, make_epub_doc, make_image_pdf, make_pdf

from lshdesk.core.corpus import extract
from lshdesk.core.corpus.extract import extract_text, sniff
from lshdesk.core.errors import NotText, ParamError
from lshdesk.core.params import ShingleSpec
from lshdesk.core.shingle_kinds import shingle_strings
from lshdesk.core.shingling import tokenize

W3 = ShingleSpec("word", 3)
DOC = make_doc()
BINARY = ["pdf", "docx", "odt", "epub", "rtf"]


def j3(a: str, b: str) -> float:
    return jaccard(shingle_strings(a, W3), shingle_strings(b, W3))


def reason(data: bytes, name: str, formats: frozenset[str] | None = None) -> str:
    with pytest.raises(NotText) as info:
        extract_text(data, name, formats)
    return str(info.value)


@pytest.fixture(scope="module")
def samples() -> dict[str, bytes]:
    return {fid: make(DOC) for fid, (make, _) in MAKERS.items()}


@pytest.mark.parametrize("fid", [f for f in MAKERS if f != "txt"])
def test_same_text_in_every_format_reads_as_the_txt(samples, fid):
    name = "doc" + MAKERS[fid][1]
    assert sniff(samples[fid], name) == fid
    text = extract_text(samples[fid], name)
    assert j3(text, DOC.plain()) >= 0.9
    assert {"café", "naïve"} <= set(tokenize(text))  # non-ASCII survives each format's encoding


def test_format_is_sniffed_from_content_when_the_extension_lies(samples):
    assert sniff(samples["pdf"], "notes.txt") == "pdf"
    assert j3(extract_text(samples["pdf"], "notes.txt"), DOC.plain()) >= 0.9
    assert sniff(samples["docx"], "archive.zip") == "docx"
    assert j3(extract_text(samples["docx"], "archive.zip"), DOC.plain()) >= 0.9
    assert sniff(samples["odt"], "thing.bin") == "odt"
    assert sniff(samples["epub"], "book.zip") == "epub"
    assert sniff(samples["rtf"], "letter.txt") == "rtf"
    assert sniff(samples["html"], "page.txt") == "html"
    error_page = b"<!DOCTYPE html><html><body><h1>404 Not Found</h1><p>Gone.</p></body></html>"
    assert extract_text(error_page, "report.pdf") == "404 Not Found\n\nGone."
    assert "not a PDF" in reason(b"just some words, no PDF here", "paper.pdf")
    assert "not an RTF" in reason(b"just some words", "letter.rtf")


def test_plain_text_is_read_as_it_is():
    source = "# Not a heading here\n*stars* and <b>tags</b> stay, as typed\n"
    assert sniff(source.encode(), "notes.txt") == "txt"
    assert extract_text(source.encode(), "notes.txt") == source
    assert extract_text("naïve café".encode("utf-16"), "notes.txt") == "naïve café"


@pytest.mark.parametrize("fid", BINARY)
def test_truncated_files_are_skipped_as_corrupt(samples, fid, caplog):
    data = samples[fid]
    name = "doc" + MAKERS[fid][1]
    for cut in (0.3, 0.7):
        assert reason(data[: int(len(data) * cut)], name).startswith(f"corrupt {extract.FORMATS[fid].name}")
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]  # no repair chatter on the user's terminal


def test_password_protected_pdf_is_skipped_but_an_owner_only_lock_is_read(samples):
    assert reason(encrypt_pdf(samples["pdf"], "secret"), "locked.pdf") == "password-protected PDF"
    assert j3(extract_text(encrypt_pdf(samples["pdf"], ""), "restricted.pdf"), DOC.plain()) >= 0.9


def test_aes_encrypted_pdf_with_an_empty_password_is_read(samples):
    pytest.importorskip("cryptography")
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter(clone_from=PdfReader(io.BytesIO(samples["pdf"])))
    w.encrypt("", "owner", algorithm="AES-256")
    out = io.BytesIO()
    w.write(out)
    assert j3(extract_text(out.getvalue(), "aes.pdf"), DOC.plain()) >= 0.9


def test_image_only_pdf_has_no_text_layer():
    assert reason(make_image_pdf(), "scan.pdf") == "PDF has no text layer (scanned image?)"


def test_pdf_pages_are_joined_in_order_by_blank_lines():
    doc = make_doc(seed=3, n_paragraphs=6, words=20)
    text = extract_text(make_pdf(doc, pages=3), "three.pdf")
    starts = [text.index(" ".join(p.split()[:6])) for p in doc.paragraphs]
    assert starts == sorted(starts)
    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(make_pdf(doc, pages=3))).pages) == 3
    assert text.count("\n\n") >= 2  # one blank line between consecutive pages at least


def test_pdf_words_broken_at_a_line_end_are_rejoined():
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in ("the quick exam-", "ple of a well-", "Known word"):
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    text = extract_text(bytes(pdf.output()), "hyphen.pdf")
    assert "example" in tokenize(text)
    assert "well-\nKnown" in text  # a capital after the break is a real hyphen, kept


def test_docx_paragraphs_and_tables_in_document_order_merged_cells_once():
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    d = docx.Document()
    d.add_paragraph("before the table")._p.addnext(
        parse_xml(  # a content control, as cover pages and forms use
            f"<w:sdt {nsdecls('w')}><w:sdtContent><w:p><w:r><w:t>in a control</w:t></w:r></w:p></w:sdtContent></w:sdt>"
        )
    )
    t = d.add_table(rows=2, cols=3)
    t.cell(0, 0).merge(t.cell(0, 1)).text = "merged wide cell"
    t.cell(0, 2).merge(t.cell(1, 2)).text = "right cell"
    t.cell(1, 0).text = "lower left"
    d.add_paragraph("after the table")
    out = io.BytesIO()
    d.save(out)
    text = extract_text(out.getvalue(), "t.docx")
    assert text.count("merged wide cell") == 1 and text.count("right cell") == 1
    order = [
        text.index(s) for s in ("before the table", "in a control", "merged wide cell", "lower left", "after the table")
    ]
    assert order == sorted(order)
    assert "merged wide cell\tright cell" in text


def _odt(body: str) -> bytes:
    ns = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"'
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr(
            "content.xml",
            f'<?xml version="1.0"?><office:document-content {ns}><office:body><office:text>{body}'
            "</office:text></office:body></office:document-content>",
        )
    return out.getvalue()


def test_odt_headings_lists_tables_notes_without_deleted_text_or_comments():
    body = (
        "<text:tracked-changes><text:changed-region><text:deletion><text:p>zzdeleted words</text:p>"
        "</text:deletion></text:changed-region></text:tracked-changes>"
        "<text:h>The heading</text:h>"
        '<text:p>one<text:s text:c="3"/>two<text:span> spanned</text:span> text'
        "<office:annotation><text:p>zzcomment</text:p></office:annotation> goes on"
        "<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>the footnote</text:p>"
        "</text:note-body></text:note></text:p>"
        "<text:list><text:list-item><text:p>first item</text:p></text:list-item>"
        "<text:list-item><text:p>second item</text:p></text:list-item></text:list>"
        "<table:table><table:table-column/><table:table-row><table:table-cell><text:p>cell a</text:p></table:table-cell>"
        "<table:table-cell><text:p>cell b</text:p></table:table-cell></table:table-row></table:table>"
        "<text:p>the end</text:p>"
    )
    text = extract_text(_odt(body), "x.odt")
    assert "zzdeleted" not in text and "zzcomment" not in text
    assert "one   two spanned text goes on" in text
    assert "cell a\tcell b" in text
    order = [
        text.index(s) for s in ("The heading", "one", "the footnote", "first item", "second item", "cell a", "the end")
    ]
    assert order == sorted(order)
    assert sniff(_odt(body), "x.bin") == "odt"


def test_odt_and_epub_found_when_mimetype_is_not_the_first_member(samples):
    for fid in ("odt", "epub"):
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(samples[fid])) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for item in reversed(src.infolist()):
                dst.writestr(item.filename, src.read(item))
        assert zipfile.ZipFile(out).namelist()[-1] == "mimetype"
        assert sniff(out.getvalue(), "renamed.zip") == fid


def test_password_protected_odt(samples):
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(samples["odt"])) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "META-INF/manifest.xml":
                data = data.replace(
                    b"</manifest:manifest>",
                    b"<manifest:file-entry manifest:full-path='content.xml'>"
                    b"<manifest:encryption-data/></manifest:file-entry></manifest:manifest>",
                )
            dst.writestr(item, data)
    assert reason(out.getvalue(), "locked.odt") == "password-protected ODT"


def test_html_shows_only_visible_text_one_block_per_line(samples):
    text = extract_text(samples["html"], "page.html")
    assert "zz" not in text  # script, style, title, comment and noscript words all absent
    lines = text.splitlines()
    for p in DOC.paragraphs:  # inline tags and source line breaks inside a <p> neither split words nor lines
        assert p in lines
    assert "\t".join(DOC.table[0]) in lines


def test_html_declared_charset_is_honoured():
    for charset in ("windows-1252", "iso-8859-1"):
        page = f'<html><head><meta charset="{charset}"></head><body><p>caf\xe9 cr\xe8me</p></body></html>'
        assert extract_text(page.encode("cp1252"), "a.html") == "café crème"
    page = '<?xml version="1.0" encoding="koi8-r"?><html><body><p>\u043c\u0438\u0440</p></body></html>'
    assert extract_text(page.encode("koi8-r"), "a.xhtml") == "\u043c\u0438\u0440"


def test_markdown_is_rendered_to_its_text(samples):
    text = extract_text(samples["md"], "readme.md")
    assert "zzlinkurl" not in text and "*" not in text and "#" not in text and "`" not in text and "|" not in text
    src = b"# Title\n\nSee [the docs](http://x.org/zz) and `code()`.\n\n```\nkeep = this\n```\n\n<div>raw <script>zz()</script>html</div>\n"
    out = extract_text(src, "a.md")
    assert out.splitlines()[0] == "Title"
    assert "See the docs and code()." in out and "keep = this" in out and "raw html" in out and "zz" not in out


def test_rtf_code_page_is_honoured():
    rtf = rb"{\rtf1\ansi\ansicpg1251{\fonttbl{\f0 Arial;}}\f0 \'ec\'e8\'f0 world\par}"
    assert extract_text(rtf, "a.rtf").strip() == bytes([0xEC, 0xE8, 0xF0]).decode("cp1251") + " world"


def test_rtf_pictures_are_skipped_and_the_text_around_them_kept():
    picture = "\n".join(random.Random(5).randbytes(64).hex() for _ in range(100))
    rtf = (
        "{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\f0 before the picture\\par{\\pict\\pngblip "
        + picture
        + "}after it\\par}"
    )
    text = extract_text(rtf.encode("ascii"), "a.rtf")
    assert text.split() == ["before", "the", "picture", "after", "it"]


def test_epub_chapters_follow_the_spine_not_the_files():
    chapters = [(f"c{i}.xhtml", f"<p>chapter body {w}</p>") for i, w in enumerate(("alpha", "bravo", "charlie"))]
    text = extract_text(make_epub(chapters, spine=[2, 0, 1]), "book.epub")
    assert [line.split()[-1] for line in text.split("\n\n")] == ["charlie", "alpha", "bravo"]
    assert "zzchaptertitle" not in text
    names = zipfile.ZipFile(io.BytesIO(make_epub_doc(DOC))).namelist()
    assert names.index("OEBPS/text/b_second.xhtml") < names.index("OEBPS/text/a_first.xhtml")


def test_drm_protected_epub_is_refused():
    data = make_epub([("c0.xhtml", "<p>secret</p>")], spine=[0])
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, src.read(item))
        dst.writestr(
            "META-INF/encryption.xml",
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData>'
            '<enc:CipherReference URI="OEBPS/text/c0.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>',
        )
    assert reason(out.getvalue(), "drm.epub") == "DRM-protected EPUB (its chapters are encrypted)"


def test_other_containers_get_reasons():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("photo.txt", "hello")
    assert reason(out.getvalue(), "photos.zip") == "a ZIP archive, not a DOCX, ODT or EPUB document"
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600)
    assert reason(ole, "old.doc").startswith("old binary Office file")
    assert reason(ole + "EncryptedPackage".encode("utf-16-le"), "x.bin") == "password-protected Office document"


def test_zip_bomb_is_refused(samples, monkeypatch):
    from lshdesk.core.corpus.extract import _common

    monkeypatch.setattr(_common, "UNPACK_LIMIT", 10_000)
    assert "a ZIP bomb?" in reason(samples["docx"], "big.docx")


def test_formats_not_selected_are_skipped(samples):
    assert reason(samples["pdf"], "a.pdf", frozenset({"txt", "docx"})) == "format not selected: pdf"
    assert reason(samples["pdf"], "a.txt", frozenset({"txt"})) == "format not selected: pdf"
    assert reason(b"plain words", "a.txt", frozenset({"pdf"})) == "format not selected: txt"
    assert j3(extract_text(samples["pdf"], "a.pdf", frozenset({"pdf"})), DOC.plain()) >= 0.9


def test_parse_formats_and_extensions():
    assert extract.parse_formats(" txt, PDF,.docx,htm ,markdown") == {"txt", "pdf", "docx", "html", "md"}
    with pytest.raises(ParamError, match="choose from txt, pdf"):
        extract.parse_formats("txt,xls")
    with pytest.raises(ParamError):
        extract.parse_formats(" , ")
    assert extract.extensions(frozenset({"md", "pdf"})) == {".md", ".markdown", ".pdf"}
    assert {".txt", ".py", ".csv", ".pdf", ".docx", ".odt", ".html", ".md", ".rtf", ".epub"} <= extract.extensions()
    assert extract.format_of_extension("A/B.HTM") == "html" and extract.format_of_extension("x.xyz") is None
    ids = [set(f.extensions) for f in extract.FORMATS.values()]
    assert sum(map(len, ids)) == len(set().union(*ids))  # no extension claimed by two formats


@pytest.mark.parametrize("fid", BINARY + ["html", "md"])
def test_damaged_files_raise_nothing_but_not_text(samples, fid):
    rng = random.Random(fid)
    data = samples[fid]
    for i in range(24):
        d = bytearray(data)
        if i % 2:
            d = d[: rng.randrange(1, len(d))]
        else:
            for _ in range(rng.randrange(1, 16)):
                d[rng.randrange(len(d))] = rng.randrange(256)
        try:
            assert isinstance(extract_text(bytes(d), "x" + MAKERS[fid][1]), str)
        except NotText as e:
            assert str(e) and "Traceback" not in str(e)


def test_plain_text_loads_no_extraction_library():
    code = (
        "import sys\nfrom lshdesk.core.corpus.extract import extract_text\n"
        "assert extract_text(b'hello plain world', 'a.txt') == 'hello plain world'\n"
        "print(sorted(m for m in ('pypdf', 'docx', 'bs4', 'markdown_it', 'striprtf', 'lxml') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_each_format_is_one_module_with_extract():
    import importlib

    for fmt in extract.FORMATS.values():
        if fmt.module:
            assert inspect.signature(importlib.import_module(fmt.module).extract).parameters.keys() == {"data", "name"}


def _integrated() -> bool:
    from lshdesk.core.corpus import reading as corpus

    return "formats" in inspect.signature(corpus.read_text).parameters


@pytest.mark.skipif(
    not _integrated(), reason="corpus.read_text does not call the extractors yet (issue 12 integration)"
)
def test_scan_pairs_the_same_text_across_formats(tmp_path, samples):
    from lshdesk.core.params import CorpusOptions, ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    for fid, (_, ext) in MAKERS.items():
        (tmp_path / f"doc{ext}").write_bytes(samples[fid])
    (tmp_path / "locked.pdf").write_bytes(encrypt_pdf(samples["pdf"], "secret"))
    (tmp_path / "scan.pdf").write_bytes(make_image_pdf())
    (tmp_path / "broken.docx").write_bytes(samples["docx"][: len(samples["docx"]) // 2])
    other = Doc("Something else", tuple(make_doc(seed=99).paragraphs), DOC.table[:1], 1)
    (tmp_path / "other.txt").write_text(other.plain(), encoding="utf-8")
    result = run(scan([str(tmp_path)], ScanParams(threshold=0.8)))
    names = {p.rsplit("/", 1)[-1] for p in result.docs.paths}
    assert names == {f"doc{ext}" for _, ext in MAKERS.values()} | {"other.txt"}
    skipped = {s.path.rsplit("/", 1)[-1]: s.reason for s in result.skipped}
    assert skipped["locked.pdf"] == "password-protected PDF"
    assert skipped["scan.pdf"] == "PDF has no text layer (scanned image?)"
    assert skipped["broken.docx"].startswith("corrupt DOCX")
    assert len(result.groups) == 1 and len(result.groups[0]) == len(MAKERS)
    assert len(result.pairs) == len(MAKERS) * (len(MAKERS) - 1) // 2

    only = run(scan([str(tmp_path)], ScanParams(corpus=CorpusOptions(formats=frozenset({"pdf", "docx"})))))
    assert {p.rsplit("/", 1)[-1] for p in only.docs.paths} == {"doc.pdf", "doc.docx"}
