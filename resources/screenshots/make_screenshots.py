"""Make the README's screenshots: the real main window on the sample corpus, offscreen, one PNG per view.

Run from the repository: ``.venv/bin/python resources/screenshots/make_screenshots.py [OUT_DIR]`` (default resources/screenshots).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from lshdesk.gui.app import SAMPLE_THRESHOLD, make_window, sample_corpus  # noqa: E402

PAIR = ("notes/electric-kettle-review.txt", "notes/electric-kettle-review-edited.txt")


def wait(app: QApplication, until, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not until() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(20):
        app.processEvents()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "shots.ini"), QSettings.Format.IniFormat)
    w = make_window(settings)
    w.resize(1280, 800)
    w.show()
    w.params_panel.threshold.setValue(SAMPLE_THRESHOLD)
    w.open_folders([sample_corpus()])
    wait(app, lambda: w.state.result is not None and not w.is_scanning())

    def shot(name: str) -> None:
        wait(app, lambda: False, 0.3)
        w.grab().save(str(out / f"{name}.png"))
        print("wrote", out / f"{name}.png")

    shot("results")
    w.tour.hide()
    names = w.names
    pair = tuple(sorted((names.index(PAIR[0]), names.index(PAIR[1]))))
    w.state.select(pair)
    w.tabs.setCurrentWidget(w.side_by_side)
    shot("side-by-side")
    w.tabs.setCurrentWidget(w.signature_view)
    shot("signatures")
    if hasattr(w, "scurve_view"):
        w.tabs.setCurrentWidget(w.scurve_view)
        shot("s-curve")
    w.tabs.setCurrentWidget(w.learn)
    lesson = w.learn.sets
    if hasattr(lesson, "run_button"):
        lesson.run_button.click()
    shot("learn")
    w.close()
    w.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
