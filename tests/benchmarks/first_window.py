"""How long the first window takes after a fresh install: the kernel cache empty, measured from the process start.

Usage: ``.venv/bin/python tests/benchmarks/first_window.py [RUNS]`` (default 3; offscreen). Each run is a new
process with empty cache, config and data folders (so the kernels compile, as on a first run) that opens the app
on the sample corpus; it prints the time to the window on screen, to the kernels ready, and to the sample scanned.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

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
    if "kernels" not in seen and w.learn.pages:
        seen["kernels"] = time.time() - T0
    if w.state.result is not None and not w.is_scanning() and "kernels" in seen:
        seen["scanned"] = time.time() - T0
        w.shutdown()
        app.quit()
timer = QTimer()
timer.timeout.connect(poll)
timer.start(5)
a.run_app([])
print(seen["window"], seen["kernels"], seen["scanned"])
"""


def run_once() -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory(prefix="lshdesk-first-window-") as home:
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"), "NUMBA_CACHE_DIR": ""}
        for var in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
            env[var] = os.path.join(home, var.lower())
        env["T0"] = repr(time.time())
        done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        window, kernels, scanned = map(float, done.stdout.split()[-3:])
        return window, kernels, scanned


def main(runs: int) -> None:
    results = []
    for i in range(runs):
        results.append(run_once())
        print(
            f"run {i + 1}: window {results[-1][0]:.2f} s, kernels {results[-1][1]:.1f} s, sample scanned {results[-1][2]:.1f} s"
        )
    window, kernels, scanned = (statistics.median(r[i] for r in results) for i in range(3))
    print(
        f"median of {runs}: first window {window:.2f} s, kernels ready {kernels:.1f} s, sample scanned {scanned:.1f} s"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
