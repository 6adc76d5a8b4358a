"""An empty result says why in the window (issue 31, item 7); tool folders left unread are counted by their files in
the corpus panel, with the one click that reads them (item 8)."""

from __future__ import annotations

from gui_helpers import scan_and_wait
from PySide6.QtCore import Qt

from lshdesk.gui.widgets.corpus_panel import READ_TOOLS


def test_an_empty_folder_a_missing_one_and_skipped_files_each_say_why(qtbot, window, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "bins").mkdir()
    for i in range(4):
        (tmp_path / "bins" / f"b{i}.bin").write_bytes(bytes(range(256)))
    said = {}
    for name in ("empty", "gone", "bins"):
        window.folders.open([str(tmp_path / name)], scan_now=False)
        scan_and_wait(qtbot, window)
        assert window.results.empty.isVisibleTo(window)
        said[name] = window.results.empty.text()
    assert said["empty"] == "No pairs: the folder is empty."
    assert said["gone"] == f"No pairs: folder not found: {tmp_path / 'gone'}."
    assert said["bins"] == (
        "No pairs: no document to compare: 4 files skipped (4 not a text file type); "
        "read them with 'All files' or an include pattern."
    )


def test_files_in_a_tool_folder_are_counted_and_one_click_reads_them(qtbot, window, tmp_path):
    tmp_path = tmp_path / "c"  # beside the test's settings file
    words = " ".join(f"w{i}" for i in range(60))
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    for i in range(94):
        (tmp_path / "node_modules" / "pkg" / f"f{i:02d}.txt").write_text(f"{words} {i}")
    (tmp_path / "a.txt").write_text(words)
    window.folders.open([str(tmp_path)], scan_now=False)
    scan_and_wait(qtbot, window)
    summary = window.corpus_panel.summary
    assert summary.text().startswith("1 document, 0 skipped, 94 files in 1 tool folder not read, scanned in ")
    assert summary.text().endswith(f"<a href='{READ_TOOLS}'>Read the tool folder too</a>")
    assert "94 files in 1 tool folder not read" in window.progress.stage.text()
    assert len(window.state.result.pairs) == 0
    summary.setFocus()  # the link takes the keyboard: Tab reaches it, Enter follows it
    qtbot.keyClick(summary, Qt.Key.Key_Tab)
    with qtbot.waitSignal(window.state.resultChanged, timeout=20000):
        qtbot.keyClick(summary, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.scans.is_scanning(), timeout=20000)
    r = window.state.result
    assert window.state.folders == [str(tmp_path), str(tmp_path / "node_modules")]
    assert len(r.docs) == 95 and len(r.pairs) == 95 * 94 // 2  # every file near every other one
    assert "tool folder" not in summary.text() and READ_TOOLS not in summary.text()
