"""Issue 17's corrections, driven offscreen: texts computed from the numbers, one false-positive definition,
highlights measured on pixels, stepping keys, own texts, progress at 100 %, titled exports."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from lshdesk.core.scurve import probability, threshold
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.figures import percent_text
from lshdesk.gui.theme import contrast


def cell_pixel(table, row: int, col: int):
    """The colour drawn just inside a cell's top-left corner (clear of its text)."""
    rect = table.visualItemRect(table.item(row, col))
    image = table.viewport().grab().toImage()
    return image.pixelColor(rect.topLeft() + QPoint(3, 3))


@pytest.fixture(params=["light", "dark"])
def scheme(request):
    """The application's palette for the test, set before the view is made."""
    if request.param == "dark":
        request.getfixturevalue("dark")
    return request.param


def test_highlights_stand_out_at_three_to_one_on_pixels(scheme, view, qtbot):
    page = view.demo
    view.show_page(page)
    page.run()
    shared = page.result.shared_mask()
    on, off = map(tuple, (np.argwhere(shared)[0], np.argwhere(~shared)[0]))
    assert contrast(cell_pixel(page.table, *on), cell_pixel(page.table, *off)) >= 3.0
    banding = view.banding
    view.show_page(banding)
    for scheme, verdict in (("strict", "missed"), ("loose", "false positive")):  # found rows are bold, not filled
        banding.radios[scheme].setChecked(True)
        verdicts = [banding.pairs.item(r, 4).text() for r in range(banding.pairs.rowCount())]
        row, found = verdicts.index(verdict), verdicts.index("found")
        assert contrast(cell_pixel(banding.pairs, row, 0), cell_pixel(banding.pairs, found, 0)) >= 3.0, verdict


def test_lesson1_rounds_half_up_and_shows_the_estimate_beside_j(view, qtbot):
    page = view.demo
    view.show_page(page)
    page.sets = [{0}, set(range(8)), {19}]  # J(S1, S2) = 1/8
    page.run()
    assert page.status.text().endswith(": 0.13")  # the article's toFixed(2); Python's format says 0.12
    m = int(np.count_nonzero(page.result.signatures[0] == page.result.signatures[1]))
    assert f"{m} of {t.DEMO_K} slots agree" in page.estimate_label.text() and "1/8 = <b>0.125</b>" in (
        page.estimate_label.text()
    )
    from lshdesk.gui.learn.lesson_demo import HOW

    assert all(f"h{i}" in HOW for i in facts.order_keeping_functions()) and "fixed" in HOW


def test_lesson1_steps_band_by_band_with_keys(view, qtbot):
    page = view.demo
    view.show_page(page)
    view.activateWindow()
    qtbot.waitActive(view)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    visible = lambda: sum(not page.table.isColumnHidden(c) for c in range(t.DEMO_B))  # noqa: E731
    assert visible() == t.DEMO_B
    qtbot.keyClick(page.run_button, Qt.Key.Key_Home)  # the button does not use Home: the lesson does
    assert visible() == 1 and not page.back_button.isEnabled()
    qtbot.keyClick(page.run_button, Qt.Key.Key_Right)
    qtbot.keyClick(page.run_button, Qt.Key.Key_Right)
    assert visible() == 3
    qtbot.keyClick(page.run_button, Qt.Key.Key_Left)
    assert visible() == 2
    shown = page.buckets_label.text()
    assert all(f"Band B{b}" not in shown for b in range(2, t.DEMO_B))
    page.own.setText("apple pear")
    assert list(page.chips[0])[:3] == ["apple", "pear", "cat"] and len(page.chips[0]) == len(t.UNIVERSE)
    qtbot.mouseClick(page.reset_button, Qt.MouseButton.LeftButton)
    assert page.own.text() == "" and page.table.isHidden() and "cat" in page.chips[0]


def test_lesson2_exact_decimals_own_texts_shingles_and_no_band_legend(view, qtbot):
    page = view.signatures
    view.show_page(page)
    assert page.doc_a.itemText(0) == f"0: {t.SENTENCES[0]}"  # not cut at 80 characters
    assert "band" not in page.grid.legend.text().lower()
    assert "…" in page.grid.model.data(page.grid.model.index(0, 0))  # a cut value is marked as cut
    page.own_a.setPlainText("the cat sat on the mat")
    page.own_b.setPlainText("the cat sat on a hat")
    a, b = {"the", "cat", "sat", "on", "mat"}, {"the", "cat", "sat", "on", "a", "hat"}
    assert page.jaccard == pytest.approx(len(a & b) / len(a | b))
    assert f"|X| = {len(a & b)} and |Y| = {len(a ^ b)}" in page.why.text()
    page.shingles.box.setCurrentText("word:2")
    assert page.jaccard == pytest.approx(3 / 7)  # {the cat, cat sat, sat on} of 7 two-word shingles
    page.shingles.box.setCurrentText("word")
    page.own_b.setPlainText("the zebra lion tiger bear wolf fox")  # J = 1/11
    for seed in range(1, 400):
        page.seed.setValue(seed)
        if page.matches == 1:
            break
    assert page.matches == 1 and "= 1/16 = " in page.figures.text() and "0.0625" in page.figures.text()
    qtbot.mouseClick(page.reset_button, Qt.MouseButton.LeftButton)
    assert page.own_a.toPlainText() == "" and page.seed.value() == t.LESSON_PARAMS.seed and page.jaccard > 0.7


