"""Help > About: opens without blocking, shows the version and every package that comes with lshdesk, with the
version and licence their installed metadata gives; closes."""

from __future__ import annotations

import re
from importlib import metadata

from PySide6.QtWidgets import QLabel

from lshdesk import __version__
from lshdesk.system.licences import normalise

# licences these packages are published under (their own metadata), as a reader would check them by hand
KNOWN = {"pyqtgraph": "MIT", "platformdirs": "MIT", "pypdf": "BSD-3-Clause", "lxml": "BSD-3-Clause"}


def test_about_opens_without_blocking_and_lists_every_bundled_package(qtbot, window):
    window.menu_actions.about.trigger()  # a modal exec() would never return offscreen
    about = window.about_dialog
    qtbot.waitExposed(about)
    assert about.isVisible()
    shown = " ".join(label.text() for label in about.findChildren(QLabel))
    assert f"lshdesk {__version__}" in shown and "MinHash" in shown
    rows = {
        normalise(about.table.item(r, 0).text()): [about.table.item(r, c).text() for c in range(1, 4)]
        for r in range(about.table.rowCount())
    }
    direct = {
        normalise(re.match(r"[A-Za-z0-9._-]+", r).group()) for r in metadata.requires("lshdesk") if "extra" not in r
    }
    assert direct <= set(rows)  # every requirement in pyproject
    # and the packages that come with them: Qt's bindings, pypdf[crypto]'s, python-docx's parser
    assert {"shiboken6", "cryptography", "lxml"} <= set(rows)
    assert "superqt" not in rows and "pytest" not in rows  # neither a test tool nor an unused package
    for name, (version, licence, use) in rows.items():
        assert version == metadata.version(name) and licence and use
    for name, licence in KNOWN.items():
        assert rows[name][1] == licence
    assert "LGPL-3.0" in rows["pyside6-essentials"][1] and rows["numpy"][1].startswith("BSD-3-Clause")
    assert rows["shiboken6"][2] == "needed by PySide6_Essentials"
    about.close_button.click()
    assert not about.isVisible()
