"""The progress shown where the results appear (issue 31, item 2): the stage, its count and Cancel over the views,
the same progress as the status bar's, while a scan runs, on whichever view the user looks at."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from lshdesk.core.scan.progress import Progress
from lshdesk.gui import scan_controller


def _held_scan(monkeypatch, reached: threading.Event):
    """A scan that reports 5 of 20 files read, then waits until it is cancelled."""

    def fake(engine, folders, params, cancel, reference, **_kw):
        yield Progress("reading", 5, 20, unit="files")
        reached.set()
        while not cancel.wait(0.01):
            pass
        yield Progress("reading", 6, 20, unit="files")  # the worker stops here: its cancel flag is set

    monkeypatch.setattr(scan_controller, "make_scan", fake)


def test_a_running_scan_shows_its_stage_count_and_cancel_over_every_view(qtbot, window, tmp_path, monkeypatch):
    reached = threading.Event()
    _held_scan(monkeypatch, reached)
    (tmp_path / "a.txt").write_text("some words")
    strip = window.progress_strip
    assert not strip.isVisible()  # nothing runs: no strip
    window.folders.open([str(tmp_path)], scan_now=True)
    qtbot.waitUntil(lambda: "5 / 20 files" in strip.stage.text(), timeout=5000)
    for view in (window.results, window.scurve_view, window.signature_view):
        window.tabs.setCurrentWidget(view)
        assert strip.isVisible() and strip.cancel_button.isVisible()
        top_of_view = view.mapTo(window, view.rect().topLeft()).y()
        assert strip.mapTo(window, strip.rect().bottomLeft()).y() <= top_of_view  # above the view, not hidden by it
    assert strip.stage.text() == window.progress.stage.text()  # one progress: the status bar says the same
    assert strip.bar.value() == window.progress.bar.value() == 5 and strip.bar.maximum() == 20
    assert window.progress.cancel_button.isVisible()  # the status bar keeps its own view of it
    qtbot.mouseClick(strip.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.scans.is_scanning(), timeout=5000)
    assert not strip.isVisible() and "cancelled" in window.progress.stage.text()


def test_a_job_without_cancel_shows_none_in_the_strip(qtbot, window):
    window.progress.start("Writing…", cancellable=False)
    assert window.progress_strip.isVisible() and not window.progress_strip.cancel_button.isVisible()
    assert not window.progress.cancel_button.isVisible()
    window.progress.finish("Session saved.")
    assert not window.progress_strip.isVisible() and window.progress.stage.text() == "Session saved."
