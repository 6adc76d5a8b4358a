"""Background threads step back while the GUI asks for room (give_way), and only then."""

from __future__ import annotations

import threading
import time

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
