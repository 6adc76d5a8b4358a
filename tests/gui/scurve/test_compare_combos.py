"""The S-curve panel's Compare combos show whole preset names at 1280 x 800 and 1024 x 768, closed and opened."""

from __future__ import annotations

import pytest
from gui_helpers import scan_and_wait, set_test_params
from PySide6.QtWidgets import QStyle, QStyleOptionComboBox


def text_room(combo) -> int:
    """The width the closed combo gives its current text (its edit field, as the style lays it out)."""
    opt = QStyleOptionComboBox()
    combo.initStyleOption(opt)
    return (
        combo.style()
        .subControlRect(QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, combo)
        .width()
    )


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)])
def test_every_preset_name_fits_its_compare_combo(qtbot, window, corpus_dir, size):
    set_test_params(window)
    window.folders.open([str(corpus_dir[0])], scan_now=False)
    scan_and_wait(qtbot, window)
    window.resize(*size)
    window.tabs.setCurrentWidget(window.scurve_view)
    qtbot.waitUntil(lambda: window.scurve_view.scheme.compare[0].width() > 0 and window.width() == size[0])
    qtbot.wait(100)  # the panel's layout settles at the new size
    for combo in window.scurve_view.scheme.compare:
        names = [combo.itemText(i) for i in range(combo.count())]
        assert len(names) == 4 and any(n.startswith("balanced ") for n in names)  # none + the three presets
        widest = max(combo.fontMetrics().horizontalAdvance(n) for n in names)
        assert widest <= text_room(combo), f"{names} cut in a {combo.width()}-pixel combo"
        assert combo.view().minimumWidth() >= widest  # the opened list too
