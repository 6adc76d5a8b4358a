"""Corpus: decoding bytes to text, walking folders (filters, caps, links, FIFOs, tool folders), reading safely."""

from __future__ import annotations

import codecs
import os
import threading
from pathlib import Path

import numpy as np
import pytest
from core_helpers import tree_digest, write_tree

from lshdesk.core.corpus.decoding import decode
from lshdesk.core.corpus.listing import Skipped, SourceFile, walk
from lshdesk.core.corpus.reading import read_text
from lshdesk.core.errors import NotText
from lshdesk.core.params import CorpusOptions

# ------------------------------------------------------------------ decode

TEXT = "Plain text with accents: café, naïve, Ærøskøbing, and 日本語."
FRENCH = (
    "Voilà une très belle journée à la plage, où l'été est doux et les enfants jouent près de la mer. "
    "Les élèves étudient le français à l'école, puis ils goûtent une crème brûlée."
)
SWEDISH = "Smörgåsbord och räksmörgås är typiskt svenska rätter; åtta älgar åt ärtor i skogen vid sjön."
CP1252 = "“Smart quotes” and an em dash — plus the euro sign € and a bullet • are typical cp1252 characters."


@pytest.mark.parametrize(
    "data, text",
    [
        (TEXT.encode("utf-8"), TEXT),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), TEXT),
        (codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"), TEXT),
        (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), TEXT),
        (codecs.BOM_UTF32_LE + TEXT.encode("utf-32-le"), TEXT),
        (TEXT.encode("utf-16-le"), TEXT),  # no BOM: zero high bytes give it away
        (TEXT.encode("utf-16-be"), TEXT),
        ("hello\nworld\n".encode("utf-16-le"), "hello\nworld\n"),
        (b"", ""),
    ],
    ids=[
        "utf8",
        "utf8-bom",
        "utf16le-bom",
        "utf16be-bom",
        "utf32le-bom",
        "utf16le",
        "utf16be",
        "utf16le-short",
        "empty",
    ],
)
def test_decode_unicode(data, text):
    assert decode(data) == text


@pytest.mark.parametrize(
    "text, encoding",
    [(FRENCH, "latin-1"), (SWEDISH, "latin-1"), (FRENCH, "cp1252"), (CP1252, "cp1252")],
    ids=["french-latin1", "swedish-latin1", "french-cp1252", "quotes-cp1252"],
)
def test_decode_legacy_8bit_text_is_detected(text, encoding):
    data = text.encode(encoding)
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # really not UTF-8: detection has to work
    assert decode(data) == text


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00",
        bytes(range(256)) * 4,
        b"abc\x00def",  # valid UTF-8, but a NUL byte is not text
        b"\x00" * 64,
        b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00\x3e\x00",
        # 16-bit samples below 256: every high byte zero, so it looks like UTF-16 LE, but decodes to control codes
        bytes(np.random.default_rng(0).integers(1, 256, 500).astype("<u2").tobytes()),
        b"\x00\x01\x02\x03" * 50,  # looks like UTF-16 BE: U+0001 U+0203 ...
    ],
    ids=["png", "all-bytes", "nul-in-ascii", "zeros", "elf", "uint16-samples", "uint16-pattern"],
)
def test_decode_refuses_binary(data):
    with pytest.raises(NotText, match="^binary"):
        decode(data)


def test_decode_bad_bytes_after_a_bom():
    with pytest.raises(NotText, match="byte-order mark"):
        decode(codecs.BOM_UTF8 + b"ok \xc3\x28 broken")


# ------------------------------------------------------------------ walk


def _entries(root, **opts):
    docs, skipped = {}, {}
    for e in walk([str(root)], CorpusOptions(**opts)):
        if isinstance(e, SourceFile):
            docs[e.rel] = e
        else:
            assert isinstance(e, Skipped)
            skipped[os.path.relpath(e.path, root)] = e.describe()
    return docs, skipped


def _run_with_deadline(fn, seconds=20.0):
    """Run fn in a thread; fail (instead of hanging the suite) if it does not finish in time."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # pragma: no cover - reported below
            box["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"did not finish within {seconds} s (blocked?)"
    if "error" in box:
        raise box["error"]
    return box["value"]


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "corpus"
    write_tree(
        root,
        {
            "a.txt": "alpha beta gamma",
            "notes.MD": "upper-case extension",
            "sub/b.md": "beta gamma delta",
            "sub/deeper/c.py": "print('hello')",
            "data.bin": "binary-ish but really text",
            "README": "no extension at all",
            "big.txt": "x" * 5000,
            "empty.txt": "",
            ".hidden/h.txt": "hidden folders are read",
            ".git/config": "[core]\n",
            ".git/objects/ab.txt": "not to be read",
            "node_modules/pkg/index.js": "module.exports = 1",
        },
    )
    os.symlink("..", root / "sub" / "loop")  # a loop back to the root (not followed by default)
    os.symlink("loop_self", root / "loop_self")  # a link to itself
    os.symlink("missing.txt", root / "dangling.txt")
    os.symlink("a.txt", root / "link_to_a.txt")  # a link to a file is read like the file
    os.mkfifo(root / "pipe.txt")
    yield root
    _unblock(root / "pipe.txt")


def _unblock(fifo: Path) -> None:
    """If anything is stuck opening the FIFO for reading, a writer lets it go."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
    except OSError:
        pass


