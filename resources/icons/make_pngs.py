"""Render the app icon (app.svg) to the PNG sizes a desktop's icon theme wants: app-16.png ... app-256.png.

Run from the repository after changing app.svg: ``.venv/bin/python resources/icons/make_pngs.py`` (offscreen).
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

from lshdesk.system.desktop import PNG_SIZES  # noqa: E402

HERE = Path(__file__).resolve().parent


def main() -> None:
    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - fonts need an application
    renderer = QSvgRenderer(str(HERE / "app.svg"))
    for size in PNG_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(HERE / f"app-{size}.png"))


if __name__ == "__main__":
    main()
