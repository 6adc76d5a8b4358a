"""The scan worker: a QThread that drives a core generator, forwards progress, and honours cancel."""

from __future__ import annotations

import os
import threading

import pytest
from gui_helpers import running_threads
from PySide6.QtCore import Qt

from lshdesk.core.errors import ParamError
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.pipeline import Progress, scan
from lshdesk.gui.workers import GeneratorThread


@pytest.fixture
def threads():
    made: list[GeneratorThread] = []
    yield made
    for t in made:
        t.cancel()
        assert t.wait(5000), "a worker thread did not stop"


def _start(qtbot, threads, worker: GeneratorThread, signal):
    threads.append(worker)
    with qtbot.waitSignal(signal, timeout=5000) as blocker:
        worker.start()
    assert worker.wait(5000)
    return blocker.args


def test_progress_then_the_result_tagged_with_the_request_id(qtbot, threads):
    stages = ["listing", "reading", "banding", "grouping", "done"]

    def gen(cancel):
        for i, stage in enumerate(stages):
            yield Progress(stage, i, 5)
        return {"answer": 42}

    worker = GeneratorThread(7, gen)
    seen = []
    worker.progress.connect(lambda rid, p: seen.append((rid, p.stage)))
    args = _start(qtbot, threads, worker, worker.succeeded)
    assert args == [7, {"answer": 42}]
    assert seen == [(7, s) for s in stages]  # every new stage is reported, in order, in the GUI thread


def test_a_flood_of_reports_is_thinned_but_cancel_is_checked_at_each(qtbot, threads):
    import time

    def gen(cancel):
        for i in range(20000):
            yield Progress("reading", i, 20000)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 0.2:  # reports spread over 0.2 s still come through now and then
            yield Progress("reading", 20000, 20000)
        return "ok"

    worker = GeneratorThread(8, gen)
    seen = []
    worker.progress.connect(lambda rid, p: seen.append(p.done))
    assert _start(qtbot, threads, worker, worker.succeeded) == [8, "ok"]
    assert seen[0] == 0 and seen == sorted(seen)
    assert 3 <= len(seen) < 100  # ~25 a second, not 20,000+


def test_a_core_error_fails_with_its_message_only(qtbot, threads):
    def gen(cancel):
        yield Progress("listing", 0, 0)
        raise ParamError("threshold must be in (0, 1], not 2")

    worker = GeneratorThread(1, gen)
    assert _start(qtbot, threads, worker, worker.failed) == [1, "threshold must be in (0, 1], not 2", ""]


def test_an_unexpected_error_fails_with_the_traceback(qtbot, threads):
    def gen(cancel):
        yield Progress("listing", 0, 0)
        return 1 / 0

    worker = GeneratorThread(2, gen)
    rid, message, details = _start(qtbot, threads, worker, worker.failed)
    assert rid == 2 and message.startswith("ZeroDivisionError") and "Traceback" in details and "1 / 0" in details


def test_cancel_stops_an_endless_generator(qtbot, threads):
    started = threading.Event()

    def gen(cancel):
        while True:  # never ends by itself: only the worker's cancel check can stop it
            started.set()
            yield Progress("reading", 0, 1)

    worker = GeneratorThread(3, gen)
    threads.append(worker)
    done = []
    worker.succeeded.connect(lambda *a: done.append(a))
    with qtbot.waitSignal(worker.cancelled, timeout=5000) as blocker:
        worker.start()
        assert started.wait(5)
        worker.cancel()
    assert blocker.args == [3]
    assert worker.wait(5000) and not done


def test_cancelling_a_real_scan_at_its_first_progress(qtbot, threads, tmp_path):
    for i in range(1500):  # enough batches that the scan is still reading when it is cancelled
        (tmp_path / f"{i:04d}.txt").write_text(f"document {i} says words number {i} and {i + 1}\n", encoding="utf-8")
    worker = GeneratorThread(4, lambda cancel: scan([str(tmp_path)], ScanParams(), cancel))
    # Run in the worker thread, at its first report: the cancel arrives while the scan is surely running.
    worker.progress.connect(lambda rid, p: worker.cancel(), Qt.ConnectionType.DirectConnection)
    got = []
    worker.succeeded.connect(lambda *a: got.append(a))
    assert _start(qtbot, threads, worker, worker.cancelled) == [4]
    assert not got and worker.isFinished()


def test_a_real_scan_through_the_worker_matches_the_core(qtbot, threads, corpus_dir):
    from lshdesk.core.scan.pipeline import run

    root, _ = corpus_dir
    params = ScanParams(threshold=0.5)
    worker = GeneratorThread(5, lambda cancel: scan([str(root)], params, cancel))
    stages = []
    worker.progress.connect(lambda rid, p: stages.append(p.stage))
    rid, result = _start(qtbot, threads, worker, worker.succeeded)
    direct = run(scan([str(root)], params))
    assert rid == 5 and stages[-1] == "done" and "reading" in stages
    assert result.pairs.left.tolist() == direct.pairs.left.tolist()
    assert result.pairs.right.tolist() == direct.pairs.right.tolist()


def test_a_newer_scan_replaces_a_running_one(qtbot, window, corpus_dir, monkeypatch):
    import time

    import lshdesk.distributed.engines as engines

    root, _ = corpus_dir
    real = engines.scan
    calls = []

    def slow_first(folders, params, cancel=None, reference=()):
        calls.append(params.threshold)
        gen = real(folders, params, cancel, reference)
        while True:
            if len(calls) == 1:
                time.sleep(0.2)
            try:
                p = next(gen)
            except StopIteration as stop:
                return stop.value
            yield p

    monkeypatch.setattr(engines, "scan", slow_first)
    window.params_panel.threshold.setValue(0.9)
    window.folders.open([str(root)])  # the slow one
    window.params_panel.threshold.setValue(0.5)
    with qtbot.waitSignal(window.state.resultChanged, timeout=10000):
        window.scans.start()  # replaces it
    assert window.state.result.params.threshold == 0.5
    qtbot.waitUntil(lambda: not running_threads(window), timeout=5000)
    assert window.state.result.params.threshold == 0.5  # the replaced scan's late answer was dropped


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="per-thread niceness is Linux's")
def test_a_slot_runs_below_the_gui_threads_priority_unless_the_user_waits_for_its_job(qtbot):
    from lshdesk.gui.workers import WorkerSlot

    def niceness(cancel):
        yield from ()
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen = {}
    for nice in (True, False):
        slot = WorkerSlot(nice=nice)
        with qtbot.waitSignal(slot.idle, timeout=5000):
            slot.start(niceness, lambda n, nice=nice: seen.__setitem__(nice, n))
        assert slot.shutdown()
    assert seen[False] == base and (seen[True] > base or base >= 19)