def test_lesson3_names_the_stop_word_under_loose(view, qtbot):
    page = view.banding
    view.show_page(page)
    word = next(iter(facts.shared_minimum_words(t.SENTENCES).values()))
    assert "stop word" not in page.summary.text()
    qtbot.mouseClick(page.radios["loose"], Qt.MouseButton.LeftButton)
    assert f"“{word}”" in page.summary.text() and "stop word" in page.summary.text()
    assert "1 band × 16 rows" not in page.summary.text()
    qtbot.mouseClick(page.radios["strict"], Qt.MouseButton.LeftButton)
    assert "1 band × 16 rows" in page.summary.text() and "1 bands" not in page.grid.summary.text()
    note = page.sentences.text() + page.note.text()
    f = facts.sentence_facts()
    assert "lshdesk's own" in note and f"{f.max_unrelated:.2f} or below" in note


def test_lessons_3_and_4_share_one_false_positive_definition(view, qtbot):
    banding, scurve = view.banding, view.scurve
    for cut in (0.5, 0.15):
        banding.cutoff.setValue(cut)
        scurve.cutoff.setValue(cut)
        scurve.set_scheme(16, 1)
        n_sim = int(banding.outcome.similar.sum())
        assert f"{n_sim} truly similar" in banding.summary.text()
        verb = "is" if n_sim == 1 else "are"
        assert f"{n_sim:,} {verb} similar (J ≥ cut-off t = {cut:.2f})" in scurve.pairs_label.text()
    assert threshold(16, 1) < 0.1 and "at or above the threshold" not in scurve.pairs_label.text()
    assert "P(0.5) &gt; 0.999" in scurve.formula.text() and "= &gt;" not in scurve.formula.text()
    scurve.cutoff.setValue(0.8)
    scurve.k_box.setValue(100)
    scurve.tune()
    b, r = scurve.b_slider.value(), scurve.r_slider.value()
    assert b * r <= 100 and abs(threshold(b, r) - 0.8) < 0.1 and probability(0.3, b, r) < 0.01


def test_experiment_ends_full_labels_small_shares_and_titles_its_export(view, qtbot, tmp_path):
    page = view.sweep
    view.show_page(page)
    page.seeds.setValue(7)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.result is not None, timeout=60000)
    assert page.bar.value() == page.bar.maximum() == 7
    res = page.result
    shares = list(res.recall) + list(res.fpr)
    assert sorted(label.textItem.toPlainText() for label in page.labels) == sorted(percent_text(v) for v in shares)
    path = tmp_path / "sweep.svg"
    page.plot.export(str(path))
    text = path.read_text(encoding="utf-8")
    assert "7 seeds" in text and "Recall and false positives" in text
    assert not page.plot.getPlotItem().titleLabel.isVisible()  # the on-screen plot stays untitled


def test_error_experiment_hides_the_entrys_points_on_my_files(view, qtbot):
    view.set_corpus(lambda: [(f"d{i}.txt", f"w{i} shared words here and there {i}") for i in range(4)])
    page = view.error
    page.files_radio.setChecked(True)
    page.seeds.setValue(2)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.result is not None, timeout=60000)
    assert page.bar.value() == page.bar.maximum()
    assert not page.reference.isVisible()
    assert all(label.text != "the entry's figures (100 seeds)" for _, label in page.plot.plotItem.legend.items)


