"""WorkerSlot: the newest request wins, cancel drops the answer, failures reach a handler or the error dialog, and
every thread is reaped or waited for."""

from __future__ import annotations

import threading

import pytest
from gui_helpers import running_threads
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QMessageBox, QWidget

from lshdesk.core.scan.pipeline import Progress
from lshdesk.gui.workers import WorkerSlot


@pytest.fixture
def owner(qtbot):
    w = QWidget()
    qtbot.addWidget(w)
    yield w
    for slot in w.findChildren(WorkerSlot):
        assert slot.shutdown(5000)
    assert not running_threads(w)


def _held(release: threading.Event, answer):
    """A job that reports once, then waits for ``release`` before it answers (it does not watch cancel)."""

    def make(cancel):
        yield Progress("reading", 0, 1)
        release.wait(5)
        return answer

    return make


def _quick(answer):
    def make(cancel):
        yield from ()
        return answer

    return make


def test_only_the_newest_request_answers(qtbot, owner):
    slot, done, release = WorkerSlot(owner), [], threading.Event()
    first = slot.start(_held(release, "old"), done.append)
    second = slot.start(_quick("new"), done.append)
    assert second == first + 1 and slot.busy
    qtbot.waitUntil(lambda: done == ["new"], timeout=5000)
    release.set()  # the replaced job ends now: its answer is dropped
    qtbot.waitUntil(lambda: not slot.running, timeout=5000)
    qtbot.wait(50)
    assert done == ["new"] and not slot.busy


def test_cancel_drops_the_answer_and_says_whether_there_was_a_request(qtbot, owner):
    slot, done, cancelled, release = WorkerSlot(owner), [], [], threading.Event()
    assert not slot.cancel()
    slot.start(_held(release, "late"), done.append, on_cancelled=lambda: cancelled.append(1))
    assert slot.cancel() and not slot.busy
    release.set()
    qtbot.waitUntil(lambda: not slot.running, timeout=5000)
    qtbot.wait(50)
    assert done == [] and cancelled == []  # the caller said it cancelled: nothing comes back


def test_a_failure_goes_to_the_handler_with_its_details(qtbot, owner):
    slot, failed = WorkerSlot(owner), []

    def broken(cancel):
        yield from ()
        raise RuntimeError("the disk is on fire")

    slot.start(broken, lambda r: None, on_failed=lambda message, details: failed.append((message, details)))
    qtbot.waitUntil(lambda: bool(failed), timeout=5000)
    assert failed[0][0] == "RuntimeError: the disk is on fire" and "Traceback" in failed[0][1]
    assert not slot.busy


def test_a_failure_without_a_handler_opens_the_error_dialog(qtbot, owner):
    slot = WorkerSlot(owner, "Reading failed")

    def broken(cancel):
        yield from ()
        raise ValueError("bad bytes")

    slot.start(broken, lambda r: None)
    qtbot.waitUntil(lambda: any(b.isVisible() for b in owner.findChildren(QMessageBox)), timeout=5000)
    box = next(b for b in owner.findChildren(QMessageBox) if b.isVisible())
    assert box.windowTitle() == "Reading failed" and "bad bytes" in box.text() and "Traceback" in box.detailedText()
    box.close()


def test_finished_threads_are_reaped_and_idle_is_said(qtbot, owner):
    slot, done = WorkerSlot(owner), []
    with qtbot.waitSignal(slot.idle, timeout=5000):
        slot.start(_quick(1), done.append)
    assert done == [1] and not slot.running
    qtbot.waitUntil(lambda: not slot.findChildren(QThread), timeout=2000)  # deleted, not kept for the owner's life


def test_shutdown_cancels_and_waits(qtbot, owner):
    slot, done = WorkerSlot(owner), []

    def endless(cancel):
        while True:
            yield Progress("reading", 0, 0)

    slot.start(endless, done.append)
    qtbot.waitUntil(lambda: slot.running, timeout=5000)
    assert slot.shutdown(5000) and not slot.running and not slot.busy and done == []
