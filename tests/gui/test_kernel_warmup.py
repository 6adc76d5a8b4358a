"""The kernels load behind a usable window: on a cold cache the Scan button and the status say so until ready."""

from __future__ import annotations

import threading

import lshdesk.core.kernels.cache as kernel_cache
import lshdesk.gui.workers as workers
from lshdesk.gui.kernel_warmup import BUTTON, COMPILING, warm_up_in_background


def test_a_cold_start_says_it_compiles_and_the_window_stays_usable(qtbot, window, monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(kernel_cache, "is_cold", lambda kernels=(): True)
    monkeypatch.setattr(workers, "warm_up", lambda: release.wait(20))  # the compiler, held until the test lets go
    called = []
    before = window.params_panel.scan_button.text()
    thread = warm_up_in_background(window, lambda: called.append(True))
    assert window.params_panel.scan_button.text() == BUTTON
    assert window.progress.stage.text() == COMPILING and not window.progress.cancel_button.isVisible()
    window.actions.learn.trigger()  # the window answers while the kernels compile
    assert window.tabs.currentWidget() is window.learn
    assert thread.isRunning() and not called
    release.set()
    qtbot.waitUntil(lambda: bool(called), timeout=10000)
    assert window.params_panel.scan_button.text() == before
    assert "ready" in window.progress.stage.text()
    assert thread.wait(5000)


def test_a_warm_cache_changes_no_word(qtbot, window, monkeypatch):
    monkeypatch.setattr(kernel_cache, "is_cold", lambda kernels=(): False)
    monkeypatch.setattr(workers, "warm_up", lambda: None)
    called = []
    status = window.progress.stage.text()
    thread = warm_up_in_background(window, lambda: called.append(True))
    assert window.params_panel.scan_button.text() != BUTTON
    qtbot.waitUntil(lambda: bool(called), timeout=10000)
    assert window.progress.stage.text() == status
    assert thread.wait(5000)


def test_a_failed_warm_up_is_said_and_not_fatal(qtbot, window, monkeypatch):
    def broken():
        raise OSError("no room for the cache")

    monkeypatch.setattr(kernel_cache, "is_cold", lambda kernels=(): True)
    monkeypatch.setattr(workers, "warm_up", broken)
    called = []
    thread = warm_up_in_background(window, lambda: called.append(True))
    qtbot.waitUntil(lambda: bool(called), timeout=10000)
    assert "no room for the cache" in window.progress.stage.text()
    assert thread.wait(5000)
