"""The main window's whole frame fits a 1024 x 640 and a 1280 x 800 screen, on a first run and with a restored layout.

Each screen size is a fresh process: the offscreen platform takes its screen (and real frame margins) from a config
file given at start-up (``offscreen:configfile=...``), and a QApplication cannot change platform once made.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMargins, QRect

from lshdesk.gui.screen_fit import clamped

# A first run, then the layouts a user saves on a larger screen: unmaximised, as big as the screen's client area,
# and placed partly off this screen (x, y, width, height of the client area).
DRIVE = r"""
import json, sys
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QApplication
from lshdesk.gui import settings_store
from lshdesk.gui.mainwindow import MainWindow

app = QApplication([])
settings = QSettings(sys.argv[1], QSettings.Format.IniFormat)
settings.setValue("cache/enabled", "false")
settings.setValue("tour/done", "true")
out = []

def shown(case, w):
    w.show()
    for _ in range(5):
        app.processEvents()
    out.append({"case": case, "frame": w.frameGeometry().getRect(), "avail": w.screen().availableGeometry().getRect(),
                "maximized": w.isMaximized()})
    w.close()

shown("first run", MainWindow(settings))
for rect in json.loads(sys.argv[2]):
    w = MainWindow(settings)
    w.showNormal()
    w.setGeometry(QRect(*rect))
    app.processEvents()
    settings_store.save_layout(settings, w, w.side)
    w.close()
    shown(f"restored {rect}", MainWindow(settings))
print(json.dumps(out))
"""
SAVED = [(0, 0, 1280, 800), (600, 300, 1280, 800), (0, 0, 1900, 1000)]


@pytest.mark.parametrize("screen", [(1024, 640), (1280, 800)])
def test_the_frame_fits_the_screen_first_run_and_restored(tmp_path: Path, screen):
    config = tmp_path / "screen.json"
    width, height = screen
    config.write_text(json.dumps({"windowFrameMargins": True, "screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": width, "height": height, "logicalDpi": 96, "dpr": 1}]}))  # fmt: skip
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parents[2]), env.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-c", DRIVE, str(tmp_path / "settings.ini"), json.dumps(SAVED)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    cases = json.loads(run.stdout.splitlines()[-1])
    assert len(cases) == 1 + len(SAVED)
    for case in cases:
        frame, avail = QRect(*case["frame"]), QRect(*case["avail"])
        assert avail == QRect(0, 0, width, height)
        assert frame.width() > 200 and frame.height() > 200, case
        assert avail.contains(frame), case  # title bar and status bar both on the screen
    assert cases[0]["maximized"]  # neither screen has room for 1280 x 800 and a frame
    assert not any(c["maximized"] for c in cases[1:])  # a restored normal window stays normal, only clamped


def test_clamped_shrinks_and_moves_the_client_so_its_frame_fits():
    available = QRect(0, 0, 1280, 800)
    margins = QMargins(1, 25, 1, 1)
    assert clamped(QRect(0, 0, 1280, 800), available, margins) == QRect(1, 25, 1278, 774)
    assert clamped(QRect(900, 700, 400, 300), available, margins) == QRect(879, 499, 400, 300)
    assert clamped(QRect(-50, -10, 400, 300), QRect(0, 30, 1280, 770), margins) == QRect(1, 55, 400, 300)
    assert clamped(QRect(100, 100, 400, 300), available, margins) == QRect(100, 100, 400, 300)  # fits: unchanged
