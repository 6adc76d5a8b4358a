"""How long the first window takes after a fresh install, and at the next launch, measured from the process start.

Usage: ``.venv/bin/python tests/benchmarks/first_window.py [RUNS]`` (default 3; offscreen). Each run is a new
process with empty cache, config and data folders (a first run), then another with the same folders (a warm
launch), that opens the app on the sample corpus; it prints the time to the window on screen and to the sample
scanned. Then, in a third process each run, the window opened on a generated folder of 40,000 files is closed
while it scans them: the time from the close to the process gone (issue 29: <= 1 s).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CHILD = """
import os, sys, time
T0 = float(os.environ["T0"])
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
import lshdesk.gui.app as a
seen = {}
windows = []
real = a.make_window
a.make_window = lambda settings=None: windows.append(real(settings)) or windows[-1]
def poll():
    w = windows[0] if windows else None
    if w is None:
        return
    if "window" not in seen and w.isVisible():
        seen["window"] = time.time() - T0
    if w.state.result is not None and not w.scans.is_scanning() and "window" in seen:
        seen["scanned"] = time.time() - T0
        w.shutdown()
        app.quit()
timer = QTimer()
timer.timeout.connect(poll)
timer.start(5)
a.run_app([])
print(seen["window"], seen["scanned"])
"""


QUIT_CHILD = """
import os, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
import lshdesk.gui.app as a
windows = []
real = a.make_window
a.make_window = lambda settings=None: windows.append(real(settings)) or windows[-1]
def poll():
    w = windows[0] if windows else None
    if w is not None and w.isVisible() and w.scans.is_scanning() and w.progress.bar.value() > 0:
        timer.stop()
        print(w.progress.stage.text(), flush=True)
        print(repr(time.time()), flush=True)
        w.close()  # as the window's close button does
timer = QTimer()
timer.timeout.connect(poll)
timer.start(5)
a.run_app([sys.argv[1]])
"""


def quit_once(home: str, folder: str) -> tuple[float, str]:
    """Seconds from closing the window while it scans ``folder`` to its process gone, and the scan's stage then."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    for var in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[var] = os.path.join(home, var.lower())
    p = subprocess.Popen([sys.executable, "-c", QUIT_CHILD, folder], env=env, stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None
    stage, closed = p.stdout.readline().strip(), float(p.stdout.readline())
    p.wait(timeout=600)
    gone = time.time()
    if p.returncode != 0:
        raise SystemExit(f"the window closed during a scan exited {p.returncode}")
    return gone - closed, stage


def run_once(home: str) -> tuple[float, float]:
    """Seconds from the process start to the window shown and to the sample scanned, with ``home``'s folders."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    for var in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[var] = os.path.join(home, var.lower())
    env["T0"] = repr(time.time())
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    window, scanned = map(float, done.stdout.split()[-2:])
    return window, scanned


def main(runs: int) -> None:
    from gen_corpus import generate

    cold, warm, quits = [], [], []
    with tempfile.TemporaryDirectory(prefix="lshdesk-quit-corpus-") as scratch:
        folder = os.path.join(scratch, "docs")  # (gen_corpus writes its planted pairs beside the folder)
        generate(folder, 40_000, 300, 0.1, 7)
        for i in range(runs):
            with tempfile.TemporaryDirectory(prefix="lshdesk-first-window-") as home:
                cold.append(run_once(home))
                warm.append(run_once(home))
                quits.append(quit_once(home, folder))
            print(
                f"run {i + 1}: first launch: window {cold[-1][0]:.2f} s, sample scanned {cold[-1][1]:.2f} s; "
                f"next launch: window {warm[-1][0]:.2f} s, sample scanned {warm[-1][1]:.2f} s; "
                f"closed while scanning ({quits[-1][1]}): process gone {quits[-1][0]:.2f} s later"
            )
    for name, rows in (("first launch", cold), ("next launch", warm)):
        window, scanned = (statistics.median(r[i] for r in rows) for i in range(2))
        print(
            f"median of {runs}, {name}: window {window:.2f} s, sample scanned {scanned:.2f} s ({scanned - window:+.2f})"
        )
    print(
        f"median of {runs}, closed while scanning 40,000 files: process gone {statistics.median(q[0] for q in quits):.2f} s later"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
