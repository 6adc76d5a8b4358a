"""Extraction in worker processes: the same documents and reasons as on the thread, a time limit, cancel, no idle cost."""

from __future__ import annotations

import subprocess
import sys
import time

import pool_jobs
import pytest
from format_samples import MAKERS, encrypt_pdf, make_doc, make_pdf

from lshdesk.core.corpus.pool import ExtractPool
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.scan.frontend import read_listed

MAX = 1 << 24


def _folder(tmp_path, extra: dict[str, bytes] | None = None) -> list[str]:
    paths = []
    for seed, (kind, (make, ext)) in enumerate(sorted(MAKERS.items())):
        p = tmp_path / f"{seed:02d}-{kind}{ext}"
        p.write_bytes(make(make_doc(seed=seed)))
        paths.append(str(p))
    broken = {
        "50-cut.pdf": make_pdf(make_doc(seed=50))[:300],
        "51-locked.pdf": encrypt_pdf(make_pdf(make_doc(seed=51)), "secret"),
        "52-zip.docx": b"PK\x03\x04 not really a zip",
        "53-empty.odt": b"",
    }
    for name, data in {**broken, **(extra or {})}.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    return sorted(paths)


@pytest.mark.parametrize("need_texts", [False, True])
def test_the_pool_reads_exactly_what_the_thread_reads(tmp_path, need_texts):
    paths = _folder(tmp_path)
    alone = read_listed(paths, range(len(paths)), MAX, need_texts)
    with ExtractPool(workers=2) as pool:
        pooled = read_listed(paths, range(len(paths)), MAX, need_texts, pool=pool)
        assert pool.started >= 1  # the PDF, DOCX, ODT and EPUB files went to processes
    assert pooled.ok == alone.ok and pooled.parts() == alone.parts() and pooled.texts == alone.texts
    assert pooled.skipped == alone.skipped
    assert len(alone.skipped) == 4 and len(alone.ok) == len(MAKERS)


def test_a_file_past_the_time_limit_is_skipped_with_that_reason_and_the_others_are_read(tmp_path):
    paths = _folder(tmp_path, {"40-hang.pdf": make_pdf(make_doc(seed=40))})
    alone = read_listed(paths, range(len(paths)), MAX, False)
    t0 = time.monotonic()
    with ExtractPool(
        workers=2, time_limit=10.0, job=pool_jobs.slow_on_hang
    ) as pool:  # 2 s: a loaded machine timed out a real file
        pooled = read_listed(paths, range(len(paths)), MAX, False, pool=pool)
    assert time.monotonic() - t0 < 60  # not the hour the job would sleep
    hung = [s for s in pooled.skipped if s.path.endswith("40-hang.pdf")]
    assert [s.reason for s in hung] == ["extraction took longer than 10 s"]
    assert pooled.ok == [i for i in alone.ok if not paths[i].endswith("40-hang.pdf")]
    assert pool.started >= 2  # the stuck worker was killed and replaced


def test_a_worker_that_dies_skips_its_file_and_the_pool_goes_on(tmp_path):
    paths = _folder(tmp_path, {"40-crash.docx": MAKERS["docx"][0](make_doc(seed=40))})
    with ExtractPool(workers=1, job=pool_jobs.dies_on_crash) as pool:
        pooled = read_listed(paths, range(len(paths)), MAX, False, pool=pool)
    reasons = {s.path.rsplit("/", 1)[1]: s.reason for s in pooled.skipped}
    assert reasons["40-crash.docx"] == "the extractor stopped working on this file"
    assert len(pooled.ok) == len(MAKERS)


def test_close_ends_a_stuck_extraction_at_once(tmp_path):
    p = tmp_path / "hang.pdf"
    p.write_bytes(make_pdf(make_doc(seed=1)))
    pool = ExtractPool(workers=1, job=pool_jobs.slow_on_hang)
    fut = pool.submit(p.read_bytes(), str(p), None, True)
    deadline = time.monotonic() + 60
    while not fut.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    t0 = time.monotonic()
    pool.close()
    assert time.monotonic() - t0 < 10
    assert isinstance(fut.exception(timeout=0), ScanCancelled)
    with pytest.raises(RuntimeError):
        pool.submit(b"x", "x.pdf", None, True)


def test_plain_text_starts_no_process(tmp_path):
    paths = []
    for i in range(5):
        (tmp_path / f"{i}.txt").write_text(f"plain words number {i} " * 20)
        paths.append(str(tmp_path / f"{i}.txt"))
    with ExtractPool() as pool:
        prep = read_listed(paths, range(5), MAX, False, pool=pool)
    assert pool.started == 0 and prep.ok == list(range(5))


def test_a_host_where_no_process_can_start_extracts_on_its_own_thread(tmp_path):
    # a program read from standard input: a spawned process cannot run its main module, so no worker starts
    p = tmp_path / "a.docx"
    p.write_bytes(MAKERS["docx"][0](make_doc(seed=3)))
    code = (
        "from lshdesk.core.corpus.pool import ExtractPool\n"
        "from lshdesk.core.scan.frontend import read_listed\n"
        "with ExtractPool(workers=1) as pool:\n"
        f"    prep = read_listed([{str(p)!r}], range(1), 1 << 24, False, pool=pool)\n"
        "print(prep.ok, prep.skipped, pool.broken)\n"
    )
    r = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[0] [] True"
