"""Not duplicates in the window: a pair or a group ruled out from the row menu leaves the results, stays out of a
rescan, comes back when a file changes or when it is forgotten; the list is exported for the CLI."""

from __future__ import annotations

import os
import threading

import pytest
from gui_helpers import make_corpus, scan_and_wait, set_test_params, table

from lshdesk.core import ignore


@pytest.fixture
def scanned(qtbot, window, tmp_path):
    make_corpus(tmp_path / "c")
    window.folders.open([str(tmp_path / "c")], scan_now=False)
    set_test_params(window)
    scan_and_wait(qtbot, window)
    return window, tmp_path / "c"


def _pair_names(window) -> set[frozenset]:
    r = window.state.result
    return {frozenset((window.names[a], window.names[b])) for a, b in zip(r.pairs.left, r.pairs.right)}


def _menu_action(window, view, row: int, starts: str):
    menu = window.results.context_menu(view, view.visualRect(view.model().index(row, 0)).center())
    action = next(a for a in menu.actions() if a.text().startswith(starts))
    return menu, action


LETTERS = frozenset(("alpha/letter.txt", "beta/letter-reply.txt"))


def test_a_pair_ruled_out_leaves_the_results_and_stays_out_of_a_rescan(qtbot, scanned):
    window, root = scanned
    before = _pair_names(window)
    assert LETTERS in before
    model = window.results.pairs_model
    row = next(r for r, cells in enumerate(table(model)) if set(cells[:2]) == set(LETTERS))
    menu, action = _menu_action(window, window.results.pairs, row, "Not duplicates")
    with qtbot.waitSignal(window.state.resultChanged):
        action.trigger()
    menu.deleteLater()
    assert _pair_names(window) == before - {LETTERS}
    assert "1 pair marked not duplicates" in window.progress.stage.text()
    scan_and_wait(qtbot, window)  # a rescan of unchanged files
    assert _pair_names(window) == before - {LETTERS}
    letter = root / "alpha" / "letter.txt"
    letter.write_text(letter.read_text(encoding="utf-8") + " and a postscript", encoding="utf-8")
    st = letter.stat()
    os.utime(letter, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    scan_and_wait(qtbot, window)
    assert LETTERS in _pair_names(window)  # the letter was edited: its pair is back


def test_a_whole_group_ruled_out_and_forgotten_in_the_dialog(qtbot, scanned, tmp_path):
    window, _ = scanned
    before = _pair_names(window)
    groups = window.results.groups
    index = groups.model().index(0, 0)
    members = {window.names[i] for i in window.results.groups_model.members(index)}
    menu, action = _menu_action(window, groups, 0, "Not duplicates: the group's")
    inside = {p for p in before if p <= members}
    assert action.text() == f"Not duplicates: the group's {len(inside)} pairs"
    action.trigger()
    menu.deleteLater()
    assert _pair_names(window) == before - inside
    assert not any(set(g.tolist()) >= {window.names.index(m) for m in members} for g in window.state.result.groups)
    dialog = window.not_duplicates.show_dialog()
    qtbot.addWidget(dialog)
    assert dialog.model.rowCount() == len(inside) and f"{len(inside)} pairs" in dialog.where.text()
    dialog.table.selectAll()
    with qtbot.waitSignal(window.state.resultChanged):
        dialog.forget_button.click()
    assert _pair_names(window) == before and dialog.model.rowCount() == 0  # back at once, no rescan
    assert "forgotten: back in the results" in window.progress.stage.text()


def test_the_exported_list_is_the_one_the_cli_reads(qtbot, scanned, tmp_path):
    window, root = scanned
    r = window.state.result
    window.not_duplicates.mark([(int(r.pairs.left[0]), int(r.pairs.right[0]))])
    dialog = window.not_duplicates.show_dialog()
    qtbot.addWidget(dialog)
    out = tmp_path / "exported.json"
    assert dialog.export(str(out)).startswith(f"Exported to {out}")
    listed = ignore.load(str(out))
    assert len(listed) == 1 and listed.apply(r)[1] == 1


def test_a_damaged_list_is_set_aside_and_said(qtbot, window, tmp_path):
    make_corpus(tmp_path / "c")
    path = ignore.default_path([str(tmp_path / "c")], window.not_duplicates.data_dir)
    os.makedirs(os.path.dirname(path))
    with open(path, "w", encoding="utf-8") as f:
        f.write("{ not json")
    window.folders.open([str(tmp_path / "c")], scan_now=False)
    set_test_params(window)
    scan_and_wait(qtbot, window)
    assert "could not be read" in window.progress.stage.text() and os.path.exists(path + ".damaged")
    assert len(window.state.result.pairs) > 0  # the scan's pairs, all of them


def test_the_list_is_applied_in_the_scans_worker_with_the_same_results(qtbot, scanned, monkeypatch):
    window, _ = scanned
    model = window.results.pairs_model
    row = next(r for r, cells in enumerate(table(model)) if set(cells[:2]) == set(LETTERS))
    menu, action = _menu_action(window, window.results.pairs, row, "Not duplicates")
    with qtbot.waitSignal(window.state.resultChanged):
        action.trigger()
    menu.deleteLater()
    shown = _pair_names(window)
    threads = []
    real = ignore.IgnoreList.apply

    def recorded(self, result):
        threads.append(threading.current_thread())
        return real(self, result)

    monkeypatch.setattr(ignore.IgnoreList, "apply", recorded)
    scan_and_wait(qtbot, window)  # a rescan: the list read and applied in the worker, not in _done
    assert threads and threading.main_thread() not in threads
    assert _pair_names(window) == shown and LETTERS not in shown
    nd = window.not_duplicates
    assert nd.shown is window.state.result and len(nd.full.pairs) == len(nd.shown.pairs) + 1
