"""The textbook lessons in the Learn view: the signature matrix stepped row by row with the keys, a cell clicked,
the scale page's figures and its expected candidates on the sentences and on the user's files, the b-bit page's
table against a direct computation."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from lshdesk.core.teaching import mmds


def _cells(table, row):
    return [table.item(row, c).text() for c in range(table.columnCount())]


def test_the_matrix_lesson_steps_row_by_row_to_the_books_signatures(qtbot, view):
    page = view.matrix
    view.show_page(page)
    assert _cells(page.sig, 0)[1:] == ["∞"] * 4 and not page.back_button.isEnabled()
    page.setFocus()
    for _ in range(3):
        qtbot.keyClick(page, Qt.Key.Key_Right)
    assert _cells(page.sig, 0)[1:] == ["1", "3", "2", "1"]  # after rows a, b, c
    assert "Row c" in page.step_text.text() and "SIG(h1, S2) = 3" in page.step_text.text()
    for _ in range(5):
        qtbot.keyClick(page, Qt.Key.Key_Right)
    assert [_cells(page.sig, i)[1:] for i in range(2)] == [["1", "3", "0", "1"], ["0", "2", "0", "0"]]
    assert not page.forward_button.isEnabled() and "Fig. 3.5" in page.step_text.text()
    est = {_cells(page.estimates, r)[0]: _cells(page.estimates, r)[2:] for r in range(page.estimates.rowCount())}
    assert est["S1, S4"] == ["1.00", "0.67", "13 of 20 = 0.65"]
    qtbot.keyClick(page, Qt.Key.Key_Home)
    assert _cells(page.sig, 1)[1:] == ["∞"] * 4


def test_a_clicked_cell_changes_the_set_and_the_signatures_follow(qtbot, view):
    page = view.matrix
    page.chars.cellClicked.emit(4, 1)  # e joins S1
    page.step_forward()
    for _ in range(5):
        page.step_forward()
    changed = [list(r) for r in mmds.MATRIX]
    changed[4][0] = 1
    want = mmds.signature_steps(changed)
    assert [_cells(page.sig, i)[1] for i in range(2)] == [str(v) for v in want[-1].sig[:, 0]]
    page.reset()
    assert page.matrix == [list(r) for r in mmds.MATRIX]


def test_the_scale_page_gives_the_cost_and_the_expected_candidates(qtbot, view):
    page = view.scale
    view.show_page(page)
    assert "4,999,950,000 pairs" in page.costs.text() and "40.0 MB" in page.costs.text()
    assert "expected <b>" in page.expect.text() and "the 8 sample sentences" in page.expect.text()
    page.bands.setValue(16)
    page.rows.setValue(2)
    assert "is more than the lessons' k = 16" in page.expect.text()
    docs = [(f"d{i}.txt", f"shared words here and there number {i % 3}") for i in range(6)]
    view.set_corpus(lambda: docs)
    page.rows.setValue(1)
    page.use_files.setChecked(True)
    qtbot.waitUntil(lambda: "your 6 files" in page.expect.text(), timeout=10000)
    assert "(15 pairs" in page.expect.text()


def test_choosing_k_and_the_scheme_with_its_two_areas(qtbot, view):
    import math

    from lshdesk.core.scurve import false_negative_area, false_positive_area, optimal_banding
    from lshdesk.gui.learn.lesson_choosing import k_for

    page = view.choosing
    view.show_page(page)
    assert "<b>k = 100</b>" in page.k_text.text()
    for j, e in ((0.5, 0.05), (0.3, 0.02), (0.9, 0.1)):  # the standard error at that k is within the target
        k = k_for(j, e)
        assert math.sqrt(j * (1 - j) / k) <= e < math.sqrt(j * (1 - j) / max(k - 1, 1)) + 1e-12
    page.cutoff.setValue(0.6)
    page.k.setValue(64)
    best = optimal_banding(0.6, 64)
    assert page.best == best and f"<b>{best.bands} × {best.rows}</b>" in page.scheme_text.text()
    areas = (false_positive_area(0.6, best.bands, best.rows), false_negative_area(0.6, best.bands, best.rows))
    assert all(f"{float(a):.4f}" in page.scheme_text.text() for a in areas)
    fills = [it for it in page.plot.getPlotItem().items if type(it).__name__ == "FillBetweenItem"]
    assert len(fills) == 2


def test_containment_shows_the_jaccard_a_contained_pair_has(qtbot, view):
    from lshdesk.core.teaching import lessons as t
    from lshdesk.gui.learn.lesson_containment import sentence_example

    page = view.containment
    view.show_page(page)
    page.small.setValue(100)
    page.large.setValue(1000)
    page.cutoff.setValue(0.8)
    # by counting: A of 100 inside B of 1,000 at containment 0.8 shares 80; the union is 100 + 1,000 - 80
    assert page.needed == 80 / (100 + 1000 - 80) and "misses it" in page.figures.text()
    page.small.setValue(1000)
    assert page.needed == 800 / (2000 - 800) and "misses it" in page.figures.text()  # even equal sizes: J = 2/3
    page.cutoff.setValue(1.0)
    assert page.needed == 1.0 and "finds it" in page.figures.text()
    c, j, na, nb = sentence_example()
    words = set(t.SENTENCES[0].lower().replace(".", "").replace(",", "").split())
    assert c == 1.0 and na == len(words) and j == na / nb


def test_the_bbit_page_table_is_a_direct_computation(qtbot, view):
    """The table's error figures against a direct computation here: the fast family's signatures, the lowest b bits
    of fmix32 of each slot, (share − 2^−b) / (1 − 2^−b), |Ĵ − J| averaged over the seeds and the pairs."""
    from lshdesk.core.compare import all_pairs
    from lshdesk.core.hashing import fmix32
    from lshdesk.core.minhash import sign_texts
    from lshdesk.core.params import SignatureParams
    from lshdesk.core.shingle_kinds import hash_shingles
    from lshdesk.core.teaching import bbit
    from lshdesk.core.teaching import lessons as t

    page = view.bbit
    view.show_page(page)
    page.k.setValue(4)
    page.seeds.setValue(12)
    texts = list(t.SENTENCES)
    left, right = all_pairs(len(texts))
    j = t.jaccard_matrix(texts)[left, right]
    for row, b in enumerate((32, 1, 2, 4, 8)):
        slots = 4 * 32 // b
        errors = []
        for seed in range(12):
            sig = sign_texts(texts, SignatureParams(t.WORDS, "fast", slots, seed))
            if b < 32:
                sig = fmix32(sig) % (1 << b)
            c = 0.0 if b == 32 else 2.0**-b
            est = ((sig[left] == sig[right]).mean(axis=1) - c) / (1 - c)
            errors.append(np.abs(est - j))
        err = np.mean(errors, axis=0)
        cells = _cells(page.table, row)
        assert cells[1] == f"{slots:,}" and cells[2] == "128"
        assert cells[3:] == [f"{err.mean():.4f}", f"{err[j >= 0.5].mean():.4f}", f"{err[j < 0.5].mean():.4f}"]
    batch = hash_shingles(texts, t.WORDS)
    oph = [bbit.one_permutation(batch, 4, seed) for seed in range(12)]  # checked against a plain one in core
    err = np.mean([np.abs((sig[left] == sig[right]).mean(axis=1) - j) for sig in oph], axis=0)
    assert _cells(page.table, 5)[1:] == [
        "4",
        "128",
        f"{err.mean():.4f}",
        f"{err[j >= 0.5].mean():.4f}",
        f"{err[j < 0.5].mean():.4f}",
    ]
    assert len(page.plot.getPlotItem().listDataItems()) == 6
    assert "12 seeds" in page.what.text() and "the 8 sample sentences" in page.what.text()


def test_the_bbit_page_on_the_users_files_and_its_exercises(qtbot, view):
    from lshdesk.gui.learn.lesson_bbit import bbit_exercises

    page = view.bbit
    docs = [(f"d{i}.txt", f"shared words here and there number {i % 3} and {i}") for i in range(6)]
    view.set_corpus(lambda: docs)
    page.seeds.setValue(20)
    page.use_files.setChecked(True)
    qtbot.waitUntil(lambda: "your 6 files" in page.what.text(), timeout=10000)
    assert "(15 pairs" in page.what.text() and page.result.jaccard.shape == (15,)
    p, j_hat, ratio = (ex.value for ex in bbit_exercises())
    assert p == pytest.approx(0.8) and j_hat == pytest.approx(0.6)
    assert ratio == pytest.approx(np.sqrt(0.09 / 16) / (np.sqrt(0.95 * 0.05 / 512) / 0.5))


def test_every_textbook_page_steps_with_the_arrow_keys(view, qtbot):
    from lshdesk.gui.learn.contents import TEXTBOOK

    view.activateWindow()
    qtbot.waitActive(view)
    for _, name, _ in TEXTBOOK:
        page = getattr(view, name)
        view.show_page(page)
        view.list.setFocus()
        qtbot.keyClick(view.list, Qt.Key.Key_Home)
        home = page.grab().toImage()
        qtbot.keyClick(view.list, Qt.Key.Key_Right)
        assert page.grab().toImage() != home, name  # the story moved on: the page shows something else
        qtbot.keyClick(view.list, Qt.Key.Key_Left)
        assert page.grab().toImage() == home, name
        assert view.current_page() is page and page.figure is not None
