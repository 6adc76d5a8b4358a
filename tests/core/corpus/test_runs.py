"""The scan's listing without a ``stat`` per file: folders listed in compiled code in Python's name order, plain
text files in runs sized by the reader's ``fstat``, and every skip (empty, over the size cap, FIFOs, sockets,
devices, links, tool folders) told with the same reason, fix and order as the listing that stats each file."""

from __future__ import annotations

import os
import socket
import stat
import threading

import pytest
from core_helpers import write_tree

from lshdesk.core.corpus import listing
from lshdesk.core.corpus.listing import FileRun, Skipped, SourceFile, walk
from lshdesk.core.kernels.folders import list_folder, packed
from lshdesk.core.params import CorpusOptions, ScanParams
from lshdesk.core.scan.pipeline import run, scan

pytestmark = pytest.mark.skipif(os.name != "posix", reason="folders are listed in compiled code on POSIX systems")
TEXT = packed(listing.extract.FORMATS["txt"].extensions)
NAMES = [
    "a.txt", "B.TXT", "ab", "abcdefgh", "abcdefgh.txt", "abcdefghi", "abcdefg", "doc000010.txt", "doc000009.txt",
    "\u00e9t\u00e9.txt", "\u65e5\u672c.txt", "z\u00e9", "ze", ".txt", "..txt", ".hidden.txt", "x.tar.gz", "a.",
    "note.ṪXT", "readme", "~tilde.txt", "data.bin", "code.py", "long.extension1",
]  # fmt: skip


def test_a_folder_is_listed_in_the_order_python_sorts_its_names(tmp_path):
    for name in NAMES:
        (tmp_path / name).write_bytes(b"x")
    paths, kinds = list_folder(os.fsencode(f"{tmp_path}/"), TEXT)
    assert paths == [f"{tmp_path}/{n}" for n in sorted(os.listdir(tmp_path))]
    wanted = {p.rsplit("/", 1)[1] for p, k in zip(paths, kinds) if k == ord("f")}
    assert wanted == {n for n in NAMES if listing._extension(n) in listing.extract.FORMATS["txt"].extensions}


def test_kinds_come_from_the_folder_entries(tmp_path):
    write_tree(tmp_path, {"a.txt": "words", "sub/b.txt": "more"})
    os.mkfifo(tmp_path / "pipe.txt")  # a FIFO with a text name is not a run's file: the walk looks at it
    os.symlink("a.txt", tmp_path / "link.txt")
    paths, kinds = list_folder(os.fsencode(f"{tmp_path}/"), TEXT)
    assert dict(zip((p.rsplit("/", 1)[1] for p in paths), kinds.decode())) == {
        "a.txt": "f",
        "link.txt": "l",
        "pipe.txt": "o",
        "sub": "d",
    }
    assert list_folder(os.fsencode(f"{tmp_path}/nope/"), TEXT) is None  # Python says why it cannot be opened


def test_a_name_that_is_not_utf8_leaves_the_folder_to_python_in_the_same_order(tmp_path):
    try:
        (tmp_path / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"latin-1 name")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    (tmp_path / "cafe.txt").write_bytes(b"plain name")
    (tmp_path / "caf\u00e9s.txt").write_bytes(b"utf-8 name")
    assert list_folder(os.fsencode(f"{tmp_path}/"), TEXT) is None
    listed = [e.path for e in walk([str(tmp_path)], CorpusOptions())]
    assert listed == sorted(listed) and len(listed) == 3


