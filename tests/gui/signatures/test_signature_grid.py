"""The signature grid: highlight roles per cell, band marks, pair figures, copy, CSV, the Signatures tab."""

from __future__ import annotations

import csv
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt
from PySide6.QtGui import QGuiApplication

from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingle_kinds import shingle_strings
from lshdesk.gui import file_actions
from lshdesk.gui.signatures import grid as sg
from lshdesk.gui.signatures import paint as sp
from lshdesk.gui.signatures.grid import SignatureGrid
from lshdesk.gui.signatures.model import Role, SignaturesModel
from lshdesk.gui.signatures.view import SignatureView

FOX = "the quick brown fox jumps over the lazy dog near the river bank"
FOX2 = "the quick brown fox leaps over the lazy dog near the river bank"
STITCH = "a stitch in time saves nine when the old coat starts to tear"
ARTICLE = SignatureParams(ShingleSpec("word", 1), "article", 16, 12345)


def known() -> np.ndarray:
    """Three signatures, k = 16: B differs from A on slots 0, 1, 5; C differs from both on slots 0..7."""
    a = np.arange(1000, 1016, dtype=np.uint64)
    b, c = a.copy(), a.copy()
    b[[0, 1, 5]] = [7, 8, 9]
    c[:8] = np.arange(20, 28)
    return np.stack([a, b, c])


def jaccard(x: str, y: str) -> float:
    s, t = set(x.split()), set(y.split())
    return len(s & t) / len(s | t)


@pytest.fixture
def grid(qtbot) -> SignatureGrid:
    g = SignatureGrid()
    qtbot.addWidget(g)
    g.resize(1280, 800)
    g.show()
    qtbot.waitExposed(g)
    return g


def roles(model: SignaturesModel, role: Role) -> np.ndarray:
    return np.array(
        [[model.index(r, c).data(role) for c in range(model.columnCount())] for r in range(model.rowCount())]
    )


