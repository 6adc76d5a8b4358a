"""How long a step of the S-curve's bands slider takes in the real window, and how long the event loop stalls.

Usage: python tests/benchmarks/rebanding_window.py DIR [DIR ...] [--steps 12] [--shingle word:3] [--threshold 0.8]
       [--sequence 20,24,32,12,16,R,R,R,R,R] [--passes 2] [--session FILE] [--trace]

Scans DIR with the core pipeline (as ``lshdesk scan``), shows the result in the real main window at 1280 x 800
(offscreen unless DISPLAY is set and QT_QPA_PLATFORM is not), opens the S-curve tab, waits for the exact
similarities, then presses Right on the bands slider ``--steps`` times, one every ``--pause`` seconds, as a user
does. For each step it prints the time from the key press to the new figures in the panel, to the plot's points
all given (``ScatterFill``) and to the plot's last paint in the step, the longest gap of a 5 ms timer in the step
(the event loop's stall) and the view's own label. Targets (issue 31, item 6): <= 150 ms from the step to the new
figures and no stall over 50 ms. ``--trace`` also prints what ran during each gap over 30 ms (``stall_probe``).
``--sequence`` sets the bands instead: a number is a jump of the slider to it (a click or a drag), ``R`` a Right
key; ``--passes 2`` runs it twice, the first pass cold (every scheme new: what a user's first steps meet), the second
warm (every scheme seen). The view's label says the time it measured from the change to its figures on screen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
sys.path.insert(0, str(Path(__file__).parent))

from gui_stall import _Ticker, machine  # noqa: E402

STEP_MS, STALL_MS = 150.0, 50.0


class _Marks:
    """When the figures reached the panel, when the plot had all its points, and the plot's paints."""

    def __init__(self, view) -> None:
        from PySide6.QtCore import QEvent, QObject

        self.view = view
        self.figures: list[float] = []
        self.paints: list[float] = []
        shown = view.figures_panel.show_figures

        def show(f, *args):
            shown(f, *args)
            if f is not None:
                self.figures.append(time.perf_counter())

        view.figures_panel.show_figures = show
        marks = self

        class Paints(QObject):
            def eventFilter(self, obj, event):  # noqa: N802
                if event.type() == QEvent.Type.Paint:
                    marks.paints.append(time.perf_counter())
                return False

        self.filter = Paints()
        view.plot.viewport().installEventFilter(self.filter)


def _step(app, ticker, view, marks, slider, pause: float, to: int | None = None) -> dict:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    n_fig = len(marks.figures)
    before = slider.value()
    t0 = time.perf_counter()
    points: list[float] = []

    def done() -> bool:
        if len(marks.figures) > n_fig and not points and not view.plot.filling.pending:
            points.append(time.perf_counter())
        return time.perf_counter() - t0 > pause

    if to is None:
        ticker.timer.singleShot(0, lambda: QTest.keyClick(slider, Qt.Key.Key_Right))
    else:
        ticker.timer.singleShot(0, lambda: slider.setValue(to))
    gaps = ticker.run(done)
    fig = marks.figures[n_fig] if len(marks.figures) > n_fig else float("nan")
    pts = points[0] if points else float("nan")
    paint = max((p for p in marks.paints if t0 <= p), default=float("nan"))  # the last: every point shown
    return {
        "scheme": f"{before} -> {slider.value()}",
        "figures": fig - t0,
        "points": pts - t0,
        "painted": paint - t0,
        "stall": max((g for g, a, b in gaps if a >= t0 - 0.005), default=0.0),
        "gaps": gaps,
        "label": view.figures_panel.note.text(),
    }


