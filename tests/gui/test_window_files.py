"""The window's File and Help features: sessions, the HTML report and groups export, F1 help, the Learn layout."""

from __future__ import annotations

import csv
import io

from gui_helpers import scan_and_wait, set_test_params, wait_written
from PySide6.QtWidgets import QFileDialog, QTextBrowser

from lshdesk.core.persistence import export
from lshdesk.core.persistence.session import load_session
from lshdesk.gui import file_actions


def _scanned(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    assert window.state.result is not None and len(window.state.result.pairs) > 0
    return window.state.result


def test_save_and_open_a_session_restores_results_and_selection(qtbot, window, corpus_dir, tmp_path, monkeypatch):
    result = _scanned(qtbot, window, corpus_dir)
    pair = (int(result.pairs.left[0]), int(result.pairs.right[0]))
    window.state.select(pair)
    path = tmp_path / "mine.lshdesk"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path)[: -len(".lshdesk")], ""))
    window.menu_actions.save_session.trigger()
    wait_written(qtbot, window)
    assert path.is_file()
    assert load_session(path)[1] == pair
    window.state.set_result(None)
    assert window.results.pairs_model.rowCount() == 0
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.open_session.trigger()
    back = window.state.result
    assert back is not None and export.to_json(back) == export.to_json(result)
    assert window.state.selection.docs == pair
    assert window.results.pairs_model.rowCount() == len(result.pairs)
    assert window.params_panel.params() == result.params


def test_a_damaged_session_is_refused_without_losing_the_results(qtbot, window, corpus_dir, tmp_path, monkeypatch):
    result = _scanned(qtbot, window, corpus_dir)
    bad = tmp_path / "bad.lshdesk"
    bad.write_bytes(b"garbage")
    warnings = []
    monkeypatch.setattr(file_actions, "_warn", lambda parent, title, text: warnings.append(text))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    window.menu_actions.open_session.trigger()
    assert warnings and "damaged" in warnings[0]
    assert window.state.result is result


def test_report_and_groups_exports_write_what_the_core_writes(qtbot, window, corpus_dir, tmp_path):
    result = _scanned(qtbot, window, corpus_dir)
    window.files.export_to(str(tmp_path / "r.html"), "html")
    assert window.files.writes.busy  # written by the worker: the window went on
    wait_written(qtbot, window)
    assert window.progress.stage.text() == f"Report written to {tmp_path / 'r.html'}"
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<svg" in page
    names = window.names
    assert all(names[i] in page for i in result.pairs.left.tolist())
    window.files.export_to(str(tmp_path / "g.csv"), "groups")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "g.csv").read_text(encoding="utf-8"))))
    assert len(rows) == sum(len(g) for g in result.groups)
    assert {r["path"] for r in rows} == {names[i] for g in result.groups for i in g.tolist()}


def test_f1_opens_the_help_of_the_current_view(qtbot, window):
    window.tabs.setCurrentWidget(window.signature_view)
    window.menu_actions.help.trigger()
    dialog = window.help_dialog
    assert dialog.isVisible() and "Signatures" in dialog.windowTitle()
    assert "slot" in dialog.findChild(QTextBrowser).toPlainText()
    dialog.close()


def test_the_learn_tab_takes_the_whole_width_and_gives_it_back(qtbot, window):
    assert window.dock.isVisible()
    window.menu_actions.learn.trigger()
    assert window.tabs.currentWidget() is window.learn and not window.dock.isVisible()
    window.menu_actions.view_tabs[0].trigger()
    assert window.tabs.currentWidget() is window.results and window.dock.isVisible()


def test_the_last_parameters_come_back_and_damaged_ones_are_ignored(qtbot, window, settings, corpus_dir):
    from lshdesk.gui.mainwindow import MainWindow

    root, _ = corpus_dir
    window.params_panel.threshold.setValue(0.55)
    window.params_panel.seed.setValue(42)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    again = MainWindow(settings)
    qtbot.addWidget(again)
    p = again.params_panel.params()
    assert (p.threshold, p.signature.seed) == (0.55, 42)
    assert again.shutdown()
    settings.setValue("params/last", "{not json")
    third = MainWindow(settings)
    qtbot.addWidget(third)
    assert third.params_panel.params().threshold == 0.8  # the default, no crash
    assert third.shutdown()


def test_a_pair_picked_on_the_s_curve_is_shown_everywhere(qtbot, window, corpus_dir):
    result = _scanned(qtbot, window, corpus_dir)
    i = len(result.pairs) - 1  # the least similar verified pair: not the row selected by default
    pair = (int(result.pairs.left[i]), int(result.pairs.right[i]))
    window.scurve_view.pairSelected.emit(*pair)
    assert window.state.selection.docs == pair
    rows = window.results.pairs.selectionModel().selectedRows()
    assert len(rows) == 1 and window.results.pairs_model.pair_at(rows[0].row(), result) == pair
    assert window.signature_view.docs == pair
    qtbot.waitUntil(lambda: window.names[pair[0]] in window.side_by_side.a.title.text(), timeout=5000)


def test_export_follows_the_extension_typed(qtbot, window, corpus_dir, tmp_path, monkeypatch):
    import json

    result = _scanned(qtbot, window, corpus_dir)
    csv_filter = next(k for k in file_actions.EXPORTS if k.startswith("Pairs as CSV"))
    target = tmp_path / "out.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), csv_filter))
    window.menu_actions.export.trigger()
    assert json.loads(target.read_text(encoding="utf-8"))["pairs"]  # JSON, as the name says, despite the filter
    bare = tmp_path / "groups"
    groups_filter = next(k for k in file_actions.EXPORTS if k.startswith("Groups"))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(bare), groups_filter))
    window.menu_actions.export.trigger()
    assert (tmp_path / "groups.csv").read_text(encoding="utf-8") == export.to_groups_csv(result)