def test_highlight_and_band_roles_on_known_slots(grid) -> None:
    sigs = known()
    grid.set_data(sigs, ["A", "B", "C"], Banding(4, 4))
    m = grid.model
    agree_all = np.array([s >= 8 for s in range(16)])
    assert (roles(m, Role.Agree) == agree_all[None, :]).all()
    shared = np.zeros((3, 16), bool)
    shared[:2, [2, 3, 4, 6, 7]] = True  # A and B hold the same value there, C does not
    shared[:, 8:] = True
    assert (roles(m, Role.Shared) == shared).all()
    assert roles(m, Role.Band)[0].tolist() == [s // 4 for s in range(16)]
    assert roles(m, Role.BandStart)[0].tolist() == [s in (4, 8, 12) for s in range(16)]
    header = [m.headerData(c, Qt.Orientation.Horizontal, Role.Collided) for c in range(16)]
    assert header == [c >= 8 for c in range(16)]  # bands 2 and 3 agree in all three rows: a shared bucket
    assert m.collided_bands().tolist() == [2, 3]
    assert (roles(m, Role.Collided) == np.array([c >= 8 for c in range(16)])[None, :]).all()


def test_comparing_selected_rows_follows_the_grid_selection(grid, qtbot) -> None:
    sigs = known()
    grid.set_data(sigs, ["A", "B", "C"], Banding(4, 4))
    m = grid.model
    sel = QItemSelection(m.index(0, 3), m.index(1, 3))  # cells in rows A and B
    grid.table.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    assert m.compared == (0, 1)
    ab = sigs[0] == sigs[1]
    assert (roles(m, Role.Agree)[:2] == ab[None, :]).all()
    assert not roles(m, Role.Agree)[2].any()  # C is not compared now
    assert m.collided_bands().tolist() == [b for b in range(4) if ab[4 * b : 4 * b + 4].all()] == [2, 3]
    assert "13 of 16" in grid.summary.text()
    grid.table.clearSelection()
    assert m.compared == (0, 1, 2) and "8 of 16" in grid.summary.text()


def test_signed_sentences_highlight_exactly_the_slots_that_agree(grid) -> None:
    sigs = sign_texts([FOX, FOX2], ARTICLE)
    same = sigs[0] == sigs[1]  # the reference: the two rows compared slot by slot
    assert 0 < same.sum() < 16
    grid.set_data(sigs, [FOX, FOX2], Banding(4, 4), {(0, 1): jaccard(FOX, FOX2)})
    m = grid.model
    assert (roles(m, Role.Agree) == same[None, :]).all()
    bands = [b for b in range(4) if same[4 * b : 4 * b + 4].all()]
    assert m.collided_bands().tolist() == bands
    assert [m.headerData(c, Qt.Orientation.Horizontal, Role.Collided) for c in range(16)] == [
        c // 4 in bands for c in range(16)
    ]
    mk = int(same.sum())
    text = grid.panel.toPlainText()
    assert f"{mk} of 16 slots agree" in text
    assert f"estimate {mk / 16:.3f}" in text
    assert f"similarity {jaccard(FOX, FOX2):.3f}" in text
    assert f"bands collided: {', '.join(map(str, bands))} ({len(bands)} of 4)" in text
    f = grid.figures
    assert f.low[0] <= mk / 16 <= f.high[0] and f.high[0] - f.low[0] > 0.2  # k = 16: a wide interval
    stats = pytest.importorskip("scipy.stats")
    ci = stats.binomtest(mk, 16).proportion_ci(method="wilson")
    assert f"95% interval {ci.low:.3f}–{ci.high:.3f}" in text


def test_side_panel_lists_every_pair_of_three(grid) -> None:
    texts = [FOX, FOX2, STITCH]
    sigs = sign_texts(texts, ARTICLE)
    jac = {(i, j): jaccard(texts[i], texts[j]) for i, j in combinations(range(3), 2)}
    grid.set_data(sigs, texts, Banding(4, 4), jac)
    text = grid.panel.toPlainText()
    for (i, j), s in jac.items():
        m = int((sigs[i] == sigs[j]).sum())
        block = text.split(f"{'ABC'[i]} – {'ABC'[j]}")[1].split(" – ")[0]
        assert f"{m} of 16 slots agree" in block and f"similarity {s:.3f}" in block
    assert "no band collided" in text  # the stitch sentence shares no band with the fox sentences


def test_no_banding_means_no_bands(grid) -> None:
    grid.set_data(known()[:2], ["A", "B"])
    m = grid.model
    assert set(roles(m, Role.Band).ravel().tolist()) == {-1}
    assert not roles(m, Role.BandStart).any() and m.collided_bands().size == 0
    assert "band" not in grid.panel.toPlainText().lower().replace("banding", "")


def test_copy_is_tab_separated_one_line_per_document(grid, qtbot) -> None:
    sigs = known()
    names = ["first doc", "second doc", "third doc"]
    grid.set_data(sigs, names, Banding(4, 4))
    grid.copy_to_clipboard()
    lines = QGuiApplication.clipboard().text().splitlines()
    assert [ln.split("\t") for ln in lines] == [[n, *map(str, row)] for n, row in zip(names, sigs.tolist())]
    m = grid.model
    grid.table.selectionModel().select(
        QItemSelection(m.index(1, 2), m.index(2, 5)), QItemSelectionModel.SelectionFlag.ClearAndSelect
    )
    QGuiApplication.clipboard().clear()
    grid.table.setFocus()
    qtbot.keyClick(grid.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QGuiApplication.clipboard().text().splitlines()
    assert [ln.split("\t") for ln in lines] == [[names[r], *map(str, sigs[r, 2:6].tolist())] for r in (1, 2)]


def test_csv_export_direct_and_through_the_button(grid, tmp_path: Path, monkeypatch) -> None:
    sigs = sign_texts([FOX, STITCH], ARTICLE)
    grid.set_data(sigs, ["fox, quoted", "stitch"], Banding(4, 4))
    path = tmp_path / "direct.csv"
    grid.export_csv(str(path))
    rows = list(csv.reader(path.open(newline="", encoding="utf-8")))
    assert rows[0] == ["document", *(f"slot_{c}" for c in range(16))]
    assert rows[1:] == [["fox, quoted", *map(str, sigs[0].tolist())], ["stitch", *map(str, sigs[1].tolist())]]
    chosen = tmp_path / "button.csv"
    monkeypatch.setattr(sg.QFileDialog, "getSaveFileName", lambda *a, **k: (str(chosen), "CSV (*.csv)"))
    grid.export_button.click()
    assert chosen.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    shown: list[str] = []

    class Box:  # stands in for the warning box (a real one would stay open offscreen)
        class Icon:
            Warning = None

        def __init__(self, icon, title, text, parent=None) -> None:
            shown.append(text)

        def open(self) -> None:
            pass

    monkeypatch.setattr(file_actions, "QMessageBox", Box)
    monkeypatch.setattr(sg.QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "no" / "such.csv"), ""))
    grid.export_button.click()
    assert shown and "Cannot write" in shown[0]


def test_model_passes_qtmodeltester(qtmodeltester) -> None:
    model = SignaturesModel()
    model.set_data(known(), ["A", "B", "C"], Banding(3, 5))
    model.set_compared((0, 2))
    qtmodeltester.check(model)