@pytest.fixture
def hostile(tmp_path):
    """Every kind of entry the listing skips or reads, in one tree."""
    root = tmp_path / "root"
    texts = {
        "a.txt": "alpha beta gamma delta",
        "b.txt": "alpha beta gamma delta epsilon",
        "big.txt": "word " * 1000,
        "blob.txt": "text \x00 with a NUL",
        "data.bin": "binary",
        "dots.txt": "... !!! ---",
        "sub/c.md": "# a heading\n\nsome words of markdown",
        "sub/d.txt": "words in a sub folder",
        ".git/config": "[core]",
        "node_modules/x/y.txt": "a package",
    }
    write_tree(root, texts)
    (root / "empty.txt").write_bytes(b"")
    os.mkfifo(root / "pipe.txt")
    os.symlink("a.txt", root / "link.txt")
    os.symlink("missing.txt", root / "dangling.txt")
    os.symlink("..", root / "sub" / "up")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "sock.txt"))
    except OSError:
        pass  # a path too long for a socket: the other entries are enough
    try:
        os.mknod(root / "null.txt", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (OSError, AttributeError):
        pass  # only root makes devices
    yield root
    sock.close()


def _stat_listing(root, options: CorpusOptions) -> tuple[list[SourceFile], list[Skipped]]:
    entries = list(walk([str(root)], options))
    return [e for e in entries if isinstance(e, SourceFile)], [e for e in entries if isinstance(e, Skipped)]


def _scan(root, options: CorpusOptions):
    got: list = []
    worker = threading.Thread(target=lambda: got.append(run(scan([str(root)], ScanParams(corpus=options)))))
    worker.start()
    worker.join(60)
    assert got, "the scan blocked (a FIFO or a device opened?)"
    return got[0]


@pytest.mark.parametrize("follow", [False, True])
def test_the_scan_skips_what_the_stat_listing_skips_with_the_same_reasons_and_order(hostile, follow):
    options = CorpusOptions(max_bytes=1000, follow_links=follow)
    files, listed_skips = _stat_listing(hostile, options)
    result = _scan(hostile, options)
    read_skips = {str(hostile / "blob.txt"): "binary file", str(hostile / "dots.txt"): "no words to compare"}
    expected = [(s.path, s.reason, s.fix) for s in listed_skips]
    expected += [(p, r, "") for p, r in read_skips.items()]
    got = [(s.path, read_skips.get(s.path, s.reason), s.fix) for s in result.skipped]
    assert got == sorted(expected, key=lambda t: t[0].split("/"))  # in the order of the walk, as listed
    assert [f.path for f in files if f.path not in read_skips] == result.docs.paths
    reasons = {os.path.basename(s.path): s for s in result.skipped}
    assert reasons["empty.txt"].reason == "empty file" and reasons["pipe.txt"].reason == "not a regular file (FIFO)"
    assert reasons["big.txt"].reason == "larger than the size cap (4.9 KB > 1000 bytes)"
    assert reasons["big.txt"].describe("cli").endswith("raise --max-size")
    assert ".git" in reasons and "node_modules" in reasons and "dangling.txt" in reasons
    if "null.txt" in reasons:
        assert reasons["null.txt"].reason == "not a regular file (device or special file)"
    if "sock.txt" in reasons:
        assert reasons["sock.txt"].reason == "not a regular file (socket)"


def test_sizes_and_times_of_the_documents_are_the_files_own(hostile):
    result = _scan(hostile, CorpusOptions(max_bytes=1000))
    for path, size, mtime in zip(result.docs.paths, result.docs.size.tolist(), result.docs.mtime.tolist()):
        st = os.stat(path)
        assert (size, mtime) == (st.st_size, st.st_mtime_ns), path


def test_plain_text_comes_in_runs_and_the_rest_stat_ed(hostile):
    entries = list(walk([str(hostile)], CorpusOptions(), runs=True))
    runs = [e for e in entries if isinstance(e, FileRun)]
    run_files = {p[r.cut :] for r in runs for p in r.paths}
    assert {"a.txt", "b.txt", "sub/d.txt", "empty.txt"} <= run_files  # not stat-ed: the reader sees it is empty
    assert "sub/c.md" in {e.rel for e in entries if isinstance(e, SourceFile)}  # cached formats keep their stat
    assert not run_files & {"pipe.txt", "link.txt", "sock.txt", "null.txt"}


def test_the_cache_keys_a_file_on_its_own_stamp_and_hits_it_unchanged(tmp_path):
    from lshdesk.core.scan.cache import SignatureCache

    root = tmp_path / "docs"
    write_tree(root, {"a.md": "# notes\n\nsome words in markdown", "b.txt": "plain words", "c.html": "<p>a page</p>"})
    cache = SignatureCache.open(tmp_path / "cache.sqlite3")
    run(scan([str(root)], ScanParams(), cache=cache))
    rows = cache.conn.execute("SELECT path, size, mtime_ns, ino, ctime_ns FROM entries").fetchall()
    for path, *stamp in rows:
        st = os.stat(path)
        assert stamp == [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]
    assert sorted(os.path.basename(p) for p, *_ in rows) == [b"a.md", b"c.html"]  # plain text is not cached
    assert run(scan([str(root)], ScanParams(), cache=cache)).cached == 2  # unchanged: not read again
    os.utime(root / "a.md", ns=(1, 1))
    assert run(scan([str(root)], ScanParams(), cache=cache)).cached == 1
