"""Every slot on screen: the signature wrapped into lines of bands at 1280 x 800 (k = 128 and 256), the one-line grid
with its overview beyond k = 256, and picking which 64 documents of a large selection to show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gui_helpers import scan_and_wait, set_test_params
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFontMetrics

from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.gui.signatures.grid import SignatureGrid
from lshdesk.gui.signatures.view import SignatureView
from lshdesk.gui.signatures.wrapped import line_slots


@pytest.mark.parametrize("k, size", [(128, (1280, 800)), (256, (1280, 800)), (128, (1024, 640))])
def test_every_slot_of_a_pair_is_on_screen_with_its_values(qtbot, window, corpus_dir, k, size):
    root, _ = corpus_dir
    set_test_params(window)
    window.params_panel.k.setValue(k)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    result = window.state.result
    window.state.select((int(result.pairs.left[0]), int(result.pairs.right[0])))
    window.tabs.setCurrentWidget(window.signature_view)
    grid = window.signature_view.grid
    qtbot.waitUntil(lambda: grid.wrapped_shown() and bool(grid.wrapped.lines), timeout=2000)
    wrapped, viewport = grid.wrapped, grid.wrapped_area.viewport()
    qtbot.wait(50)
    seen = QRect(QPoint(0, 0), viewport.size())
    for row in range(2):
        for slot in range(k):
            cell = wrapped.cell_rect(row, slot)
            assert not cell.isEmpty()
            assert seen.contains(QRect(wrapped.mapTo(viewport, cell.topLeft()), cell.size())), (row, slot)
    assert grid.wrapped_area.verticalScrollBar().maximum() == 0  # nothing to scroll to
    shown = [wrapped.cell_rect(0, s) for s in range(k)]
    assert len({(r.x(), r.y()) for r in shown}) == k  # one cell per slot, none drawn over another
    if k == 128:  # and wide enough for a value's last two digits (at 1024 x 640 they were 14 px: no values)
        assert QFontMetrics(wrapped.value_font()).horizontalAdvance("88") + 4 <= wrapped.cell_w


def test_lines_hold_whole_bands_then_the_slots_in_no_band():
    assert line_slots(128, 5, 125, 22) == [(0, 20), (20, 40), (40, 60), (60, 80), (80, 100), (100, 120)] + [
        (120, 128),  # the three slots in no band follow the last band: there is room
    ]
    assert line_slots(128, 5, 125, 6)[-2:] == [(120, 125), (125, 128)]  # no room: a line of their own
    spans = line_slots(64, 32, 64, 20)  # a band wider than a line is cut into pieces
    assert spans[0] == (0, 20) and spans[-1][1] == 64 and all(b - a <= 20 for a, b in spans)
    covered = [s for a, b in line_slots(256, 7, 252, 30) for s in range(a, b)]
    assert covered == list(range(256))


def test_more_than_256_slots_use_the_one_line_grid_with_its_overview(qtbot):
    grid = SignatureGrid()
    qtbot.addWidget(grid)
    grid.resize(1280, 800)
    grid.show()
    rng = np.random.default_rng(1)
    grid.set_data(rng.integers(0, 2**32, size=(2, 512)).astype(np.uint64), ["a", "b"], Banding(64, 8))
    assert not grid.wrapped_shown() and not grid.wrap.isEnabled()
    qtbot.waitUntil(grid.overview.isVisible, timeout=2000)
    grid.set_data(rng.integers(0, 2**32, size=(2, 128)).astype(np.uint64), ["a", "b"], Banding(16, 8))
    assert grid.wrapped_shown() and grid.wrap.isEnabled()
    grid.wrap.setChecked(False)  # the user may still prefer one line per document
    assert not grid.wrapped_shown()


def test_the_user_picks_which_64_documents_of_a_large_selection(qtbot, tmp_path: Path):
    rng = np.random.default_rng(2)
    vocab = [f"w{i}" for i in range(400)]
    for i in range(70):
        (tmp_path / f"d{i:02d}.txt").write_text(" ".join(rng.choice(vocab, 40)), encoding="utf-8")
    params = ScanParams(signature=SignatureParams(ShingleSpec("word", 1), "fast", 64, 5), threshold=0.5)
    result = run(scan([str(tmp_path)], params))
    names = [Path(p).name for p in result.docs.paths]
    view = SignatureView()
    qtbot.addWidget(view)
    view.set_result(result, names)
    docs = tuple(range(69, -1, -1))  # the selection's own order
    view.show_docs(docs)
    assert view.pick.count() == 2 and not view.picker.isHidden()
    assert view.grid.model.names == [names[d] for d in docs[:64]]
    view.pick.setCurrentIndex(1)
    assert view.grid.model.names == [names[d] for d in docs[64:]]
    assert np.array_equal(view.grid.model.sigs, result.signatures[list(docs[64:])])
    view.show_docs(docs[:10])
    assert view.picker.isHidden() and len(view.grid.model.names) == 10
