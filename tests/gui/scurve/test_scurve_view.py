"""The S-curve view, driven offscreen: live re-banding, figures checked independently, auto-tune, picking, export."""

from __future__ import annotations

import functools
import random
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt, QThread
from PySide6.QtGui import QImage

from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingle_kinds import shingle_strings
from lshdesk.gui.scurve.view import ScurveView
from lshdesk.gui.scurve.workers import Answer

K = 64


def write_corpus(root: Path, seed: int = 3) -> None:
    """Ten families of a base text and edited copies (3 %, 10 %, 25 % of words replaced), plus unrelated texts."""
    rng = random.Random(seed)
    vocab = ["".join(rng.choice("bcdfghjklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(1500)]
    for g in range(10):
        base = [rng.choice(vocab) for _ in range(160)]
        (root / f"g{g}-base.txt").write_text(" ".join(base), encoding="utf-8")
        for frac in (0.03, 0.10, 0.25)[: 1 + g % 3]:
            words = [rng.choice(vocab) if rng.random() < frac else w for w in base]
            (root / f"g{g}-edit{int(frac * 100)}.txt").write_text(" ".join(words), encoding="utf-8")
    for i in range(8):
        (root / f"lone{i}.txt").write_text(" ".join(rng.choice(vocab) for _ in range(160)), encoding="utf-8")


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    write_corpus(root)
    result = run(scan([str(root)], ScanParams(SignatureParams(k=K), threshold=0.5)))
    names = export.display_paths(result)
    sets = [shingle_strings(Path(p).read_text(encoding="utf-8"), ShingleSpec("word", 3)) for p in result.docs.paths]
    jac = {(i, j): len(sets[i] & sets[j]) / len(sets[i] | sets[j]) for i, j in combinations(range(len(sets)), 2)}
    return result, names, jac


@pytest.fixture
def view(qtbot, scanned):
    v = ScurveView()
    qtbot.addWidget(v)
    v.resize(1280, 800)
    v.show()
    v.set_result(scanned[0], scanned[1])
    qtbot.waitUntil(lambda: v.ref is not None and v.figures is not None and v.workers.idle(), timeout=20000)
    yield v
    assert v.shutdown(5000)
    assert not [t for t in v.findChildren(QThread) if t.isRunning()]


def set_scheme(qtbot, v: ScurveView, b: int, r: int) -> None:
    v.scheme.b_spin.setValue(1)  # so that neither value is clipped by the other on the way
    v.scheme.r_spin.setValue(r)
    v.scheme.b_spin.setValue(b)
    assert v.scheme.banding() == Banding(b, r)
    qtbot.waitUntil(
        lambda: v.figures is not None and v.figures.banding == Banding(b, r) and v.workers.idle(), timeout=10000
    )


def independent(jac: dict, result, banding: Banding, t: float) -> tuple[set, set]:
    """(candidates by the core's banding, pairs with J >= t from Python sets of shingle strings)."""
    c = candidate_pairs(result.signatures, banding)
    return set(zip(c.left.tolist(), c.right.tolist())), {p for p, j in jac.items() if j >= t}


@pytest.mark.parametrize("b, r", [(8, 4), (32, 2), (64, 1), (2, 20), (1, 64)])
def test_moving_b_and_r_changes_curve_and_counts_like_the_core(qtbot, view, scanned, b, r):
    result = scanned[0]
    set_scheme(qtbot, view, b, r)
    x, y = view.plot.curve.getData()
    assert np.allclose(y, 1 - (1 - x**r) ** b)
    cands, _ = independent(scanned[2], result, Banding(b, r), 0.5)
    assert view.figures.n_candidates == len(cands)
    assert view.figures_panel.values["candidates"].text() == f"{len(cands):,}"
    assert set(zip(view.figures.left.tolist(), view.figures.right.tolist())) == cands
    caught = view.plot.scatter[0].getData()[0]
    assert len(caught) == len(cands)  # every candidate is drawn, at its exact similarity
    assert view.scheme.slots_text.text() == f"{b} x {r} = {b * r} of {K} slots used, {K - b * r} unused"


def test_b_times_r_never_exceeds_k(qtbot, view):
    view.scheme.r_spin.setValue(10)
    view.scheme.b_spin.setValue(10)
    assert view.scheme.banding() == Banding(10, K // 10)
    view.scheme.r_spin.setValue(40)
    assert view.scheme.banding() == Banding(1, 40)


@pytest.mark.parametrize("b, r, t", [(8, 4, 0.5), (4, 8, 0.5), (16, 2, 0.3), (2, 16, 0.3)])
def test_recall_and_precision_shown_equal_an_independent_count(qtbot, view, scanned, b, r, t):
    view.tune_panel.follow.setChecked(False)
    view.scheme.threshold.setValue(t)
    set_scheme(qtbot, view, b, r)
    qtbot.waitUntil(lambda: view.figures.threshold == t and view.workers.idle(), timeout=10000)
    cands, positives = independent(scanned[2], scanned[0], Banding(b, r), t)
    verified = cands & positives
    assert positives and cands
    assert view.figures_panel.values["precision"].text() == f"{len(verified) / len(cands):.1%}"
    assert view.figures_panel.values["recall"].text() == f"{len(verified) / len(positives):.1%} of {len(positives):,}"
    missed = positives - cands
    assert view.figures_panel.values["missed"].text() == f"{len(missed):,}"
    assert view.tables.missed_model.rowCount() == len(missed)


def mouse(qtbot, widget, kind, pos, button, buttons) -> None:
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    kinds = {
        "move": QEvent.Type.MouseMove,
        "press": QEvent.Type.MouseButtonPress,
        "release": QEvent.Type.MouseButtonRelease,
    }
    QApplication.sendEvent(
        widget,
        QMouseEvent(
            kinds[kind], QPointF(pos), QPointF(widget.mapToGlobal(pos)), button, buttons, Qt.KeyboardModifier.NoModifier
        ),
    )
    qtbot.wait(40)  # pyqtgraph drops mouse moves closer than ~20 ms apart


def drag_line(qtbot, view: ScurveView, to: float) -> None:
    """Drag the threshold line with the mouse, from where it is to ``to``, in four moves."""
    vb, port = view.plot.plot_item.vb, view.plot.viewport()
    view.plot.grab()

    def at(x: float):
        return view.plot.mapFromScene(vb.mapViewToScene(QPointF(x, 0.5)))

    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    start = view.plot.line.value()
    mouse(qtbot, port, "move", at(start), none, none)
    mouse(qtbot, port, "press", at(start), left, left)
    for x in np.linspace(start, to, 5)[1:]:
        mouse(qtbot, port, "move", at(float(x)), none, left)
    mouse(qtbot, port, "release", at(to), left, none)


def test_threshold_line_drives_auto_tune(qtbot, view, scanned):
    from datasketch.lsh import _optimal_param

    assert view.tune_panel.follow.isChecked()
    p = scanned[0].params
    assert view.tune_panel.fp_weight.value() == pytest.approx(p.fp_weight / (p.fp_weight + p.fn_weight), abs=0.005)
    for how, t, w in (("drag", 0.7, view.tune_panel.fp_weight.value()), ("set", 0.35, 0.5)):
        view.tune_panel.fp_weight.setValue(w)
        if how == "drag":
            drag_line(qtbot, view, t)  # a real drag: press on the line, move, release
        else:
            view.plot.line.setValue(t)  # what a drag does, without the mouse
            view.plot.line.sigPositionChangeFinished.emit(view.plot.line)
        qtbot.waitUntil(
            lambda: view.tuning is not None and view.tuning.threshold == t and view.workers.idle(), timeout=10000
        )
        assert view.plot.line.value() == pytest.approx(t)
        assert (view.scheme.b_spin.value(), view.scheme.r_spin.value()) == _optimal_param(t, K, w, 1 - w)
        assert view.scheme.threshold.value() == pytest.approx(t)
        assert view.figures.banding == view.tuning.banding and view.figures.threshold == t
        assert "FP area" in view.tune_panel.reason.text()
        x, y = view.plot.curve.getData()
        b, r = _optimal_param(t, K, w, 1 - w)
        assert np.allclose(y, 1 - (1 - x**r) ** b)


def test_recall_goal_from_the_button(qtbot, view, scanned):
    view.tune_panel.goal_box.setCurrentIndex(view.tune_panel.goal_box.findData("recall"))
    view.tune_panel.recall.setValue(0.9)
    view.scheme.threshold.setValue(0.45)
    qtbot.mouseClick(view.tune_panel.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: view.tuning is not None and view.tuning.goal.kind == "recall" and view.workers.idle(), timeout=10000
    )
    cands, positives = independent(scanned[2], scanned[0], view.tuning.banding, 0.45)
    assert len(cands & positives) / len(positives) >= 0.9


def test_clicking_a_point_selects_its_pair(qtbot, view, scanned):
    pi = view.plot.plot_item
    x, y = view.plot.scatter[0].getData()
    i = int(np.argmax(x))  # a caught pair: the rightmost
    view.plot.grab()  # lay the scene out
    pos = view.plot.mapFromScene(pi.vb.mapViewToScene(QPointF(float(x[i]), float(y[i]))))
    with qtbot.waitSignal(view.pairSelected, timeout=3000) as blocker:
        qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    a, b = blocker.args
    assert scanned[2][(a, b)] == pytest.approx(float(x[i]), abs=0.02)
    idx = int(np.flatnonzero(view.plot.pairs.kind == 0)[0])
    with qtbot.waitSignal(view.pairSelected, timeout=1000) as blocker:
        view.plot.select_point(idx)
    assert blocker.args == [int(view.plot.pairs.left[idx]), int(view.plot.pairs.right[idx])]
    names = scanned[1]
    assert names[blocker.args[0]] in view.plot.pair_text(idx) and names[blocker.args[1]] in view.plot.pair_text(idx)


def test_hovering_a_point_names_the_pair(qtbot, view, scanned):
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    x, y = view.plot.scatter[0].getData()
    i = int(np.argmax(x))
    view.plot.grab()
    pos = view.plot.mapFromScene(view.plot.plot_item.vb.mapViewToScene(QPointF(float(x[i]), float(y[i]))))
    port = view.plot.viewport()
    for p in (pos - QPoint(40, 40), pos):  # move onto the point, as a mouse would
        QApplication.sendEvent(
            port,
            QMouseEvent(
                QEvent.Type.MouseMove,
                QPointF(p),
                QPointF(port.mapToGlobal(p)),
                Qt.MouseButton.NoButton,
                Qt.MouseButton.NoButton,
                Qt.KeyboardModifier.NoModifier,
            ),
        )
        qtbot.wait(60)  # pyqtgraph drops mouse moves closer than ~20 ms apart
    qtbot.waitUntil(lambda: view.plot.plot_item.vb.toolTip() != "", timeout=2000)
    tip = view.plot.plot_item.vb.toolTip()
    hits = [
        (a, b)
        for a, b, j in zip(view.figures.left.tolist(), view.figures.right.tolist(), view.figures.jaccard)
        if abs(j - x[i]) < 1e-12
    ]
    assert any(scanned[1][a] in tip and scanned[1][b] in tip for a, b in hits)
    assert f"similarity {x[i]:.3f}" in tip and "candidate" in tip


def test_clicking_a_missed_pair_selects_it(qtbot, view):
    view.tune_panel.follow.setChecked(False)
    view.scheme.threshold.setValue(0.3)
    set_scheme(qtbot, view, 1, 64)  # strict: misses most pairs
    qtbot.waitUntil(lambda: view.figures.threshold == 0.3, timeout=10000)
    f = view.figures
    assert len(f.missed_left) > 0
    table = view.tables.missed_view
    rect = table.visualRect(view.tables.missed_model.index(0, 0))
    with qtbot.waitSignal(view.pairSelected, timeout=3000) as blocker:
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    row = view.tables.missed_model.data_row(0)
    assert blocker.args == [int(f.missed_left[row]), int(f.missed_right[row])]
    assert f.missed_jaccard[row] == f.missed_jaccard.max()  # most similar first


def test_newest_request_wins(qtbot, view):
    for b in (3, 9, 17, 5, 12):
        view.scheme.b_spin.setValue(b)
    qtbot.waitUntil(lambda: view.figures.banding.bands == 12 and view.workers.idle(), timeout=10000)
    shown = view.figures
    late = shown.__class__(**{**shown.__dict__, "banding": Banding(2, 2)})
    slot = view.workers.explore
    answer = Answer(None, late, view.plot.pairs, 0.0)
    slot._answer(slot.request_id - 1, answer)  # what a superseded thread's answer goes through
    assert view.figures is shown  # a late answer is dropped
    slot._answer(slot.request_id, answer)
    assert view.figures is late  # the newest one is shown


def test_sampled_mode_is_said(qtbot, scanned, monkeypatch):
    from lshdesk.gui.scurve import workers as scurve_workers

    monkeypatch.setattr(
        scurve_workers,
        "build_reference",
        functools.partial(scurve_workers.build_reference, max_work=0, sample_size=100),
    )
    v = ScurveView()
    qtbot.addWidget(v)
    v.set_result(scanned[0], scanned[1])
    qtbot.waitUntil(lambda: v.ref is not None and v.figures is not None and v.workers.idle(), timeout=20000)
    try:
        assert v.ref.sampled
        assert "Sampled" in v.source.text() and "100" in v.source.text()
        assert v.figures_panel.values["recall"].text().startswith("≈")
    finally:
        assert v.shutdown()


def test_export_png_and_svg(qtbot, view, tmp_path, monkeypatch):
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), "PNG image (*.png)"))
    view.choose_export()
    img = QImage(str(png))
    scene = view.plot.ci.sceneBoundingRect()
    assert (img.width(), img.height()) == (2 * int(scene.width()), 2 * int(scene.height()))  # twice the screen size
    assert img.pixelColor(img.width() // 2, 2).name() == "#ffffff"  # a white background, not transparent
    view.export_to(str(svg))
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text and "threshold" in text


def test_no_result_clears_and_shutdown_is_immediate(qtbot, scanned):
    v = ScurveView()
    qtbot.addWidget(v)
    v.set_result(scanned[0], scanned[1])
    assert v.shutdown(5000)  # while its first requests may still run
    assert not [t for t in v.findChildren(QThread) if t.isRunning()]
    v.set_result(None, [])
    assert v.figures is None and v.plot.scatter[0].getData()[0] is not None
    assert len(v.plot.scatter[0].getData()[0]) == 0
    assert v.shutdown()


def test_many_points_reach_the_plot_over_a_few_turns_and_a_newer_set_wins(qtbot):
    from lshdesk.gui.plots.scatter_fill import CHUNK
    from lshdesk.gui.plots.scurve_pairs import KIND_CAUGHT, KIND_MISSED, PlotPairs
    from lshdesk.gui.plots.scurve_plot import ScurvePlot

    plot = ScurvePlot()
    qtbot.addWidget(plot)
    rng = np.random.default_rng(7)

    def pairs(n: int, missed: int) -> PlotPairs:
        kind = np.full(n, KIND_CAUGHT, np.int8)
        kind[:missed] = KIND_MISSED
        return PlotPairs(np.arange(n), np.arange(n) + 1, rng.random(n), kind, np.zeros(n, np.int64))

    many = pairs(3 * CHUNK + 11, CHUNK // 2)
    plot.set_pairs(many)
    drawn = lambda kind: len(plot.scatter[kind].getData()[0])  # noqa: E731
    assert drawn(KIND_MISSED) == CHUNK // 2  # the missed pairs come first, all at once
    assert drawn(KIND_CAUGHT) == CHUNK - CHUNK // 2 and plot.filling.pending
    qtbot.waitUntil(lambda: not plot.filling.pending, timeout=5000)
    caught = np.flatnonzero(many.kind == KIND_CAUGHT)
    x = plot.scatter[KIND_CAUGHT].getData()[0]
    assert np.array_equal(x, many.jaccard[caught])  # every point, in order, once
    assert [p.data() for p in plot.scatter[KIND_CAUGHT].points()[-2:]] == caught[-2:].tolist()
    plot.set_pairs(many)
    few = pairs(10, 3)
    plot.set_pairs(few)  # what the older set had left to add never arrives
    qtbot.wait(50)
    assert drawn(KIND_MISSED) == 3 and drawn(KIND_CAUGHT) == 7 and not plot.filling.pending
    plot.set_pairs(many)
    plot.filling.finish()  # an export draws every point
    assert drawn(KIND_CAUGHT) == len(caught) and not plot.filling.pending
