"""The compiled kernels made ready behind a window that is already usable (the first run compiles them, ~10 s).

``start()`` announces it before the window is built and runs it once the window is shown; views whose first
content needs the kernels (the Learn lessons) ask ``when_ready``. Until then the Scan button and the progress area say so; a scan
started meanwhile simply waits for the compiler. The thread cannot be stopped mid-compile: quitting waits for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

COMPILING = "Compiling lshdesk's kernels (first run only, ~10 s)…"
BUTTON = "Scan (kernels compiling…)"
PENDING_SCAN = "A scan started now waits for them."
LEARN_PENDING = (
    "The lessons compute with lshdesk's compiled kernels, which are being compiled (first run only, ~10 s).\n"
    "They open here as soon as they are ready."
)
KERNELS = ("tokens", "minhash", "banding", "pairs", "explore")  # every module of lshdesk.core.kernels warm_up uses
_running: list[KernelWarmUp] = []


class KernelWarmUp(QThread):
    """Runs ``workers.warm_up`` (kernels loaded from numba's cache, or compiled into it); ``ready`` carries '' or
    the error (a failed warm-up is not fatal: the first scan compiles what it needs)."""

    ready = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        from lshdesk.core.kernels.cache import is_cold

        self.cold = is_cold(KERNELS)
        self.done = False
        self.error = ""

    def run(self) -> None:
        from lshdesk.gui.workers import warm_up

        try:
            warm_up()
        except Exception as e:  # noqa: BLE001 - reported, and the scan compiles on demand
            logging.getLogger("lshdesk").warning("warming up the kernels failed", exc_info=e)
            self.error = f"{type(e).__name__}: {e}"
        self.done = True
        self.ready.emit(self.error)


def start(now: bool = True) -> KernelWarmUp:
    """Make the kernels ready in a thread; quitting the app waits for it. ``now=False``: announce it (views built
    meanwhile wait for it, see ``when_ready``) but leave the ``start()`` to the caller: the app starts it once the
    window is on screen, as the compiler holds the GIL most of the time and would slow the window's making."""
    app = QApplication.instance()
    thread = KernelWarmUp(app)
    app.aboutToQuit.connect(thread.wait)
    _running.append(thread)
    thread.finished.connect(lambda: _running.remove(thread) if thread in _running else None)
    if now:
        thread.start()
    return thread


def when_ready(slot: Callable[[], None]) -> bool:
    """Have ``slot`` called (on the GUI thread) when the running warm-up ends; False if none is running (then
    the kernels are ready or compile on demand: call it yourself). ``slot`` may be called twice: make it idempotent."""
    thread = next((t for t in _running if not t.done), None)
    if thread is None:
        return False
    thread.ready.connect(lambda _error: slot())
    return not thread.done  # it may have ended between the look and the connection: then the caller goes on


def pending_label() -> QLabel:
    """What a view shows in place of content that waits for the kernels (the Learn lessons)."""
    label = QLabel(LEARN_PENDING)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


def show_until_ready(window: QMainWindow, thread: KernelWarmUp, then: Callable[[], None]) -> None:
    """On a cold cache the Scan button and the status say the kernels compile; ``then`` runs once they are ready."""
    button = window.params_panel.scan_button
    text, tip = button.text(), button.toolTip()
    if thread.cold and not thread.done:
        button.setText(BUTTON)
        button.setToolTip(f"{COMPILING} {PENDING_SCAN}")
        window.progress.start(COMPILING)
        window.progress.cancel_button.hide()  # nothing to cancel: the compiler cannot be interrupted
    called = []

    def done(_error: str = "") -> None:
        if called:
            return
        called.append(True)
        button.setText(text)
        button.setToolTip(tip)
        if thread.cold and not window.is_scanning():
            error = thread.error
            window.progress.finish("Kernels compiled: ready." if not error else f"Kernels not warmed up: {error}")
        then()

    thread.ready.connect(done)
    if thread.done:
        done()
