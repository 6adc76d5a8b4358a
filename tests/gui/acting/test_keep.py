"""Keep this one: the user's document of a group is kept (bold), the others marked, a rule leaves that group alone,
the choice survives a rescan of unchanged files, and the confirmation shows what stays group by group."""

from __future__ import annotations

import os

from gui_helpers import scan_and_wait
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from test_acting import _mark, scanned  # noqa: F401 (the fixture)


def _member_row(window, name):
    """The Groups tree's index of the member named ``name``."""
    model = window.results.groups_model
    for g in range(model.rowCount()):
        parent = model.index(g, 0)
        for m in range(model.rowCount(parent)):
            index = model.index(m, 0, parent)
            doc = model.members(index)[0]
            if os.path.basename(window.state.result.docs.paths[doc]) == name:
                return index, doc
    raise AssertionError(name)


def _names(window, mask):
    return sorted(os.path.basename(p) for p, m in zip(window.state.result.docs.paths, mask) if m)


def test_k_keeps_the_current_document_and_marks_the_others_of_its_group(qtbot, scanned):  # noqa: F811
    window, tmp = scanned
    groups = window.results.groups
    window.tabs.setCurrentWidget(window.results)
    window.results.tabs.setCurrentWidget(groups)
    index, doc = _member_row(window, "g1_copy_c.txt")
    groups.setCurrentIndex(index)
    groups.setFocus()
    qtbot.keyClick(groups, Qt.Key.Key_K)
    assert _names(window, window.state.kept) == ["g1_copy_c.txt"]
    assert _names(window, window.state.marks) == ["g1_a.txt", "g1_b.txt"]
    font = groups.model().data(index, Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.bold()
    other, _ = _member_row(window, "g1_a.txt")
    assert not (groups.model().data(other, Qt.ItemDataRole.FontRole) or QFont()).bold()
    window.acting.marks.by_rule("largest")  # g1's kept choice overrides the rule there; the other groups follow it
    assert "g1_copy_c.txt" not in _names(window, window.state.marks)
    assert {"g1_a.txt", "g1_b.txt"} <= set(_names(window, window.state.marks))


def test_the_choice_survives_a_rescan_and_shows_in_the_confirmation(qtbot, scanned):  # noqa: F811
    window, tmp = scanned
    _, doc = _member_row(window, "g2_b.txt")
    window.acting.marks.keep_this_one(doc)
    scan_and_wait(qtbot, window)  # unchanged files
    assert _names(window, window.state.kept) == ["g2_b.txt"]
    window.acting.marks.by_rule("oldest")
    assert "g2_b.txt" not in _names(window, window.state.marks)
    window.acting.actions.trash.trigger()
    dialog = window.acting.confirm
    headers = [dialog.model.headerData(c, Qt.Orientation.Horizontal) for c in range(dialog.model.columnCount())]
    assert headers[-2:] == ["Group", "Stays in its group"]
    stays = {
        os.path.basename(dialog.model.data(dialog.model.index(r, 0))): dialog.model.data(
            dialog.model.index(r, len(headers) - 1)
        )
        for r in range(dialog.model.rowCount())
    }
    assert stays["g2_a.txt"].endswith("g2_b.txt") and stays["g2_copy_c.txt"] == stays["g2_a.txt"]
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