def _steps(app, ticker, view, marks, moves: list[int | None], pause: float, probe) -> None:
    """Each move (None: a Right key, else a jump of the slider there), ``pause`` seconds apart; prints each step and
    the medians and worsts."""
    slider = view.scheme.b_slider
    slider.setFocus()
    rows = []
    for to in moves:
        s = _step(app, ticker, view, marks, slider, pause, to)
        rows.append(s)
        print(
            f"  b {s['scheme']:>9}: figures {1000 * s['figures']:6.0f} ms, points {1000 * s['points']:6.0f} ms, "
            f"painted {1000 * s['painted']:6.0f} ms; longest stall {1000 * s['stall']:5.0f} ms; label: {s['label']}"
        )
        if probe is not None:
            probe.report(s["gaps"])
    med = lambda key: 1000 * statistics.median(r[key] for r in rows)  # noqa: E731
    worst = lambda key: 1000 * max(r[key] for r in rows)  # noqa: E731
    print(
        f"median (worst) of {len(rows)} steps: step to figures {med('figures'):.0f} ({worst('figures'):.0f}) ms, "
        f"to painted points {med('painted'):.0f} ({worst('painted'):.0f}) ms (target <= {STEP_MS:.0f}); "
        f"longest stall {med('stall'):.0f} ({worst('stall'):.0f}) ms (target <= {STALL_MS:.0f})"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, nargs="+")
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--pause", type=float, default=0.8, help="seconds between steps (default 0.8)")
    ap.add_argument("--shingle", default="word:3")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--trace", action="store_true", help="print what ran during each gap over 30 ms")
    ap.add_argument("--sequence", help="bands to set, comma-separated: a number jumps there, R presses Right")
    ap.add_argument("--passes", type=int, default=1, help="times the steps are run (the first cold, then warm)")
    ap.add_argument("--all-files", action="store_true", help="read every file, whatever its name (not only text types)")
    ap.add_argument("--max-points", type=int, help="pairs the plot draws at most (default: the view's)")
    ap.add_argument("--session", type=Path, help="load the scan from this session file, or save it there first")
    args = ap.parse_args()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from lshdesk.core.params import CorpusOptions, ScanParams, ShingleSpec, SignatureParams
    from lshdesk.core.persistence.session import load_session, save_session
    from lshdesk.core.scan.pipeline import run, scan
    from lshdesk.gui.app import make_window

    app = QApplication.instance() or QApplication([])
    corpus = CorpusOptions(all_files=args.all_files)
    params = ScanParams(SignatureParams(ShingleSpec.parse(args.shingle)), threshold=args.threshold, corpus=corpus)
    t = time.perf_counter()
    if args.session is not None and args.session.exists():
        result = load_session(args.session)[0]
    else:
        result = run(scan([str(f) for f in args.folder], params))
        if args.session is not None:
            save_session(args.session, result)
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'loaded' if args.session is not None else 'scanned'} {len(result.docs):,} documents in {time.perf_counter() - t:.1f} s: {len(result.pairs):,} pairs, "
        f"{len(result.candidates.left):,} candidates at {result.banding} ({args.shingle} at {args.threshold})"
    )
    settings = QSettings(os.path.join(tempfile.mkdtemp(prefix="lshdesk-reband-"), "s.ini"), QSettings.Format.IniFormat)
    window = make_window(settings)
    window.showNormal()
    window.resize(1280, 800)
    window.state.set_result(result)
    view = window.scurve_view
    if args.max_points:
        view.workers.max_points = args.max_points
    window.tabs.setCurrentWidget(view)
    marks = _Marks(view)
    ticker = _Ticker()
    t = time.perf_counter()
    ticker.run(lambda: view.ref is not None and view.workers.idle() and not view.plot.filling.pending, 300)
    ref = view.ref
    print(
        f"exact similarities: {ref.mode}, {len(ref.codes):,} pairs listed, ready {time.perf_counter() - t:.1f} s; "
        f"at most {getattr(view.workers, 'max_points', 20_000):,} pairs drawn"  # 20,000 before it was a setting
    )
    probe = None
    if args.trace:
        from stall_probe import Probe

        probe = Probe()
    moves = [None if m.strip().upper() == "R" else int(m) for m in args.sequence.split(",")] if args.sequence else None
    start = view.state.banding
    for n in range(args.passes):
        if n:  # back to the first pass's scheme (untimed): the same steps visit the same schemes
            view.state.update(banding=start)
            ticker.run(lambda: view.workers.idle() and not view.plot.filling.pending, 60)
            ticker.run(lambda t=time.perf_counter(): time.perf_counter() - t > args.pause)
        print(f"pass {n + 1} of {args.passes}" + (" (every scheme seen before)" if n else ""))
        _steps(app, ticker, view, marks, moves or [None] * args.steps, args.pause, probe)
    window.shutdown()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
