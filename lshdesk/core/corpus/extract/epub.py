"""EPUB: the chapters in the order of the package's spine (zipfile + ElementTree), each through the HTML extractor."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING
from urllib.parse import unquote, urldefrag

from lshdesk.core.corpus.extract._common import open_zip, parse_xml, read_member
from lshdesk.core.errors import NotText

if TYPE_CHECKING:
    import zipfile

_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_OPF = "{http://www.idpf.org/2007/opf}"
_ENC = "{http://www.w3.org/2001/04/xmlenc#}"
_PACKAGE_TYPE = "application/oebps-package+xml"
_CHAPTER_TYPES = {"application/xhtml+xml", "text/html", "application/x-dtbook+xml"}


def _package_path(zf: zipfile.ZipFile) -> str:
    root = parse_xml(read_member(zf, "META-INF/container.xml", "EPUB"), "META-INF/container.xml", "EPUB")
    for rf in root.iter(_CONTAINER + "rootfile"):
        full_path = rf.get("full-path")
        if rf.get("media-type", _PACKAGE_TYPE) == _PACKAGE_TYPE and full_path:
            return full_path
    raise NotText("corrupt EPUB: META-INF/container.xml names no package document")


def spine(zf: zipfile.ZipFile) -> list[str]:
    """The member names of the chapters, in spine (reading) order."""
    opf_path = _package_path(zf)
    opf = parse_xml(read_member(zf, opf_path, "EPUB"), opf_path, "EPUB")
    base = posixpath.dirname(opf_path)
    manifest = {}
    for item in opf.iter(_OPF + "item"):
        href = item.get("href")
        if item.get("id") and href:  # hrefs are URLs relative to the package document
            path = posixpath.normpath(posixpath.join(base, unquote(urldefrag(href)[0])))
            manifest[item.get("id")] = (path, item.get("media-type", ""))
    spine_el = opf.find(_OPF + "spine")
    if spine_el is None:
        raise NotText(f"corrupt EPUB: {opf_path} has no spine (reading order)")
    order = []
    for ref in spine_el.iter(_OPF + "itemref"):
        entry = manifest.get(ref.get("idref", ""))
        if entry is None:
            raise NotText(f"corrupt EPUB: the spine names {ref.get('idref')!r}, which the manifest lacks")
        path, media = entry
        if media in _CHAPTER_TYPES and path not in order:
            order.append(path)
    return order


def _encrypted(zf: zipfile.ZipFile) -> set[str]:
    if "META-INF/encryption.xml" not in zf.namelist():
        return set()
    root = parse_xml(zf.read("META-INF/encryption.xml"), "META-INF/encryption.xml", "EPUB")
    return {unquote(ref.get("URI", "")) for ref in root.iter(_ENC + "CipherReference")}


def extract(data: bytes, name: str) -> str:
    """Each chapter's visible text, chapters separated by blank lines; DRM-locked books are refused."""
    from lshdesk.core.corpus.extract.html import decode_html, visible_text

    zf = open_zip(data, "EPUB")
    chapters = spine(zf)
    if not chapters:
        raise NotText("corrupt EPUB: its spine lists no chapters")
    if _encrypted(zf) & set(chapters):  # fonts may be obfuscated harmlessly; encrypted chapters mean DRM
        raise NotText("DRM-protected EPUB (its chapters are encrypted)")
    return "\n\n".join(visible_text(decode_html(read_member(zf, c, "EPUB"))) for c in chapters)
