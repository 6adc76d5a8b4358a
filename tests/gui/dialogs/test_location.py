"""File > Open location: the URL dialog, and a bucket scanned from the window like a folder (local S3 server)."""

from __future__ import annotations

from gui_helpers import scan_and_wait
from PySide6.QtWidgets import QDialogButtonBox, QToolBar
from s3_server import SAMPLE

from lshdesk.gui.dialogs import location
from lshdesk.gui.dialogs.location import LocationDialog


def test_ok_only_for_a_url(qtbot):
    d = LocationDialog()
    qtbot.addWidget(d)
    ok = d.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()
    qtbot.keyClicks(d.field, "/home/me/docs")
    assert not ok.isEnabled()
    d.field.clear()
    qtbot.keyClicks(d.field, "  s3://bucket/sample/ ")
    assert ok.isEnabled() and d.url() == "s3://bucket/sample/"


def test_open_location_adds_the_bucket_and_a_scan_reads_it(qtbot, window, monkeypatch, s3):
    asked = []
    monkeypatch.setattr(location, "get_location", lambda parent: asked.append(parent) or "s3://bucket/sample/")
    file_menu = window.menuBar().actions()[0].menu()
    entries = [a.text() for a in file_menu.actions()]
    assert entries.index("Open &location…") == entries.index("&Open folder…") + 1  # next to Open folder
    assert window.findChild(QToolBar, "main_toolbar").actions()[-1] is window.menu_actions.open_location  # small, last
    window.menu_actions.open_location.trigger()
    assert asked == [window]
    assert window.state.folders == ["s3://bucket/sample"]
    assert window.corpus_panel.list.item(0).text() == "s3://bucket/sample"
    scan_and_wait(qtbot, window)
    result = window.state.result
    assert len(result.docs) == 29 and len(result.pairs) >= 1
    assert all(p.startswith("s3://bucket/sample/") for p in result.docs.paths)
    assert window.names[0] == f"sample/{result.docs.rel[0]}"  # on screen: short names (the outputs: full URLs)
    # the pair's texts come from the store, side by side
    left, right = int(result.pairs.left[0]), int(result.pairs.right[0])
    with qtbot.waitSignal(window.side_by_side.shown, timeout=30_000):
        window.state.select((left, right))
    rel = result.docs.rel[left]
    assert window.side_by_side.a.text.toPlainText() == (SAMPLE / rel).read_text(encoding="utf-8")
    window.grab().save("/tmp/remote_window.png")
    monkeypatch.setattr(location, "get_location", lambda parent: "")
    window.menu_actions.open_location.trigger()  # cancelled: nothing changes
    assert window.state.folders == ["s3://bucket/sample"]
