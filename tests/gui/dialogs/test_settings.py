"""Settings: the compute engine choice reaches the scan; Test connection answers off the GUI thread."""

from __future__ import annotations

import pytest
from gui_helpers import scan_and_wait, set_test_params

from lshdesk.gui.dialogs.settings import SettingsDialog, engine_settings
from lshdesk.gui.settings_store import DIFF_TOOL_KEY, diff_tool


def test_settings_are_saved_on_ok_and_not_on_cancel(qtbot, window, settings):
    dialog = SettingsDialog(settings, window)
    qtbot.addWidget(dialog)
    dialog.dask.setChecked(True)
    dialog.address.setText("tcp://127.0.0.1:1")
    dialog.reject()
    assert engine_settings(settings) == ("local", "")
    dialog = SettingsDialog(settings, window)
    qtbot.addWidget(dialog)
    dialog.dask.setChecked(True)
    dialog.address.setText("tcp://127.0.0.1:1")
    dialog.cache_off.setChecked(True)
    dialog.accept()
    assert engine_settings(settings) == ("dask", "tcp://127.0.0.1:1")
    assert settings.value("cache/enabled") == "false"


def test_the_diff_tool_command_is_kept_and_the_window_uses_it(qtbot, window, settings):
    dialog = SettingsDialog(settings, window)
    qtbot.addWidget(dialog)
    dialog.diff_tool.setText("  kdiff3 {left} {right} ")
    dialog.accept()
    assert diff_tool(settings) == "kdiff3 {left} {right}"
    assert window.side_by_side.settings is settings  # Side by side reads the same settings
    settings.setValue(DIFF_TOOL_KEY, ["meld", "x"])  # a damaged value (not one string) reads as none
    assert diff_tool(settings) == ""


def test_test_connection_reports_a_refused_address_without_blocking(qtbot, window, settings):
    pytest.importorskip("distributed")
    dialog = SettingsDialog(settings, window)
    qtbot.addWidget(dialog)
    dialog.dask.setChecked(True)
    dialog.address.setText("tcp://127.0.0.1:9")  # nothing listens on the discard port
    dialog.test_connection()
    assert dialog.test_result.text() == "Connecting…"  # returned at once: the check runs in a thread
    qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Cannot connect"), timeout=20000)
    dialog.reject()


def test_a_scan_on_the_dask_engine_gives_the_local_results(qtbot, window, settings, corpus_dir):
    pytest.importorskip("distributed")
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    local = window.state.result
    settings.setValue("engine/kind", "dask")
    settings.setValue("engine/address", "")
    scan_and_wait(qtbot, window, timeout=60000)
    remote = window.state.result
    assert remote is not local
    assert list(zip(remote.pairs.left, remote.pairs.right)) == list(zip(local.pairs.left, local.pairs.right))
    assert [g.tolist() for g in remote.groups] == [g.tolist() for g in local.groups]


def test_with_the_cache_on_a_second_scan_takes_extracted_documents_from_it(qtbot, window, settings, tmp_path):
    docs = tmp_path / "pages"
    docs.mkdir()
    page = "<html><body><p>" + "the same paragraph of a web page, copied into a second page " * 4 + "</p></body></html>"
    (docs / "a.html").write_text(page)
    (docs / "b.html").write_text(page)
    settings.setValue("cache/enabled", "true")
    window.folders.open([str(docs)], scan_now=False)
    scan_and_wait(qtbot, window)
    assert window.state.result.cached == 0
    scan_and_wait(qtbot, window)
    assert window.state.result.cached == 2
    assert "2 from the signature cache" in window.progress.stage.text()
