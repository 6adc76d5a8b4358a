"""Marking in the window: rules (reference files never marked), Space, check boxes in all three tables, sessions."""

from __future__ import annotations

import os

import numpy as np
import pytest
from actions_corpus import make_corpus
from gui_helpers import scan_and_wait, wait_written
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.humanize import human_size

CHECK = Qt.ItemDataRole.CheckStateRole


@pytest.fixture
def with_reference(qtbot, window, tmp_path):
    """The window after scanning keep/ (a reference folder) and work/."""
    make_corpus(tmp_path / "c")
    keep, work = str(tmp_path / "c" / "keep"), str(tmp_path / "c" / "work")
    window.folders.open([keep, work], scan_now=False)
    window.state.set_reference(keep, True)
    scan_and_wait(qtbot, window)
    assert window.state.result.groups, "the corpus has a group across the reference folder"
    return window, keep


def _marked_paths(window) -> set[str]:
    r = window.state.result
    return {r.docs.paths[i] for i in np.flatnonzero(window.state.marks)}


def _checked_in_view(view) -> set[str]:
    """The documents whose check box the view's model shows ticked (every row, members of groups included)."""
    model, names = view.model(), set()

    def walk(parent: QModelIndex) -> None:
        for r in range(model.rowCount(parent)):
            for c in range(model.columnCount(parent)):
                idx = model.index(r, c, parent)
                if model.data(idx, CHECK) in (Qt.CheckState.Checked, Qt.CheckState.Checked.value):
                    names.add(model.data(idx))
            walk(model.index(r, 0, parent))

    walk(QModelIndex())
    return names


@pytest.mark.parametrize("rule", ["oldest", "newest", "largest", "shortest", "reference"])
def test_a_rule_keeps_one_per_group_and_never_marks_a_reference_file(qtbot, with_reference, rule):
    window, keep = with_reference
    window.acting.actions.rules[rule].trigger()
    r = window.state.result
    marked = _marked_paths(window)
    assert marked and not any(p.startswith(keep + os.sep) for p in marked)
    for g in r.groups:
        members = [r.docs.paths[i] for i in g]
        unmarked = [p for p in members if p not in marked]
        assert any(p.startswith(keep + os.sep) for p in unmarked)  # the reference copy stays
        if rule == "reference":
            assert len(unmarked) == sum(p.startswith(keep + os.sep) for p in members)
    names = {window.names[i] for i in np.flatnonzero(window.state.marks)}
    for view in (window.results.pairs, window.results.groups, window.results.documents):
        assert _checked_in_view(view) == names  # one mark, shown in every table
    size = sum(os.path.getsize(p) for p in marked)
    assert window.acting.marks.summary.text() == f"{len(marked)} marked, {human_size(size)}"


def test_space_toggles_the_selected_rows_and_invert_and_none_follow(qtbot, with_reference):
    window, keep = with_reference
    docs = window.results.documents
    window.results.tabs.setCurrentWidget(docs)
    work_rows = [r for r in range(docs.model().rowCount()) if "work" in docs.model().data(docs.model().index(r, 0))]
    docs.setFocus()
    docs.setCurrentIndex(docs.model().index(work_rows[0], 2))
    docs.selectRow(work_rows[0])
    qtbot.keyClick(docs, Qt.Key.Key_Space)
    assert window.state.marks.sum() == 1
    assert docs.model().data(docs.model().index(work_rows[0], 0), CHECK) in (Qt.CheckState.Checked, 2)
    qtbot.keyClick(docs, Qt.Key.Key_Space)
    assert window.state.marks.sum() == 0
    window.acting.actions.invert.trigger()
    r = window.state.result
    in_groups = {int(i) for g in r.groups for i in g}
    expected = {i for i in in_groups if not r.docs.paths[i].startswith(keep + os.sep)}
    assert set(np.flatnonzero(window.state.marks).tolist()) == expected
    window.acting.actions.none.trigger()
    assert not window.state.marks.any() and window.acting.marks.summary.text() == "None marked"


def test_a_session_keeps_the_marks(qtbot, with_reference, tmp_path, monkeypatch):
    window, _ = with_reference
    window.acting.actions.rules["reference"].trigger()
    marks = window.state.marks.copy()
    path = tmp_path / "marked.lshdesk"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.save_session.trigger()
    wait_written(qtbot, window)
    window.state.set_result(None)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.open_session.trigger()
    assert np.array_equal(window.state.marks, marks) and marks.any()


def test_the_mark_proxies_are_sound_models(qtbot, qtmodeltester, with_reference):
    window, _ = with_reference
    window.acting.actions.rules["reference"].trigger()
    for view in (window.results.pairs, window.results.groups, window.results.documents):
        qtmodeltester.check(view.model(), force_py=True)
    pairs = window.results.pairs.model()
    assert pairs.flags(pairs.index(0, 2)) & Qt.ItemFlag.ItemIsUserCheckable == Qt.ItemFlag(0)  # no box on a number
    assert pairs.setData(pairs.index(0, 0), Qt.CheckState.Checked, CHECK)
    assert window.state.marks[window.state.result.pairs.left[pairs.data_row(0)]]


@pytest.mark.parametrize("strict", [False, True])
def test_rules_mark_on_the_groups_shown_and_only_files_close_to_one_kept(qtbot, scanned, strict):
    """The corpus's chain A~B~C (A and C below t): no rule marks a file whose close matches all go too; with strict
    groups on screen the rules work on those; the status bar counts the groups the tab shows."""
    window, _ = scanned
    window.results.group_mode.setCurrentIndex(1 if strict else 0)
    shown = window.results.groups_model.groups
    r = window.state.result
    assert len(shown) == 5  # strict groups cut the chain to {A, B} or {B, C}: the third file is in no group
    assert sum(len(g) for g in shown) == (10 if strict else 11)
    n = len(shown)
    assert f"· {n:,} groups" in window.counts.text() and window.results.tabs.tabText(1) == f"Groups ({n:,})"
    in_shown = np.zeros(len(r.docs), bool)
    for g in shown:
        in_shown[g] = True
    close = r.pairs.jaccard >= r.params.threshold
    for rule in ("oldest", "newest", "largest", "shortest"):
        window.acting.actions.rules[rule].trigger()
        marks = window.state.marks
        assert marks.any() and not (marks & ~in_shown).any(), rule
        for d in np.flatnonzero(marks):
            partners = np.concatenate(
                [r.pairs.right[close & (r.pairs.left == d)], r.pairs.left[close & (r.pairs.right == d)]]
            )
            assert (~marks[partners]).any(), (rule, window.names[d])
        assert f"in {n:,} group" in window.progress.stage.text(), rule
