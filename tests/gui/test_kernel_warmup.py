"""The kernels load behind a usable window: on a cold cache the Scan button and the status say so until ready,
and the Learn lessons wait for them with a word of explanation."""

from __future__ import annotations

import threading

import lshdesk.core.kernels.cache as kernel_cache
import lshdesk.gui.workers as workers
from lshdesk.gui import kernel_warmup
from lshdesk.gui.kernel_warmup import BUTTON, COMPILING, LEARN_PENDING, PENDING_SCAN
from lshdesk.gui.learn import LearnView


def _start(monkeypatch, cold: bool, warm_up):
    monkeypatch.setattr(kernel_cache, "is_cold", lambda kernels=(): cold)
    monkeypatch.setattr(workers, "warm_up", warm_up)
    return kernel_warmup.start()


def test_a_cold_start_says_it_compiles_and_the_window_stays_usable(qtbot, window, monkeypatch):
    release = threading.Event()
    thread = _start(monkeypatch, True, lambda: release.wait(20))  # the compiler, held until the test lets go
    learn = LearnView()  # built while the kernels compile, as the window's is on a first run
    qtbot.addWidget(learn)
    called = []
    before = window.params_panel.scan_button.text()
    kernel_warmup.show_until_ready(window, thread, lambda: called.append(True))
    assert (
        window.params_panel.scan_button.text() == BUTTON and PENDING_SCAN in window.params_panel.scan_button.toolTip()
    )
    assert window.progress.stage.text() == COMPILING and not window.progress.cancel_button.isVisible()
    window.actions.learn.trigger()  # the window answers while the kernels compile
    assert window.tabs.currentWidget() is window.learn
    assert learn.stack.currentWidget() is learn.pending and learn.pending.text() == LEARN_PENDING and not learn.pages
    learn.list.setCurrentRow(3)  # choosing a lesson meanwhile is fine: it waits too
    assert learn.stack.currentWidget() is learn.pending
    assert thread.isRunning() and not called
    release.set()
    qtbot.waitUntil(lambda: bool(called) and bool(learn.pages), timeout=10000)
    assert called == [True]
    assert window.params_panel.scan_button.text() == before
    assert "ready" in window.progress.stage.text()
    assert learn.stack.currentWidget() is learn.banding  # the lesson chosen while waiting opens
    assert thread.wait(5000)
    assert learn.shutdown(5000)


def test_a_warm_cache_changes_no_word(qtbot, window, monkeypatch):
    thread = _start(monkeypatch, False, lambda: None)
    called = []
    status = window.progress.stage.text()
    kernel_warmup.show_until_ready(window, thread, lambda: called.append(True))
    assert window.params_panel.scan_button.text() != BUTTON
    qtbot.waitUntil(lambda: bool(called), timeout=10000)
    assert window.progress.stage.text() == status and called == [True]
    assert thread.wait(5000)
    learn = LearnView()  # no warm-up running: the pages are there at once
    qtbot.addWidget(learn)
    assert learn.stack.currentWidget() is learn.sets
    assert learn.shutdown(5000)


def test_a_failed_warm_up_is_said_and_not_fatal(qtbot, window, monkeypatch):
    def broken():
        raise OSError("no room for the cache")

    thread = _start(monkeypatch, True, broken)
    called = []
    kernel_warmup.show_until_ready(window, thread, lambda: called.append(True))
    qtbot.waitUntil(lambda: bool(called), timeout=10000)
    assert "no room for the cache" in window.progress.stage.text()
    assert thread.wait(5000)
