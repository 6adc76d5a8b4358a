"""A hostile folder: every file is read or skipped with a reason, nothing hangs, nothing is changed."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from lshdesk.core.corpus import native
from lshdesk.core.corpus import reading as corpus
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.params import CorpusOptions, ScanParams
from lshdesk.core.scan.pipeline import run, scan
from tests.hostile import build

CAP = 1_000_000  # bytes: the hostile folder's too-big.txt is just over it, long-line.txt (5 MB) needs a larger cap


@pytest.fixture
def hostile(tmp_path, monkeypatch) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "hostile"
    root.mkdir()
    expected = build(root, size_cap=CAP)
    real_open = os.open

    def deny(path, flags, *a, **k):  # root reads everything: inject the permission error instead
        if str(path).endswith("unreadable.txt"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(corpus.os, "open", deny)
    real_read = native.read_files

    def deny_native(names, *rest):  # the compiled reader finds no such name, as it finds no permission
        names = np.frombuffer(names.tobytes().replace(b"unreadable.txt\0", b"unreadable.tx~\0"), dtype=np.uint8)
        return real_read(names, *rest)

    monkeypatch.setattr(native, "read_files", deny_native)
    return root, expected


def _params(cap: int = CAP) -> ScanParams:
    return ScanParams(threshold=0.5, corpus=CorpusOptions(max_bytes=cap))


def _rel(root: Path, path: str) -> str:
    return os.path.relpath(path, root)


def _digests(root: Path) -> dict[str, str]:
    out = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = Path(dirpath) / f
            if p.is_file() and not p.is_symlink():
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.mark.timeout(60)
def test_every_file_is_read_or_skipped_with_its_reason(hostile):
    root, expected = hostile
    result = run(scan([str(root)], _params(cap=6_000_000)))
    docs = {rel for rel in result.docs.rel}
    skipped = {_rel(root, s.path): s.reason for s in result.skipped}
    expected = dict(expected, **{"too-big.txt": "doc"})  # under the 6 MB cap it is a document
    for name, want in expected.items():
        if want == "doc":
            assert name in docs, f"{name!r} should be a document; skipped: {skipped.get(name)}"
        else:
            assert name in skipped, f"{name!r} should be skipped ({want}); documents: {sorted(docs)}"
            assert skipped[name].startswith(want), f"{name!r}: {skipped[name]!r} should start with {want!r}"
    for reason in skipped.values():
        assert reason and "Traceback" not in reason


@pytest.mark.timeout(60)
def test_size_cap_reason_names_both_sizes(hostile):
    root, _ = hostile
    result = run(scan([str(root)], _params()))
    reasons = {_rel(root, s.path): s.reason for s in result.skipped}
    assert reasons["too-big.txt"].startswith("larger than the size cap")
    big, cap = (part.split()[0] for part in reasons["too-big.txt"].split("(")[1].rstrip(")").split(" > "))
    assert big != cap  # the sizes shown differ (in bytes when the rounded sizes would look alike)
    assert reasons["long-line.txt"].startswith("larger than the size cap")


@pytest.mark.timeout(60)
def test_files_are_byte_for_byte_unchanged(hostile):
    root, _ = hostile
    before = _digests(root)
    run(scan([str(root)], _params(cap=6_000_000)))
    assert _digests(root) == before


@pytest.mark.timeout(60)
def test_decoded_texts_read_as_the_words_written(hostile):
    root, _ = hostile
    for name in ("utf16-bom.txt", "utf16le-nobom.txt", "utf16be-nobom.txt"):
        assert corpus.read_text(str(root / name), CAP).startswith("Near-duplicate detection")
    assert "café était très" in corpus.read_text(str(root / "latin1.txt"), CAP)
    assert "“Quoted” text – with dashes — and a € sign" in corpus.read_text(str(root / "cp1252.txt"), CAP)


@pytest.mark.timeout(60)
def test_file_deleted_while_scanning_is_reported(tmp_path):
    for i in range(600):  # more than two batches, so deletion lands between listing and reading
        (tmp_path / f"f{i:03d}.txt").write_text(f"document {i} says something about number {i} and more words")
    victim = tmp_path / "f599.txt"

    def on_progress(p):
        if p.stage == "reading" and victim.exists():
            victim.unlink()

    result = run(scan([str(tmp_path)], _params()), on_progress)
    reasons = {os.path.basename(s.path): s.reason for s in result.skipped}
    assert "vanished" in reasons["f599.txt"]
    assert len(result.docs) == 599


@pytest.mark.timeout(120)
@pytest.mark.parametrize("cancel_after", [1, 2, 3, 5])
def test_cancel_at_any_point_raises_and_a_new_scan_still_works(tmp_path, cancel_after):
    for i in range(700):
        (tmp_path / f"f{i:03d}.txt").write_text(f"text number {i} " * 20)
    cancel = threading.Event()
    seen = []

    def on_progress(p):
        seen.append(p)
        if len(seen) >= cancel_after:
            cancel.set()

    with pytest.raises(ScanCancelled):
        run(scan([str(tmp_path)], _params(), cancel), on_progress)
    assert len(seen) == cancel_after  # stops at the next check, no progress after the cancel
    again = run(scan([str(tmp_path)], _params()))
    assert len(again.docs) == 700
