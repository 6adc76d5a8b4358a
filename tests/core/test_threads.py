"""Background threads step back while the GUI asks for room (give_way), and only then."""

from __future__ import annotations

import threading
import time

import pytest

from lshdesk.core import threads


def test_step_back_waits_while_asked_and_not_after(monkeypatch):
    monkeypatch.setattr(threads, "_yield_until", 0.0)
    t0 = time.monotonic()
    threads.step_back()
    assert time.monotonic() - t0 < 0.01  # nobody asked: no wait
    threads.give_way(0.15)
    threads.give_way(0.05)  # a shorter request does not cut the longer one short
    done: list[float] = []
    worker = threading.Thread(target=lambda: (threads.step_back(), done.append(time.monotonic())))
    worker.start()
    worker.join(2)
    assert 0.14 <= done[0] - t0 < 0.5
    t1 = time.monotonic()
    threads.step_back()  # the request has passed
    assert time.monotonic() - t1 < 0.01


def test_reading_threads_step_back_between_files(tmp_path, monkeypatch):
    from lshdesk.core.scan import frontend

    for i in range(5):
        (tmp_path / f"{i}.txt").write_text(f"document number {i} with a few words")
    calls: list[int] = []
    monkeypatch.setattr(frontend, "step_back", lambda: calls.append(1))
    paths = sorted(str(p) for p in tmp_path.iterdir())
    prep = frontend.read_listed(paths, range(len(paths)), 1 << 20, False)
    assert len(prep.ok) == 5 and len(calls) == 1 + 5  # before the batch, then before each file read in Python


def test_workers_run_calls_on_at_most_n_daemon_threads_and_hand_back_values_and_errors():
    pool = threads.Workers(2, "test-workers")
    seen: set[str] = set()

    def work(i: int) -> int:
        seen.add(threading.current_thread().name)
        time.sleep(0.01)
        if i == 3:
            raise ValueError("three")
        return i * i

    tasks = [pool.submit(work, i) for i in range(6)]
    assert [threads.wait_for(t) for t in tasks if t is not tasks[3]] == [0, 1, 4, 16, 25]
    with pytest.raises(ValueError, match="three"):
        tasks[3].result()
    assert seen <= {"test-workers-0", "test-workers-1"} and len(seen) == 2
    assert all(t.daemon for t in pool._threads)  # a stuck call never holds the process at exit
    pool.shutdown(wait=True)
    assert not any(t.is_alive() for t in pool._threads)


def test_a_task_not_done_times_out_and_shutdown_drops_the_calls_not_begun():
    pool = threads.Workers(1, "test-workers")
    gate = threading.Event()
    first = pool.submit(gate.wait, 5)
    later = [pool.submit(lambda: "ran") for _ in range(3)]
    with pytest.raises(TimeoutError):
        first.result(timeout=0.05)
    pool.shutdown(wait=False, cancel_futures=True)
    gate.set()
    assert first.result(timeout=5) is True
    for t in later:
        with pytest.raises(threads.Cancelled):
            t.result(timeout=5)
    assert threads.Task.of(7).done() and threads.Task.of(7).result() == 7
