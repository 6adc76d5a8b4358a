"""The compiled kernels made ready behind a window that is already usable (the first run compiles them, ~10 s).

Until they are ready the Scan button and the progress area say so; a scan started meanwhile simply waits for
the compiler. The thread cannot be stopped mid-compile: quitting then waits for it (at most the compile's time).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import QApplication, QMainWindow

COMPILING = "Compiling lshdesk's kernels (first run only, ~10 s)…"
BUTTON = "Scan (kernels compiling…)"


class KernelWarmUp(QThread):
    """Runs ``workers.warm_up`` (kernels loaded from numba's cache, or compiled into it); ``ready`` carries '' or
    the error (a failed warm-up is not fatal: the first scan compiles what it needs)."""

    ready = Signal(str)

    def run(self) -> None:
        from lshdesk.gui.workers import warm_up

        try:
            warm_up()
        except Exception as e:  # noqa: BLE001 - reported, and the scan compiles on demand
            logging.getLogger("lshdesk").warning("warming up the kernels failed", exc_info=e)
            self.ready.emit(f"{type(e).__name__}: {e}")
            return
        self.ready.emit("")


def warm_up_in_background(window: QMainWindow, then: Callable[[], None]) -> KernelWarmUp:
    """Make the kernels ready off the GUI thread, saying so on a cold cache; call ``then`` when they are."""
    from lshdesk.core.kernels.cache import is_cold

    button = window.params_panel.scan_button
    text, tip = button.text(), button.toolTip()
    cold = is_cold(("tokens", "minhash", "banding", "pairs", "explore"))
    if cold:
        button.setText(BUTTON)
        button.setToolTip(f"{COMPILING} A scan started now waits for them.")
        window.progress.start(COMPILING)
        window.progress.cancel_button.hide()  # nothing to cancel: the compiler cannot be interrupted
    thread = KernelWarmUp(window)

    def done(error: str) -> None:
        button.setText(text)
        button.setToolTip(tip)
        if cold and not window.is_scanning():
            window.progress.finish("Kernels compiled: ready." if not error else f"Kernels not warmed up: {error}")
        then()

    thread.ready.connect(done)
    app = QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(thread.wait)  # Qt drops the connection if the window (its parent) goes first
    thread.start()
    return thread
