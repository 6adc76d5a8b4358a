"""Reading a batch in the compiled kernel gives exactly what reading it in Python gives: the same files, bytes,
texts and reasons, whatever changed between the listing and the reading, and never blocks on a FIFO."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
from format_samples import MAKERS, make_doc

from lshdesk.core.corpus import native
from lshdesk.core.scan import frontend
from lshdesk.core.scan.frontend import read_listed

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the compiled reader is used on POSIX systems only")
MAX = 1 << 20

FILES = {
    "plain.txt": b"the quick brown fox jumps over the lazy dog\n" * 3,
    "utf8.txt": "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, \uff26\uff55\uff4c\uff4c width".encode(),
    "latin1.txt": "na\u00efve fa\u00e7ade".encode("latin-1"),
    "nul.txt": b"text with a \x00 inside it",
    "page.txt": b"  \n<html><body><p>a web page under a text name</p></body></html>",
    "angle.txt": b"<not markup at all> just a line that opens with an angle",
    "rtf.txt": b"{\\rtf1\\ansi plain words in rich text format}",
    "brace.txt": b"{ a brace, not RTF }",
    "pdf.txt": b"%PDF-1.4 not really a pdf at all",
    "zip.txt": b"PK\x03\x04 not really a zip",
    "notes.md": b"# A heading\n\nSome *emphasis* and a [link](http://example.com).\n",
    "fake.pdf": b"plain ASCII words under a PDF name",
    "code.py": b"def f(x):\n    return x + 1\n",
    "blank.txt": b" \n\t ",
    "SHOUT.MD": b"# Upper case\n\nA *Markdown* file named in capitals.\n",
    "kelvin.mar\u212adown": b"# Kelvin\n\nA *Markdown* file: its extension lowers to markdown.\n",
    ".md": b"a hidden file whose whole name is a dot and md",
}


def _listed(folder) -> tuple[list[str], list[int]]:
    paths = sorted(str(p) for p in folder.iterdir())
    return paths, [os.stat(p).st_size for p in paths]


def _same(a, b) -> None:
    assert a.ok == b.ok
    assert [(s.path, s.reason) for s in a.skipped] == [(s.path, s.reason) for s in b.skipped]
    assert a.parts() == b.parts()
    assert a.texts == b.texts


@pytest.mark.parametrize("need_texts", [False, True])
@pytest.mark.parametrize("formats", [None, frozenset({"txt"}), frozenset({"pdf", "md"})])
def test_the_kernel_reads_what_python_reads(tmp_path, need_texts, formats):
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    for kind, (make, ext) in sorted(MAKERS.items()):
        (tmp_path / f"sample-{kind}{ext}").write_bytes(make(make_doc(seed=3)))
    paths, sizes = _listed(tmp_path)
    fast = read_listed(paths, range(len(paths)), MAX, need_texts, formats, sizes=sizes)
    slow = read_listed(paths, range(len(paths)), MAX, need_texts, formats)
    _same(fast, slow)
    assert len(fast.ok) >= 3  # files were read (the test compares real work, not two empty batches)


def test_what_changed_since_the_listing_is_read_again_for_its_reason(tmp_path):
    for name in ("grew", "shrank", "same", "gone", "now-a-dir", "fifo", "swapped"):
        (tmp_path / f"{name}.txt").write_bytes(b"twelve bytes")
    paths, sizes = _listed(tmp_path)
    (tmp_path / "grew.txt").write_bytes(b"twelve bytes and then some")
    (tmp_path / "shrank.txt").write_bytes(b"twelve")
    (tmp_path / "gone.txt").unlink()
    (tmp_path / "now-a-dir.txt").unlink()
    (tmp_path / "now-a-dir.txt").mkdir()
    (tmp_path / "fifo.txt").unlink()
    os.mkfifo(tmp_path / "fifo.txt")
    (tmp_path / "swapped.txt").write_bytes("tw\u00e9lve byte".encode())  # same size, now UTF-8
    got: list = []
    reader = threading.Thread(target=lambda: got.append(read_listed(paths, range(len(paths)), MAX, True, sizes=sizes)))
    reader.start()
    reader.join(10)
    assert got, "reading blocked (a FIFO opened without O_NONBLOCK?)"
    fast = got[0]
    _same(fast, read_listed(paths, range(len(paths)), MAX, True))
    reasons = {os.path.basename(s.path): s.reason for s in fast.skipped}
    assert reasons["gone.txt"] == "file vanished before it could be read"
    assert reasons["now-a-dir.txt"] == reasons["fifo.txt"] == "not a regular file"
    texts = dict(zip((os.path.basename(paths[i]) for i in fast.ok), fast.texts or []))
    assert texts == {
        "grew.txt": "twelve bytes and then some",
        "shrank.txt": "twelve",
        "same.txt": "twelve bytes",
        "swapped.txt": "tw\u00e9lve byte",
    }


def test_the_kernel_sorts_files_into_plain_utf8_read_and_again(tmp_path):
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    paths, sizes = _listed(tmp_path)
    sizes[paths.index(str(tmp_path / "code.py"))] += 1  # listed one byte longer than it is: read again
    got = native.slurp(paths, range(len(paths)), sizes, None)
    assert got is not None
    state = {os.path.basename(p): int(s) for p, s in zip(paths, got.state)}
    assert {n for n, s in state.items() if s == native.PLAIN} == {"plain.txt", "blank.txt"}
    assert state["code.py"] == native.AGAIN
    assert {n for n, s in state.items() if s == native.UTF8} == {"utf8.txt", "latin1.txt"}  # UTF-8 or not: utext says
    read = set(FILES) - {"plain.txt", "blank.txt", "code.py", "utf8.txt", "latin1.txt"}
    assert {n for n, s in state.items() if s == native.READ} == read
    for j, p in enumerate(paths):  # what was kept is the file's bytes, packed one after the other
        assert got.view(j).tobytes() == (
            b"" if state[os.path.basename(p)] == native.AGAIN else FILES[os.path.basename(p)]
        )
    assert got.offsets[-1] == len(got.buf) == sum(len(d) for n, d in FILES.items() if n != "code.py")


def test_a_folder_name_with_a_dot_claims_no_extension(tmp_path):
    (tmp_path / "book.pdf").mkdir()
    (tmp_path / "book.pdf" / "README").write_bytes(b"plain words in a file without an extension")
    (tmp_path / "book.pdf" / "notes.PDF").write_bytes(b"plain words under a PDF name in capitals")
    paths = [str(tmp_path / "book.pdf" / "README"), str(tmp_path / "book.pdf" / "notes.PDF")]
    got = native.slurp(paths, range(2), [os.stat(p).st_size for p in paths], None)
    assert got is not None and got.state.tolist() == [native.PLAIN, native.READ]


def test_a_name_that_is_not_utf8_is_read(tmp_path):
    name = os.fsdecode(b"caf\xe9-latin1-name.txt")  # a name the file system holds as bytes (surrogate escapes)
    try:
        (tmp_path / name).write_bytes(b"words in a file with an odd name")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    paths, sizes = _listed(tmp_path)
    got = native.slurp(paths, range(len(paths)), sizes, None)
    assert got is not None and got.all_plain() and got.view(0).tobytes() == b"words in a file with an odd name"


def test_a_batch_of_plain_files_is_one_buffer_and_steps_back_once(tmp_path, monkeypatch):
    texts = [f"document number {i} with a few words" for i in range(5)]
    for i, t in enumerate(texts):
        (tmp_path / f"{i}.txt").write_text(t)
    calls: list[int] = []
    monkeypatch.setattr(frontend, "step_back", lambda: calls.append(1))
    paths, sizes = _listed(tmp_path)
    prep = read_listed(paths, range(len(paths)), MAX, True, sizes=sizes)
    assert prep.ok == list(range(5)) and prep.texts == texts and len(calls) == 1  # no Python between files
    assert prep.buf.tobytes() == "".join(texts).encode() and np.diff(prep.offsets).tolist() == [len(t) for t in texts]


def test_without_the_kernel_files_are_read_in_python(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_bytes(FILES["plain.txt"])
    paths, sizes = _listed(tmp_path)
    monkeypatch.setattr(native, "NATIVE", False)  # as on Windows
    assert native.slurp(paths, range(1), sizes, None) is None
    prep = read_listed(paths, range(1), MAX, True, sizes=sizes)
    assert prep.ok == [0] and prep.texts == [FILES["plain.txt"].decode()]


@pytest.mark.parametrize("accents", [False, True])  # one batch of plain ASCII files only, or a mixed one
@pytest.mark.parametrize("shingle", ["char:5", "word:3"])
def test_a_scan_gives_the_same_result_with_and_without_the_compiled_reader(tmp_path, monkeypatch, shingle, accents):
    from lshdesk.core import shingling
    from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
    from lshdesk.core.persistence.export import to_json
    from lshdesk.core.scan.pipeline import run, scan

    words = "the quick brown fox jumps over the lazy dog while a cat sleeps in the warm sun".split()
    rng = np.random.default_rng(4)
    for i in range(40):  # plain ASCII, most of them near-copies of one another, with mixed case and whitespace
        text = " ".join(rng.choice(words, 40)) if i % 4 else "  The QUICK\tbrown fox\r\n jumps " * 5
        (tmp_path / f"d{i:02d}.txt").write_text(text + (" caf\u00e9" if accents and i % 3 == 0 else ""))
    params = ScanParams(SignatureParams(ShingleSpec.parse(shingle)), threshold=0.3)
    compiled: list[int] = []
    real = shingling.ascii_char_batch  # the char kind's row calls it by name from shingling
    monkeypatch.setattr(
        shingling, "ascii_char_batch", lambda buf, o, n: (compiled.append(len(o) - 1), real(buf, o, n))[1]
    )
    fast = run(scan([str(tmp_path)], params))
    assert (40 in compiled) == (shingle == "char:5" and not accents)  # the batch of plain files: compiled
    monkeypatch.setattr(native, "NATIVE", False)
    slow = run(scan([str(tmp_path)], params))
    assert len(fast.pairs) > 10 and to_json(fast) == to_json(slow)
    assert np.array_equal(fast.shingles.ids, slow.shingles.ids)
