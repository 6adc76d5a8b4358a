"""The Parameters panel: every control explains itself, edits give valid parameters, mistakes say how to fix them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.gui.widgets.params_panel import ParamsPanel


@pytest.fixture
def panel(qtbot):
    p = ParamsPanel(ScanParams())
    qtbot.addWidget(p)
    p.show()
    return p


def test_every_control_has_a_tooltip(panel):
    for w in (
        panel.shingle,
        panel.k,
        panel.seed,
        panel.family,
        panel.threshold,
        panel.auto,
        panel.bands,
        panel.rows,
        panel.scan_button,
    ):
        assert len(w.toolTip()) > 20, w


def test_edits_give_the_parameters_shown(qtbot, panel):
    with qtbot.waitSignal(panel.paramsEdited) as blocker:
        panel.shingle.setCurrentText("char:5")
    assert blocker.args[0].signature.shingle == ShingleSpec("char", 5)
    panel.k.setValue(64)
    panel.seed.setValue(9)
    panel.family.setCurrentText("article")
    panel.threshold.setValue(0.55)
    p = panel.params()
    assert p.signature == SignatureParams(ShingleSpec("char", 5), "article", 64, 9)
    assert p.threshold == 0.55 and p.banding is None  # auto


def test_auto_banding_follows_the_threshold_and_manual_banding_is_kept(qtbot, panel):
    from lshdesk.core.scurve import optimal_banding

    panel.threshold.setValue(0.5)
    p = panel.params()
    b = optimal_banding(0.5, 128, p.fp_weight, p.fn_weight)
    assert (panel.bands.value(), panel.rows.value()) == (b.bands, b.rows)
    assert not panel.bands.isEnabled()
    qtbot.mouseClick(panel.auto, Qt.MouseButton.LeftButton, pos=panel.auto.rect().center())
    assert not panel.auto.isChecked() and panel.bands.isEnabled() and panel.rows.isEnabled()
    panel.bands.setValue(20)
    panel.rows.setValue(6)
    assert panel.params().banding == Banding(20, 6)
    assert "8 of the 128 slots are unused" in panel.scheme_note.text()
    panel.rows.setValue(7)  # 20 x 7 = 140 > k = 128
    assert not panel.scan_button.isEnabled() and "k = 128" in panel.error.text()


def test_set_params_shows_them_without_announcing_an_edit(qtbot, panel):
    p = ScanParams(SignatureParams(ShingleSpec("word", 5), "datasketch", 256, 3), 0.7, Banding(16, 8))
    with qtbot.assertNotEmitted(panel.paramsEdited):
        panel.set_params(p)
    assert panel.params() == p


def test_formats_and_skip_patterns_reach_the_scan(qtbot, window, tmp_path):
    from gui_helpers import scan_and_wait

    tmp_path = tmp_path / "docs"
    tmp_path.mkdir()
    text = "words that a plain file and a web page share, enough of them to make a pair " * 4
    (tmp_path / "a.txt").write_text(text)
    (tmp_path / "b.html").write_text(f"<html><body><p>{text}</p></body></html>")
    (tmp_path / "c.log").write_text(text)
    panel = window.params_panel
    panel.threshold.setValue(0.5)
    panel.files.format_actions["html"].setChecked(False)
    panel.files.exclude.setText("*.log")
    panel.files.exclude.editingFinished.emit()
    assert panel.params().corpus.formats == frozenset(panel.files.format_actions) - {"html"}
    assert "html" not in panel.files.button.text()
    window.folders.open([str(tmp_path)], scan_now=False)
    scan_and_wait(qtbot, window)
    r = window.state.result
    assert r.docs.rel == ["a.txt"]
    reasons = {s.path.rsplit("/", 1)[-1]: s.reason for s in r.skipped}
    assert reasons == {"b.html": "format not selected: html", "c.log": "excluded by a pattern"}
    for action in panel.files.format_actions.values():
        action.setChecked(False)
    assert "at least one format" in panel.error.text() and not panel.scan_button.isEnabled()


def test_measure_choice_gives_containment_and_leaves_the_scheme_to_the_sizes(qtbot, panel):
    assert len(panel.measure.toolTip()) > 20
    panel.auto.setChecked(False)
    panel.bands.setValue(16)
    with qtbot.waitSignal(panel.paramsEdited) as blocker:
        panel.measure.setCurrentIndex(panel.measure.findData("containment"))
    p = blocker.args[0]
    assert p.measure == "containment" and p.banding is None  # a manual scheme is not used for containment
    assert not panel.bands.isEnabled() and not panel.rows.isEnabled() and not panel.auto.isEnabled()
    assert "size" in panel.scheme_note.text()
    panel.measure.setCurrentIndex(panel.measure.findData("jaccard"))
    assert panel.params().banding is not None and panel.bands.isEnabled()  # the manual scheme is back
    panel.set_params(ScanParams(threshold=0.6, measure="containment"))
    assert panel.measure.currentData() == "containment" and panel.params().measure == "containment"