def test_pixels_show_agreement_and_bucket(grid, qtbot) -> None:
    """What the eye sees: a colliding band's strip is green, an agreeing cell yellow, a differing cell plain."""
    sigs = sign_texts([FOX, FOX2], ARTICLE)
    grid.set_data(sigs, ["fox", "fox2"], Banding(4, 4))
    same = sigs[0] == sigs[1]
    hit = [b for b in range(4) if same[4 * b : 4 * b + 4].all()]
    miss = [b for b in range(4) if b not in hit]
    assert hit and miss
    qtbot.wait(10)
    header = grid.table.horizontalHeader()
    strip = header.viewport().grab().toImage()
    strip_colour, some_colour = sp.BUCKET_STRIP.color(), sp.BUCKET_STRIP_SOME.color()
    for b, want in ((hit[0], strip_colour), (miss[0], None)):
        x = header.sectionViewportPosition(4 * b) + 5
        colour = strip.pixelColor(x, 2)
        assert (colour == want) if want is not None else (colour != strip_colour and colour != some_colour)
    cells = grid.table.viewport().grab().toImage()
    lone = (
        int(np.flatnonzero(same & ~np.isin(np.arange(16) // 4, hit))[0])
        if (same & ~np.isin(np.arange(16) // 4, hit)).any()
        else None
    )
    differ = int(np.flatnonzero(~same)[0])
    for col, want in (
        (4 * hit[0], sp.BUCKET.color()),
        (differ, grid.palette().color(grid.palette().ColorRole.Base)),
    ) + (((lone, sp.AGREE.color()),) if lone is not None else ()):
        rect = grid.table.visualRect(grid.model.index(0, col))
        assert cells.pixelColor(rect.left() + 3, rect.top() + 2) == want, col


def test_k_1024_uses_fixed_sizes_and_the_overview_scrolls(grid, qtbot) -> None:
    rng = np.random.default_rng(3)
    sigs = rng.integers(0, 2**32, size=(24, 1024), dtype=np.uint64).astype(np.uint32)
    grid.set_data(sigs, [f"doc {i}" for i in range(24)], Banding(128, 8))
    h = grid.table.horizontalHeader()
    assert h.sectionResizeMode(0) == h.ResizeMode.Fixed and h.length() == 1024 * h.defaultSectionSize()
    assert len({grid.table.rowHeight(r) for r in range(24)}) == 1
    bar = grid.table.horizontalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    qtbot.mouseClick(grid.overview, Qt.MouseButton.LeftButton, pos=QPoint(grid.overview.width() - 2, 5))
    assert bar.value() == bar.maximum()


@pytest.fixture
def sample(tmp_path: Path):
    texts = {
        "a.txt": "the old mill by the river turns slowly in the autumn wind while the miller sleeps " * 3,
        "b.txt": "the old mill by the river turns slowly in the autumn wind while the miller naps " * 3,
        "c.txt": "quarterly budget figures were approved by the council after a long debate on roads",
    }
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    params = ScanParams(signature=SignatureParams(ShingleSpec("word", 2), "fast", 64, 5), threshold=0.5)
    result = run(scan([str(tmp_path)], params))
    return result, [Path(p).name for p in result.docs.paths], texts, params


def test_signature_view_hint_then_grid_with_exact_jaccard(qtbot, sample) -> None:
    result, names, texts, params = sample
    view = SignatureView()
    qtbot.addWidget(view)
    view.set_result(None, [])
    assert view.stack.currentIndex() == 0 and "Ctrl+click" in view.hint.text()
    view.set_result(result, names)
    view.show_docs((0,))
    assert view.stack.currentIndex() == 0 and "One document" in view.hint.text()
    view.show_docs((0, 1, 2))
    assert view.stack.currentIndex() == 1
    assert np.array_equal(view.grid.model.sigs, result.signatures[[0, 1, 2]])
    assert view.grid.model.banding == result.banding
    sets = [shingle_strings(texts[n], params.signature.shingle) for n in names]
    for (i, j), s in view.grid.jaccard.items():
        assert s == pytest.approx(len(sets[i] & sets[j]) / len(sets[i] | sets[j]), abs=1e-12)
    assert len(view.grid.jaccard) == 3
    view.show_docs(())
    assert view.stack.currentIndex() == 0


def test_view_paints_at_window_size(qtbot, sample) -> None:
    """Smoke: both sizes paint without Qt warnings (qt_log_level_fail) and produce non-empty images."""
    result, names, _, _ = sample
    view = SignatureView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.set_result(result, names)
    view.show_docs((0, 1))
    view.show()
    qtbot.waitExposed(view)
    img = view.grab()
    assert not img.isNull() and img.width() == 1280
