"""Scans with the signature cache: identical results, only new or changed files read, removed files forgotten."""

from __future__ import annotations

import os

import pytest
from format_samples import make_doc, make_docx, make_html  # noqa: E402

from lshdesk.core.params import ScanParams
from lshdesk.core.persistence.export import to_json
from lshdesk.core.scan.cache import SignatureCache
from lshdesk.core.scan.pipeline import run, scan


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    for i in range(6):
        doc = make_doc(seed=i % 3)  # seeds repeat: every document has a twin
        (root / f"d{i}.docx").write_bytes(make_docx(doc))
        (root / f"h{i}.html").write_bytes(make_html(doc))
        (root / f"t{i}.txt").write_text(doc.plain(), encoding="utf-8")
    return root


def test_a_warm_scan_reads_only_plain_text_and_gives_identical_results(folder, tmp_path, reads):
    cache = SignatureCache.open(tmp_path / "cache.sqlite3")
    params = ScanParams(threshold=0.5)
    cold = run(scan([str(folder)], params, cache=cache))
    assert cold.cached == 0 and len(cold.pairs) > 0
    reads.clear()
    warm = run(scan([str(folder)], params, cache=cache))
    assert warm.cached == 12  # the docx and html files
    assert sorted(reads) == sorted(f"t{i}.txt" for i in range(6))  # plain text is cheaper to read than to fetch
    assert to_json(warm) == to_json(cold) == to_json(run(scan([str(folder)], params)))


def test_changed_files_are_read_again_and_removed_ones_forgotten(folder, tmp_path, reads):
    cache = SignatureCache.open(tmp_path / "cache.sqlite3")
    params = ScanParams(threshold=0.5)
    run(scan([str(folder)], params, cache=cache))
    changed = folder / "d0.docx"
    changed.write_bytes(make_docx(make_doc(seed=99)))
    os.utime(changed, ns=(1, 1))  # a different time as well as a different size
    (folder / "h5.html").unlink()
    reads.clear()
    again = run(scan([str(folder)], params, cache=cache))
    assert [r for r in reads if not r.endswith(".txt")] == ["d0.docx"]
    assert again.cached == 10
    assert to_json(again) == to_json(run(scan([str(folder)], params)))
    rows = cache.conn.execute("SELECT path FROM entries").fetchall()
    assert len(rows) == 11 and not any(p.endswith(b"h5.html") for (p,) in rows)


def test_other_parameters_do_not_reuse_rows(folder, tmp_path):
    cache = SignatureCache.open(tmp_path / "cache.sqlite3")
    run(scan([str(folder)], ScanParams(threshold=0.5), cache=cache))
    other = ScanParams(threshold=0.5).signature.__class__(seed=7)
    assert run(scan([str(folder)], ScanParams(other, 0.5), cache=cache)).cached == 0


def test_a_damaged_cache_never_stops_a_scan(folder, tmp_path):
    path = tmp_path / "cache.sqlite3"
    path.write_bytes(b"\x00garbage" * 1000)
    result = run(scan([str(folder)], ScanParams(threshold=0.5), cache=SignatureCache.open(path)))
    assert len(result.docs) == 18
    assert any("set aside" in w for w in result.warnings)
