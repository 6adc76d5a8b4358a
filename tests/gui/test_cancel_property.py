"""Cancelling the real scan worker at random points (fixed seed): the app stays usable, the previous results
remain, no thread is left running, and the next scan gives the same results as an uncancelled one."""

from __future__ import annotations

import random

import pytest
from gui_helpers import running_threads, scan_and_wait, set_test_params, table

# the progress reports after which to cancel: the worker forwards about 25 a second, and a scan of the folder
# below sends about 6, so these fall in the listing, the reading and the last stages
POINTS = [1, 2, 3, 4, 5, 6]


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    """Enough small files for a scan to report progress many times (batches of at most 512 files)."""
    root = tmp_path_factory.mktemp("many")
    rng = random.Random(9)
    words = [f"w{i}" for i in range(2000)]
    for i in range(6000):
        text = " ".join(rng.choice(words) for _ in range(40))
        (root / f"{i:05d}.txt").write_text(text + ("\n" + text if i % 50 == 0 else ""))
    return root


@pytest.mark.parametrize("after", POINTS)
def test_cancel_after_some_progress(qtbot, window, corpus_dir, big_folder, after):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    before, rows = window.state.result, table(window.results.pairs_model)

    seen = []
    window.folders.open([str(big_folder)], scan_now=False)
    window.scans.start()
    worker = window.scans.slot.current
    worker.progress.connect(lambda rid, p: seen.append(p) or (len(seen) == after and window.scans.cancel()))
    qtbot.waitUntil(lambda: not window.scans.is_scanning(), timeout=30000)
    qtbot.waitUntil(lambda: not running_threads(window), timeout=5000)
    if window.state.result is before:  # cancelled in time: nothing of it is kept
        assert "cancelled" in window.progress.stage.text()
        assert table(window.results.pairs_model) == rows
    else:  # the scan finished before the cancel point: then it is a complete result
        assert len(seen) < after and len(window.state.result.docs) == 6000

    window.folders.open([str(root)], scan_now=False)  # still usable: the same scan gives the same pairs
    scan_and_wait(qtbot, window)
    assert table(window.results.pairs_model) == rows
