"""Screen readers (issue 31, item 15): the controls, tables and plots of the real window have an accessible name and
a description, and a results table's cells say their row's pair (or group, or document) and its similarity."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsView,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

CONTROLS = (
    QAbstractButton,
    QComboBox,
    QLineEdit,
    QAbstractSpinBox,
    QAbstractSlider,
    QAbstractItemView,
    QTabBar,
    QTextEdit,
    QPlainTextEdit,
    QGraphicsView,
)
NAME, DESCRIPTION = QAccessible.Text.Name, QAccessible.Text.Description


def _part_of_a_control(w: QWidget) -> bool:
    """Qt's own pieces of a control, which speaks for them: a spin box's or combo box's line edit and list, a line
    edit's clear button, a scroll area's bars, a table's headers and corner button, a tab bar's arrows, the bars' overflow buttons."""
    if isinstance(w, (QHeaderView, QScrollBar)) or w.objectName() in ("ScrollLeftButton", "ScrollRightButton"):
        return True
    if w.objectName().startswith("qt_") and not isinstance(w, QTabBar):
        return True
    parent = w.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractSpinBox, QLineEdit)):
            return True
        parent = parent.parentWidget()
    return False


def _interactive(w: QWidget) -> bool:
    own = type(w).__module__.startswith("lshdesk") and w.focusPolicy() != Qt.FocusPolicy.NoFocus
    return (isinstance(w, CONTROLS) or own) and not _part_of_a_control(w)


def _where(w: QWidget) -> str:
    where, parent = [], w.parentWidget()
    while parent is not None and len(where) < 3:
        where.append(type(parent).__name__)
        parent = parent.parentWidget()
    return "/".join(where)


def unnamed(root: QWidget) -> list[str]:
    """Every interactive widget below ``root`` without an accessible name or description, said where it is."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        if not _interactive(w):
            continue
        iface = QAccessible.queryAccessibleInterface(w)
        if isinstance(w, QTabBar):  # a tab bar has no description of its own: each tab speaks (its tooltip)
            said = [(iface.child(i).text(NAME), iface.child(i).text(DESCRIPTION)) for i in range(w.count())]
        else:
            said = [(iface.text(NAME), iface.text(DESCRIPTION)) if iface is not None else ("", "")]
        for name, description in said:
            if name.strip() and description.strip():
                continue
            out.append(f"{type(w).__name__} {name!r} (description {description!r}) in {_where(w)}")
    return out


def test_the_results_and_the_side_panels_leave_no_control_unnamed(scanned):
    window, _ = scanned
    for area in (window.results, window.corpus_panel, window.params_panel, window.side_by_side):
        assert unnamed(area) == [], type(area).__name__


@pytest.mark.xfail(
    strict=True,
    reason="issue 31, item 15 is not done there: ~55 controls of the Learn lessons, the S-curve's tables and plots "
    "and the Signatures grid have no description yet (unnamed(window) lists them); strict: passing fails it",
)
def test_every_control_of_the_window_is_named_and_described(window):
    assert unnamed(window) == []


def test_a_results_cell_says_its_pair_and_similarity(scanned):
    window, _ = scanned
    view, model = window.results.pairs, window.results.pairs_model
    result = window.state.result
    table = QAccessible.queryAccessibleInterface(view)
    cells = [table.child(i) for i in range(table.childCount())]
    said = [c.text(NAME) for c in cells if c.role() == QAccessible.Role.Cell]
    assert len(said) >= model.columnCount()
    for row in range(min(model.rowCount(), 3)):
        left, right = model.pair_at(row, result)
        jac = result.pairs.jaccard[model.data_row(row)]
        row_said = said[row * model.columnCount() : (row + 1) * model.columnCount()]
        for text in row_said:  # every cell: a reader moving down any column hears which pair it is on
            assert f"similarity {jac:.3f}" in text
            assert all(window.names[d].rsplit("/", 1)[-1] in text for d in (left, right))
    headers = [c for c in cells if c.role() == QAccessible.Role.ColumnHeader]
    assert all(h.text(DESCRIPTION) for h in headers[:4])  # what each column means
