"""How long the real window takes to sort the Pairs, switch linked / strict groups, open a group in the Signatures
and save the session (issue 31, item 9): a script that prints figures, not a test.

Usage: python tests/benchmarks/results_speed.py [--dir DIR] [--packages 1500] [--words 600] [--runs 5] [--profile]

1. Generates DIR (default: <tmp>/lshdesk-results-<packages>x<words>) when it is not there: ``debian-doc/<pkg>/``
   folders of four files each (NEWS.Debian.txt, changelog.Debian.txt, copyright.txt, README.txt), the copyright
   files of a third of the packages edited copies of a licence, 2 to 9 packages to a licence (groups of look-alike
   names, as /usr/share/doc has), the other files their own words. ``--dir`` takes any folder instead.
2. Scans it (the CLI's pipeline), opens the real main window offscreen at 1280 x 800 as the app does, shows the
   result and lets the window settle; then times, ``--runs`` times each (median, min), from the call until the
   view concerned has painted: sorting the Pairs by each column, switching linked / strict groups, opening the
   largest group of at most 9 documents in the Signatures (as Enter on a group does).
3. Saves the session twice in one run: as it is written now, and with the arrays compressed (the format before
   issue 31) for comparison, with the file sizes and MB/s.
Targets: sorting and switching <= 50 ms, a group <= 150 ms, a 15 MB session <= 2 s. The machine is shared: compare
ratios measured in one run; ``--profile`` prints cProfile's top functions for one run of each step.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

FILES = ("NEWS.Debian.txt", "changelog.Debian.txt", "copyright.txt", "README.txt")
TARGETS_MS = {"sort": 50.0, "switch": 50.0, "group": 150.0}


def generate(folder: Path, packages: int, words: int, seed: int = 31) -> None:
    """``packages`` folders below ``folder/debian-doc``, four files each; a third of the copyrights near-copies."""
    rng = random.Random(seed)
    vocab = sorted({"".join(rng.choices("etaoinshrdlcumwfgypbvk", k=rng.randint(2, 9))) for _ in range(6000)})
    sizes = [2 + i % 8 for i in range(packages // 3)]  # groups of 2 to 9 near-copies of one licence each
    licence_of = [g for g, size in enumerate(sizes) for _ in range(size)][: packages // 3]
    licences = [rng.choices(vocab, k=words) for _ in range(len(set(licence_of)))]
    tmp = folder.with_name(folder.name + ".partial")
    for p in range(packages):
        pkg = tmp / "debian-doc" / f"lib{rng.choice(vocab)}{p}-{rng.choice(('dev', 'common', 'data', 'bin'))}"
        pkg.mkdir(parents=True)
        for name in FILES:
            if name == "copyright.txt" and p < len(licence_of):
                text = list(licences[licence_of[p]])
                for _ in range(max(1, words // 60)):  # a light edit: similarity ~0.85 with its licence
                    text[rng.randrange(len(text))] = rng.choice(vocab)
            else:
                text = rng.choices(vocab, k=words)
            (pkg / name).write_text("\n".join(" ".join(text[i : i + 12]) for i in range(0, len(text), 12)) + "\n")
    tmp.rename(folder)


def settle(app, seconds: float = 1.0) -> None:
    """Run the event loop until nothing happened for a while (the plots' deferred drawing included)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.01)


def quiet(app, window, rest: float = 0.3, timeout: float = 600.0) -> None:
    """Wait until the window's workers are done (the S-curve's exact reference of the result, its figures)."""
    from PySide6.QtCore import QThread

    end = time.perf_counter() + timeout
    while any(t.isRunning() for t in window.findChildren(QThread)) and time.perf_counter() < end:
        settle(app, 0.2)
    settle(app, rest)


def timed(app, window, step: Callable[[], None], painted, runs: int, profile: bool, before=None) -> list[float]:
    """Wall time of ``step`` until ``painted()`` (a widget) has painted, ``runs`` times (ms); ``before`` untimed."""
    times = []
    for i in range(runs):
        if before is not None:
            before()
        quiet(app, window)
        prof = cProfile.Profile() if profile and i == 0 else None
        t0 = time.perf_counter()
        if prof:
            prof.enable()
        step()
        app.processEvents()
        painted().repaint()
        if prof:
            prof.disable()
        times.append(1000 * (time.perf_counter() - t0))
        if prof:
            pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(14)
    return times


def line(label: str, times: list[float], target: float) -> str:
    med = statistics.median(times)
    return f"  {label:<38} first {times[0]:7.1f} ms   median {med:7.1f} ms   target {target:.0f} ms"


def window_steps(result, runs: int, profile: bool) -> None:
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QApplication

    from lshdesk.gui.app import make_window

    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "bench.ini"), QSettings.Format.IniFormat)
    window = make_window(settings)
    window.resize(1280, 800)
    window.show()
    window.state.set_result(result)
    quiet(app, window, rest=2.0)
    view = window.results
    view.tabs.setCurrentWidget(view.pairs)
    view.pairs.selectRow(0)
    print(f"window: {len(result.docs):,} documents, {len(result.pairs):,} pairs, {len(result.groups):,} groups")
    orders = (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder)
    for col in range(view.pairs_model.columnCount()):
        title = view.pairs_model.headerData(col, Qt.Orientation.Horizontal)
        flip = iter(orders * runs)
        times = timed(
            app, window, lambda c=col: view.pairs.sortByColumn(c, next(flip)), view.pairs.viewport, runs, profile
        )
        print(line(f"sort Pairs by {title}", times, TARGETS_MS["sort"]))
    view.tabs.setCurrentWidget(view.groups)
    mode = iter((1, 0) * runs)
    times = timed(
        app, window, lambda: view.group_mode.setCurrentIndex(next(mode)), view.groups.viewport, 2 * runs, profile
    )
    print(line("switch linked / strict groups", times, TARGETS_MS["switch"]))
    nine = [tuple(g.tolist()) for g in result.groups if len(g) == 9][:2]
    if len(nine) == 2:
        which = iter(nine * runs)  # two groups in turn: the same selection twice would change nothing

        def open_group() -> None:
            view.groupActivated.emit(next(which))

        def back() -> None:
            view.tabs.setCurrentWidget(view.groups)  # where Enter is pressed (not timed: settled before the step)

        times = timed(app, window, open_group, lambda: window.signature_view, runs, profile, before=back)
        print(line("open a 9-document group in Signatures", times, TARGETS_MS["group"]))
    window.shutdown()