def test_lesson5_steps_back_to_the_very_state_it_left(view, qtbot):
    page = view.step
    view.show_page(page)
    view.activateWindow()
    qtbot.waitActive(view)
    page.k.setValue(3)
    n = len(page.st.shingles)
    states = [(page.fn, page.seen, page.signature_values())]
    for _ in range(n + 2):  # across the end of hash function 0
        qtbot.keyClick(page.next_button, Qt.Key.Key_Right)
        states.append((page.fn, page.seen, page.signature_values()))
    for expect in reversed(states[:-1]):
        qtbot.keyClick(page.back_button, Qt.Key.Key_Left)
        assert (page.fn, page.seen, page.signature_values()) == expect
    assert not page.back_button.isEnabled()
    qtbot.keyClick(page.next_button, Qt.Key.Key_Right)
    qtbot.keyClick(page.next_button, Qt.Key.Key_Home)
    assert page.seen == 0 and page.fn == 0
    page.text.setText("something else entirely")
    qtbot.mouseClick(page.reset_button, Qt.MouseButton.LeftButton)
    assert page.text.text() == t.SENTENCES[0] and page.k.value() == t.LESSON_PARAMS.k


def test_presentation_mode_from_the_view_menu_zooms_everything(window, qtbot):
    """F11 in the View menu: the Learn tab, full screen, text, lesson list, plot axes and legend all larger."""
    learn = window.learn
    view_menu = next(m.menu() for m in window.menuBar().actions() if m.text() == "&View")
    assert learn.presentation_action in view_menu.actions()
    assert learn.presentation_action.shortcut().toString() == "F11"
    plot = learn.scurve.plot
    axis = plot.getPlotItem().getAxis("bottom")
    before = (
        learn.scurve.intro.font().pointSizeF(),
        axis.style["tickFont"].pointSizeF(),
        learn.list.font().pointSizeF(),
    )
    legend_before = plot.getPlotItem().legend.opts["labelTextSize"]
    learn.presentation_action.trigger()
    assert window.tabs.currentWidget() is learn and window.isFullScreen() and learn.presenting
    after = (
        learn.scurve.intro.font().pointSizeF(),
        axis.style["tickFont"].pointSizeF(),
        learn.list.font().pointSizeF(),
    )
    assert all(a > b for a, b in zip(after, before))
    assert float(plot.getPlotItem().legend.opts["labelTextSize"][:-2]) > float(legend_before[:-2])
    assert learn.scurve.formula.font().pointSizeF() == pytest.approx(after[0])  # styled boxes too
    learn.zoom_in_action.trigger()
    assert learn.scurve.intro.font().pointSizeF() > after[0]
    learn.zoom_out_action.trigger()
    learn.zoom_out_action.trigger()
    assert learn.scurve.intro.font().pointSizeF() < after[0]
    learn.presentation_action.trigger()
    assert not window.isFullScreen() and learn.scurve.intro.font().pointSizeF() == pytest.approx(before[0])


def test_exercises_hide_their_answers_until_asked(view, qtbot):
    for page in (view.sets, view.signatures, view.banding, view.scurve, view.step, view.demo):
        assert len(page.exercises.exercises) == 3
        assert all(a.isHidden() for a in page.exercises.answers)
    box = view.sets.exercises
    view.show_page(view.sets)
    box.replies[0].setText("3/7")
    qtbot.mouseClick(box.buttons[0], Qt.MouseButton.LeftButton)
    assert box.answers[0].isVisible() and "✓" in box.answers[0].text()
    box.replies[1].setText("0.2")
    qtbot.mouseClick(box.buttons[1], Qt.MouseButton.LeftButton)
    assert "✗" in box.answers[1].text() and box.exercises[1].answer.split(" = ")[-1] in box.answers[1].text()
    qtbot.mouseClick(box.buttons[0], Qt.MouseButton.LeftButton)
    assert box.answers[0].isHidden()


def test_lessons_export_their_figures_with_title_and_parameters(view, qtbot, tmp_path):
    from PySide6.QtGui import QImage

    sets = view.demo
    sets.step_home()
    sets.export(str(tmp_path / "demo.svg"))
    svg = (tmp_path / "demo.svg").read_text(encoding="utf-8")
    assert "10 bands × 2 rows, band B0:" in svg and "S3 = {hat, cup, pen, key, box}" in svg and "B0–B0" not in svg
    sets.export(str(tmp_path / "demo.png"))
    image = QImage(str(tmp_path / "demo.png"))
    assert image.height() > 2 * sets.table.height()  # the table at scale 2 plus the title line
    step = view.step
    step.k.setValue(5)
    step.next_function()
    step.export(str(tmp_path / "step.svg"))
    assert "seed 12345, k = 5): hash function h0, 12 of 12 words" in (tmp_path / "step.svg").read_text(encoding="utf-8")
    scurve = view.scurve
    scurve.set_scheme(20, 5)
    scurve.plot.export(str(tmp_path / "s.svg"))
    text = (tmp_path / "s.svg").read_text(encoding="utf-8")
    assert (
        "20 bands × 5 rows, k = 100, cut-off t = 0.50, book's threshold (1/b)^(1/r) = 0.549, steepest at 0.526" in text
    )
