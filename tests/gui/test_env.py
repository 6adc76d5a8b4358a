"""Guards for the Qt environment: a real font renders text, and the binding does not leak references to None."""

import sys

import pytest
from PySide6 import QtGui, QtWidgets


def test_a_real_font_is_installed(qapp):
    # Without any font file every glyph renders as a box and nothing warns; QFontInfo's family is then empty.
    assert QtGui.QFontInfo(QtWidgets.QApplication.font()).family(), "no usable font: install fonts-dejavu-core"


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal on Python 3.12+, so the leak cannot show")
def test_binding_does_not_leak_refs_to_none(qtbot):
    # PySide6 6.12.0 drops a reference to None on every void call: on 3.11 the process later aborts (rc 134).
    w = QtWidgets.QWidget()
    qtbot.addWidget(w)
    before = sys.getrefcount(None)
    for _ in range(2000):
        w.setEnabled(True)
    assert sys.getrefcount(None) > before - 100, "PySide6 leaks references to None: use PySide6-Essentials<6.12"
