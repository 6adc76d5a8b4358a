"""Issue 18 in the real window: the sample's parameters stay the sample's, stale results are marked, exports are
offered outside the scanned folder, progress speaks each stage's unit, the slow-scan warning, folder names and
an empty reference result, file options, Open Recent folder sets, and 'lshdesk gui FILE.lshdesk'."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_helpers import scan_and_wait, set_test_params, table, wait_written
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.params import ScanParams
from lshdesk.core.scan import estimate
from lshdesk.gui import app as app_module
from lshdesk.gui import export_dir, settings_store
from lshdesk.gui.mainwindow import MainWindow
from lshdesk.gui.resources import sample_corpus

SHOTS = Path(os.environ.get("LSHDESK_SHOTS", "")) if os.environ.get("LSHDESK_SHOTS") else None


def _shot(window, name: str) -> None:
    """Save a picture of the window when LSHDESK_SHOTS names a folder (to look at the new states)."""
    if SHOTS is not None:
        from PySide6.QtWidgets import QApplication

        for _ in range(3):  # let the layout settle (a label that wraps gets its height on the next pass)
            QApplication.processEvents()
        SHOTS.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(SHOTS / f"{name}.png"))


def test_the_samples_parameters_never_become_the_users(qtbot, window, settings, corpus_dir):
    assert sample_corpus() is not None
    with qtbot.waitSignal(window.state.resultChanged, timeout=20000):
        app_module.open_paths(window, [])  # plain 'lshdesk': the sample at its own threshold
    assert window.state.result.params.threshold == app_module.SAMPLE_THRESHOLD
    assert settings_store.saved_params(settings) == ScanParams()  # nothing of the sample saved
    assert not [a.text() for a in window.menu_actions.recent.actions()]  # the sample is not a recent folder
    window.folders.open([str(corpus_dir[0] / "alpha")], scan_now=False)
    assert window.params_panel.threshold.value() == pytest.approx(0.8)  # the user's own (here: the defaults)
    scan_and_wait(qtbot, window)
    assert window.state.result.params.threshold == pytest.approx(0.8)
    window.params_panel.threshold.setValue(0.6)
    scan_and_wait(qtbot, window)
    assert settings_store.saved_params(settings).threshold == pytest.approx(0.6)  # one's own scans are remembered
    again = MainWindow(settings)
    qtbot.addWidget(again)
    assert again.params_panel.threshold.value() == pytest.approx(0.6)
    assert again.shutdown()


def test_results_are_marked_out_of_date_until_the_next_scan(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root / "alpha")], scan_now=False)
    scan_and_wait(qtbot, window)
    assert window.stale.isHidden()
    window.folders.open([str(root / "beta")], scan_now=False)
    assert window.stale.isVisible() and "these results are of alpha." in window.stale.label.text()
    window.params_panel.threshold.setValue(0.5)
    text = window.stale.label.text()
    assert "of alpha with threshold 0.30, word:3 shingles" in text and "bands x rows 64x2" in text
    _shot(window, "stale_results")
    scan_and_wait(qtbot, window)
    assert window.stale.isHidden()


def test_exports_are_offered_outside_the_scanned_folder(qtbot, window, corpus_dir, tmp_path, monkeypatch):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    offered, out = [], tmp_path / "exports"
    out.mkdir()

    def save_as(_parent, _title, proposed, *_):
        offered.append(proposed)
        return str(out / os.path.basename(proposed)), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window.menu_actions.export.trigger()
    assert offered and not export_dir.inside(offered[0], [str(root)]) and offered[0].endswith("pairs.csv")
    assert (out / "pairs.csv").is_file()
    for action in (window.menu_actions.report, window.menu_actions.save_session):
        action.trigger()
        assert os.path.dirname(offered[-1]) == str(out)  # the last export folder, for reports and sessions too


def test_progress_names_each_stage_in_its_own_unit(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    shown: list[str] = []
    update = window.progress.update_progress

    def spy(p):
        update(p)
        shown.append(window.progress.stage.text())

    window.progress.update_progress = spy
    window.scans.progress = window.progress
    scan_and_wait(qtbot, window)
    assert any(t.startswith("Reading and hashing: ") and t.endswith(" files") for t in shown)
    assert any(t.startswith("Verifying candidate pairs: ") and t.endswith(" candidate pairs") for t in shown)


def test_a_slow_scan_asks_continue_or_stop(qtbot, window, corpus_dir, monkeypatch):
    root, _ = corpus_dir
    monkeypatch.setattr(estimate, "WARN_PAIRS", 1)  # every scan is 'slow'
    set_test_params(window)
    window.folders.open([str(root / "alpha")], scan_now=False)
    window.scans.start()
    qtbot.waitUntil(lambda: window.scans.warning is not None and window.scans.warning.isVisible(), timeout=20000)
    dialog = window.scans.warning
    assert "candidate pairs" in dialog.text() and "raise the threshold" in dialog.text()
    _shot(window, "slow_scan_warning")
    dialog.grab().save(str(SHOTS / "slow_scan_warning_dialog.png")) if SHOTS else None
    with qtbot.waitSignal(window.scans.slot.idle, timeout=10000):
        dialog.stop_button.click()
    assert window.state.result is None and "cancelled" in window.progress.stage.text()
    window.scans.start()
    qtbot.waitUntil(lambda: window.scans.warning is not None and window.scans.warning.isVisible(), timeout=20000)
    with qtbot.waitSignal(window.state.resultChanged, timeout=20000):
        window.scans.warning.continue_button.click()
    assert len(window.state.result.pairs) > 0


def test_several_folders_show_their_folder_and_an_empty_reference_result_says_why(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    alpha, beta = str(root / "alpha"), str(root / "beta")
    set_test_params(window)
    window.folders.open([alpha, beta], scan_now=False)
    window.state.set_reference(beta, True)
    scan_and_wait(qtbot, window)
    rows = table(window.results.pairs_model)
    assert rows and all(r[5] == "alpha ↔ beta (reference)" for r in rows)  # only cross pairs, each side named
    assert all(r[0].startswith("alpha/") and r[1].startswith("beta/") for r in rows)
    assert not window.results.pairs.isColumnHidden(5)
    sample = sample_corpus()
    window.folders.open([alpha, sample], scan_now=False)  # the case: the sample added and ticked
    window.state.set_reference(sample, True)
    window.params_panel.threshold.setValue(0.8)
    window.params_panel.auto.setChecked(True)
    scan_and_wait(qtbot, window)
    text = window.results.empty.text()
    assert window.results.empty.isVisible() and window.results.pairs_model.rowCount() == 0
    assert text.startswith("No pairs: no pair between the reference folder and the others reaches 0.80; the most")
    _shot(window, "empty_reference_result")
    window.state.set_reference(alpha, True)
    window.scans.start()  # every folder a reference: refused, with the reason
    assert not window.scans.is_scanning() and "Every folder is a reference folder" in window.progress.stage.text()


def test_the_window_reads_all_files_with_patterns_and_a_size_cap(qtbot, window, tmp_path):
    text = "the same text kept in a package folder and in the project, word for word and line by line " * 3
    for rel in ("p/readme.txt", "p/node_modules/pkg/README.txt", "p/data.bin", "p/big.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text * (400 if rel.endswith("big.txt") else 1), encoding="utf-8")
    window.folders.open([str(tmp_path / "p")], scan_now=False)
    files = window.params_panel.files
    files.max_mb.setValue(0.1)
    scan_and_wait(qtbot, window)
    reasons = {os.path.basename(s.path): s for s in window.state.result.skipped}
    assert set(window.state.result.docs.rel) == {"readme.txt"}
    assert "(1 file)" in reasons["node_modules"].reason and "larger than the size cap" in reasons["big.txt"].reason
    shown = table(window.results.docs_model)
    assert not any("--" in row[5] for row in shown)  # the window's words, not the command line's
    assert any("'All files'" in row[5] for row in shown)
    files.all_files.setChecked(True)
    files.exclude.setText("*.bin")
    files.exclude.editingFinished.emit()
    scan_and_wait(qtbot, window)
    assert set(window.state.result.docs.rel) == {"readme.txt", "node_modules/pkg/README.txt"}
    files.exclude.setText("")
    files.include.setText("*.bin")
    files.include.editingFinished.emit()
    scan_and_wait(qtbot, window)
    assert set(window.state.result.docs.rel) == {"data.bin"}


def test_open_recent_reopens_a_folder_set_with_its_reference_ticks(qtbot, window, settings, corpus_dir):
    root, _ = corpus_dir
    alpha, beta = str(root / "alpha"), str(root / "beta")
    window.folders.open([alpha, beta], scan_now=False)
    window.state.set_reference(beta, True)
    window.folders.open([alpha], scan_now=False)
    again = MainWindow(settings)
    qtbot.addWidget(again)
    titles = [a.text() for a in again.menu_actions.recent.actions()]
    assert titles[:2] == [alpha, f"{alpha} + beta (reference)"]
    set_test_params(again)
    scan_and_wait(qtbot, again, again.menu_actions.recent.actions()[1].trigger)
    assert again.state.folders == [alpha, beta] and again.state.reference == {beta}
    assert again.state.result.reference == (1,)
    assert again.shutdown()


def test_lshdesk_gui_with_a_session_file_opens_the_session(qtbot, window, settings, corpus_dir, tmp_path, monkeypatch):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root / "alpha")], scan_now=False)
    scan_and_wait(qtbot, window)
    path = tmp_path / "mine.lshdesk"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.save_session.trigger()
    wait_written(qtbot, window)
    fresh = MainWindow(settings)
    qtbot.addWidget(fresh)
    app_module.open_paths(fresh, [str(path)])
    assert not fresh.scans.is_scanning()  # shown, not scanned as a folder
    assert fresh.state.folders == [str(root / "alpha")]
    assert len(fresh.state.result.pairs) == len(window.state.result.pairs)
    assert fresh.stale.isHidden()  # the session's folders and parameters are the ones on screen
    assert all(str(path) not in a.text() for a in fresh.menu_actions.recent.actions())
    assert fresh.shutdown()
