"""What ran during each long event-loop stall: the GUI thread's events and Python stacks, and the GIL holders.

Used by ``gui_stall.py --trace``. Starts a sampler thread that wakes every millisecond: it records the GUI thread's
Python stack, and when it wakes late (it waited for the GIL, or for a core) the stacks of every other thread,
the one that held the GIL being the one just past a long call. ``report`` prints, for each gap between ticks over
a threshold, the stacks seen most often inside it (and, with STALL_EVENTS=1 set, the events that arrived in it,
from an application event filter: the time to the next event is about each one's cost). A diagnostic, not a
measure: the sampler itself competes for the GIL, and runs of three scans with it crashed twice in the event loop
(a segmentation fault not seen without it), so trace two scans (``--runs 2``) and measure without ``--trace``.
"""

from __future__ import annotations

import collections
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _stack(frame, depth: int = 6) -> tuple[str, ...]:
    """The innermost ``depth`` frames as 'file:line func', innermost first (lshdesk files shortened)."""
    out = []
    while frame is not None and len(out) < depth:
        code = frame.f_code
        path = code.co_filename
        path = os.path.relpath(path, HERE) if path.startswith(HERE) else os.path.basename(path)
        out.append(f"{path}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return tuple(out)


class Probe:
    """Event dispatch times on the GUI thread and stack samples of every thread, kept until ``report``."""

    def __init__(self, late_ms: float = 8.0, event_ms: float = 8.0) -> None:
        from PySide6.QtCore import QObject
        from PySide6.QtWidgets import QApplication

        probe = self
        self.main = threading.get_ident()
        self.late, self.event_min = late_ms / 1000, event_ms / 1000
        self.samples: list[tuple[float, tuple[str, ...]]] = []  # GUI thread stacks
        self.lates: list[tuple[float, float, dict[str, tuple[str, ...]]]] = []  # (woke, late by, other threads)

        class Recorder(QObject):
            def eventFilter(self, receiver, event):  # noqa: N802
                if threading.get_ident() == probe.main:
                    probe.seen.append((time.perf_counter(), event.type(), type(receiver).__name__))
                return False

        self.app = QApplication.instance() or QApplication([])
        self.seen: list[tuple[float, object, str]] = []  # every event's arrival on the GUI thread
        self.recorder = Recorder()
        if os.environ.get("STALL_EVENTS"):  # PySide wraps every receiver for the filter: it crashed 1 run in 3
            self.app.installEventFilter(self.recorder)
        self._running = True
        self._thread = threading.Thread(target=self._sample, name="stall-probe", daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        names = {}
        while self._running:
            t = time.perf_counter()
            time.sleep(0.001)
            now = time.perf_counter()
            frames = sys._current_frames()
            main = frames.get(self.main)
            if main is not None:
                self.samples.append((now, _stack(main)))
            if now - t - 0.001 > self.late:
                names = {th.ident: th.name for th in threading.enumerate()}
                others = {
                    names.get(ident, str(ident)): _stack(f, 4)
                    for ident, f in frames.items()
                    if ident not in (self.main, threading.get_ident())
                }
                self.lates.append((now, now - t - 0.001, others))
            del frames, main  # hold no frame of a running thread while asleep

    def stop(self) -> None:
        self._running = False
        self._thread.join()

    def report(self, gaps: list[tuple[float, float, float]], over_ms: float = 30.0, top: int = 4) -> None:
        """For each gap (seconds, start, end) over ``over_ms``: its dispatches, GUI stacks and late wake-ups."""
        long = sorted((g for g in gaps if g[0] * 1000 >= over_ms), reverse=True)
        print(f"  trace: {len(long)} gaps over {over_ms:.0f} ms")
        for g, a, b in long[:12]:
            print(f"  -- gap {1000 * g:.0f} ms")
            inside = [e for e in self.seen if a - 0.001 <= e[0] <= b]
            for (t0, kind, who), nxt in zip(inside, inside[1:] + [(b, None, "")]):
                if nxt[0] - t0 >= self.event_min:
                    print(f"     event {1000 * (nxt[0] - t0):5.1f} ms to the next: {kind.name} -> {who}")
            stacks = collections.Counter(s for t, s in self.samples if a <= t <= b)
            for s, n in stacks.most_common(top):
                print(f"     GUI x{n}: " + " < ".join(s[:4]))
            for t, late, others in self.lates:
                if a <= t <= b + 0.002 and late * 1000 >= 10:
                    print(f"     sampler late {1000 * late:.0f} ms; other threads:")
                    for name, s in others.items():
                        if s and "threading.py" not in s[0] and "queue.py" not in s[0]:
                            print(f"       {name}: " + " < ".join(s[:3]))
        self.seen.clear()
        self.samples.clear()
        self.lates.clear()