def test_walk_default_extensions(folder):
    docs, skipped = _run_with_deadline(lambda: _entries(folder))
    assert set(docs) == {
        "a.txt",
        "notes.MD",
        "sub/b.md",
        "sub/deeper/c.py",
        "big.txt",
        ".hidden/h.txt",
        "link_to_a.txt",
    }
    assert "not a text file type ('.bin')" in skipped["data.bin"] and "--all-files" in skipped["data.bin"]
    assert "no extension" in skipped["README"]
    assert skipped["empty.txt"] == "empty file"
    assert skipped["pipe.txt"] == "not a regular file (FIFO)"
    assert skipped["dangling.txt"].startswith("broken symbolic link")
    assert skipped[os.path.join("sub", "loop")].startswith("link to a folder, not followed; ")
    assert "--follow-links" in skipped[os.path.join("sub", "loop")]
    assert "loop_self" in skipped  # ELOOP: reported, whatever the wording
    assert "version-control" in skipped[".git"]
    assert "node_modules" in skipped
    assert not any(p.startswith(".git" + os.sep) for p in skipped)  # the folder is skipped whole, not opened
    assert docs["a.txt"].size == len("alpha beta gamma") and docs["a.txt"].root == 0


def test_walk_is_sorted_and_stable(folder):
    first = [e.path for e in walk([str(folder)], CorpusOptions())]
    second = [e.path for e in walk([str(folder)], CorpusOptions())]
    assert first == second
    rels = [e.rel for e in walk([str(folder)], CorpusOptions()) if isinstance(e, SourceFile)]
    assert rels == sorted(rels, key=lambda r: r.split("/"))


def test_walk_include_exclude(folder):
    docs, skipped = _entries(folder, include=("*.bin", "sub/*.md"))
    assert set(docs) == {"data.bin", "sub/b.md"}
    assert skipped["a.txt"] == "not matched by the include patterns"
    docs, skipped = _entries(folder, exclude=("sub/*", "*.py"))
    assert "sub/b.md" not in docs and skipped[os.path.join("sub", "b.md")] == "excluded by a pattern"
    assert skipped[os.path.join("sub", "deeper", "c.py")] == "excluded by a pattern"
    assert "a.txt" in docs
    # exclude wins over include
    docs, skipped = _entries(folder, include=("*.txt",), exclude=("big.*",))
    assert "big.txt" not in docs and skipped["big.txt"] == "excluded by a pattern" and "a.txt" in docs


def test_walk_all_files(folder):
    docs, skipped = _entries(folder, all_files=True)
    assert {"data.bin", "README", "a.txt"} <= set(docs)
    assert skipped["pipe.txt"] == "not a regular file (FIFO)"  # still never opened
    assert skipped["empty.txt"] == "empty file"


def test_walk_size_cap(folder):
    docs, skipped = _entries(folder, max_bytes=1000)
    assert "big.txt" not in docs
    assert skipped["big.txt"].startswith("larger than the size cap") and "4.9 KB" in skipped["big.txt"]
    assert "a.txt" in docs


def test_walk_reports_every_file(folder):
    """Nothing silently lost: each entry below the folder is a document, a skipped entry or inside a skipped folder."""
    docs, skipped = _entries(folder, all_files=True)
    skipped_dirs = [p for p in skipped if os.path.isdir(folder / p) and not os.path.islink(folder / p)]
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            rel = os.path.relpath(os.path.join(dirpath, name), folder)
            inside_skipped = any(rel.startswith(d + os.sep) for d in skipped_dirs)
            assert rel.replace(os.sep, "/") in docs or rel in skipped or inside_skipped, rel


def test_walk_single_file_and_missing_root(tmp_path):
    f = write_tree(tmp_path, {"one.txt": "hello there"}) / "one.txt"
    entries = list(walk([str(f), str(tmp_path / "nope")], CorpusOptions()))
    assert isinstance(entries[0], SourceFile) and entries[0].rel == "one.txt" and entries[0].root == 0
    assert isinstance(entries[1], Skipped) and entries[1].reason.startswith("cannot open")


def test_walk_two_roots_are_numbered(tmp_path):
    write_tree(tmp_path, {"A/x.txt": "x", "B/y.txt": "y"})
    entries = list(walk([str(tmp_path / "A"), str(tmp_path / "B")], CorpusOptions()))
    assert [(e.rel, e.root) for e in entries] == [("x.txt", 0), ("y.txt", 1)]


# ------------------------------------------------------------------ read_text


def test_read_text_fifo_never_blocks(folder):
    with pytest.raises(NotText, match="not a regular file"):
        _run_with_deadline(lambda: read_text(str(folder / "pipe.txt"), 1000))


def test_read_text_caps_and_empties(folder):
    assert read_text(str(folder / "a.txt"), 1000) == "alpha beta gamma"
    with pytest.raises(NotText, match="size cap"):
        read_text(str(folder / "big.txt"), 100)
    with pytest.raises(NotText, match="empty"):
        read_text(str(folder / "empty.txt"), 100)
    with pytest.raises(NotText, match="vanished"):
        read_text(str(folder / "gone.txt"), 100)


def test_reading_changes_no_file(folder):
    before = tree_digest(folder)
    for e in walk([str(folder)], CorpusOptions(all_files=True)):
        if isinstance(e, SourceFile):
            try:
                read_text(e.path, 10**6)
            except NotText:
                pass
    assert tree_digest(folder) == before and len(before) >= 10


@pytest.mark.parametrize("max_bytes", [0, -5])
def test_corpus_options_refuse_a_non_positive_cap(max_bytes):
    from lshdesk.core.errors import ParamError

    with pytest.raises(ParamError):
        CorpusOptions(max_bytes=max_bytes)