def session_steps(result, runs: int) -> None:
    import numpy as np

    from lshdesk.core.persistence import session

    path = Path(tempfile.mkdtemp()) / "bench.lshdesk"
    stored = np.savez
    for label, savez, n in (("as saved now", stored, runs), ("arrays compressed (before)", np.savez_compressed, 1)):
        times = []
        np.savez = savez  # type: ignore[assignment]  # the writer before issue 31 compressed every array
        try:
            for _ in range(n):
                t0 = time.perf_counter()
                session.save_session(path, result)
                times.append(time.perf_counter() - t0)
        finally:
            np.savez = stored  # type: ignore[assignment]
        mb, med = path.stat().st_size / 1e6, statistics.median(times)
        print(f"  save session, {label:<27} {mb:6.1f} MB   {med:6.2f} s   {mb / med:6.1f} MB/s   target for 15 MB: 2 s")
        t0 = time.perf_counter()
        session.load_session(path)
        print(f"  open that session (checked)               {time.perf_counter() - t0:6.2f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", type=Path, help="a folder to scan (default: a generated one)")
    ap.add_argument("--packages", type=int, default=1500, help="generated package folders, 4 files each")
    ap.add_argument("--words", type=int, default=600, help="words per generated file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", action="store_true", help="cProfile one run of each step")
    args = ap.parse_args()
    folder = args.dir or Path(tempfile.gettempdir()) / f"lshdesk-results-{args.packages}x{args.words}"
    if not folder.exists():
        generate(folder, args.packages, args.words)
    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    print(f"{folder}: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (figures are wall time)")
    result = run(scan([str(folder)], ScanParams()))
    window_steps(result, args.runs, args.profile)
    session_steps(result, max(1, args.runs // 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
