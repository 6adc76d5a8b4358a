"""Reviewing results: groups that explain themselves (closest partner, strict groups, Enter opens the Signatures),
the filter's counts and Esc, and the sub-tabs' keyboard shortcuts."""

from __future__ import annotations

from itertools import combinations

from gui_helpers import THRESHOLD, jaccard, shingles
from PySide6.QtCore import Qt


def _groups(model) -> list[list[str]]:
    out = []
    for r in range(model.rowCount()):
        top = model.index(r, 0)
        out.append([model.data(model.index(i, 0, top)) for i in range(model.rowCount(top))])
    return out


def test_strict_groups_keep_every_pair_at_or_above_the_threshold(qtbot, scanned):
    window, texts = scanned
    view, model = window.results, window.results.groups_model
    sim = {frozenset((a, b)): jaccard(shingles(texts[a]), shingles(texts[b])) for a, b in combinations(texts, 2)}
    linked = _groups(model)
    assert any(min(sim[frozenset(p)] for p in combinations(g, 2)) < THRESHOLD for g in linked)  # a chain
    view.tabs.setCurrentWidget(view.groups)
    assert view.group_mode.isVisible()
    view.group_mode.setCurrentIndex(1)
    strict = _groups(model)
    assert strict and strict != linked
    for g in strict:
        assert all(sim[frozenset(p)] >= THRESHOLD for p in combinations(g, 2))
    assert view.tabs.tabText(1) == f"Groups ({len(strict)})"
    for r, g in enumerate(strict):  # a strict group's lowest similarity is its least similar pair
        assert model.data(model.index(r, 2)) == f"{min(sim[frozenset(p)] for p in combinations(g, 2)):.3f}"
    view.group_mode.setCurrentIndex(0)
    assert _groups(model) == linked


def test_each_member_shows_its_closest_document_in_the_group(qtbot, scanned):
    window, texts = scanned
    model = window.results.groups_model
    for r, group in enumerate(_groups(model)):
        top = model.index(r, 0)
        for i, name in enumerate(group):
            others = {o: jaccard(shingles(texts[name]), shingles(texts[o])) for o in group if o != name}
            verified = {o: j for o, j in others.items() if j >= THRESHOLD}
            best = max(verified.values())
            assert model.data(model.index(i, 2, top)) == f"{best:.3f}"
            assert verified[model.data(model.index(i, 3, top))] == best
            assert model.data(model.index(i, 4, top)).endswith(("bytes", "KB"))
            assert model.data(model.index(i, 5, top))[:2] == "20"  # a date, read from the file


def test_enter_on_a_group_opens_it_in_the_signatures_view(qtbot, scanned):
    window, _ = scanned
    view, model = window.results, window.results.groups_model
    view.tabs.setCurrentWidget(view.groups)
    big = max(range(model.rowCount()), key=lambda r: model.rowCount(model.index(r, 0)))
    view.groups.setFocus()
    view.groups.setCurrentIndex(model.index(big, 0))
    qtbot.keyClick(view.groups, Qt.Key.Key_Return)
    assert window.tabs.currentWidget() is window.signature_view
    assert window.state.selection.docs == model.members(model.index(big, 0))
    assert len(window.state.selection.docs) >= 3


def test_the_filter_counts_what_it_shows_and_esc_clears_it(qtbot, scanned):
    window, texts = scanned
    view = window.results
    n_pairs = len(window.state.result.pairs)
    view.filter.setFocus()
    qtbot.keyClicks(view.filter, "notes-b")
    shown = view.pairs_model.rowCount()
    assert 0 < shown < n_pairs
    assert view.tabs.tabText(0) == f"Pairs ({shown} of {n_pairs})"
    assert view.tabs.tabText(2).startswith(f"Documents ({view.docs_model.rowCount()} of ")
    qtbot.keyClick(view.filter, Qt.Key.Key_Escape)
    assert view.filter.text() == ""
    assert view.tabs.tabText(0) == f"Pairs ({n_pairs})"


def test_the_sub_tabs_answer_their_shortcuts(qtbot, scanned):
    window, _ = scanned
    view = window.results
    window.tabs.setCurrentWidget(view)
    view.pairs.setFocus()
    for key, target in ((Qt.Key.Key_G, view.groups), (Qt.Key.Key_D, view.documents), (Qt.Key.Key_P, view.pairs)):
        qtbot.keyClick(view.tabs.currentWidget(), key, Qt.KeyboardModifier.AltModifier)
        assert view.tabs.currentWidget() is target and target.hasFocus()
