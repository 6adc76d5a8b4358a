"""Help > About: opens without blocking, shows the version and the main libraries' licences, and closes."""

from __future__ import annotations

from importlib import metadata

from PySide6.QtWidgets import QLabel

from lshdesk import __version__

# the licences the project's dependencies are published under (from their own packages), as the About lists them
EXPECTED = {
    "PySide6 (Qt)": "LGPL-3.0",
    "pyqtgraph": "MIT",
    "NumPy": "BSD-3-Clause",
    "Numba": "BSD-2-Clause",
    "pypdf": "BSD-3-Clause",
    "python-docx": "MIT",
    "Beautiful Soup": "MIT",
    "markdown-it-py": "MIT",
    "striprtf": "BSD-3-Clause",
    "charset-normalizer": "MIT",
    "platformdirs": "MIT",
    "Dask (optional)": "BSD-3-Clause",
}


def test_about_opens_without_blocking_and_lists_the_licences(qtbot, window):
    window.actions.about.trigger()  # a modal exec() would never return offscreen
    about = window.about_dialog
    qtbot.waitExposed(about)
    assert about.isVisible()
    shown = " ".join(label.text() for label in about.findChildren(QLabel))
    assert f"lshdesk {__version__}" in shown and "MinHash" in shown
    assert about.licences() == EXPECTED
    versions = {about.table.item(r, 0).text(): about.table.item(r, 1).text() for r in range(about.table.rowCount())}
    assert versions["pyqtgraph"] == metadata.version("pyqtgraph")
    assert versions["NumPy"] == metadata.version("numpy")
    assert versions["PySide6 (Qt)"] == metadata.version("PySide6-Essentials")
    about.close_button.click()
    assert not about.isVisible()
