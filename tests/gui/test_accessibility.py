"""Screen readers (issue 31, item 15): the controls, tables and plots of the real window have an accessible name and
a description, and a results table's cells say their row's pair (or group, or document) and its similarity."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QGraphicsView,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollBar,
    QSpinBox,
    QTabBar,
    QTextEdit,
    QWidget,
)

from lshdesk.gui.dialogs.dataset_columns import DatasetColumns
from lshdesk.gui.dialogs.location import LocationDialog
from lshdesk.gui.dialogs.scan_warning import ScanWarning
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.plots.scurve_pairs import KIND_CAUGHT, KIND_MISSED
from lshdesk.gui.scurve.scheme import SchemeControls

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


def _visit_every_page(qtbot, window) -> None:
    """What a user opens in the window: every tab, every lesson and experiment page (its exercises unfolded), the
    S-curve's tables on both tabs, a pair's and a group's signature grid, both kinds of groups."""
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
    learn = window.learn
    window.tabs.setCurrentWidget(learn)
    for row in range(learn.list.count()):
        if learn.list.item(row).flags() & Qt.ItemFlag.ItemIsEnabled:
            learn.list.setCurrentRow(row)
            qtbot.waitUntil(lambda: learn.current_page().isVisible())
    for box in window.findChildren(ExerciseBox):
        if box.fold is not None:
            box.fold.setChecked(True)
    learn.demo.run()
    window.tabs.setCurrentWidget(window.scurve_view)
    window.scurve_view.tables.show()
    for i in range(window.scurve_view.tables.count()):
        window.scurve_view.tables.setCurrentIndex(i)
    result = window.state.result
    window.signature_view.show_docs((int(result.pairs.left[0]), int(result.pairs.right[0])))
    window.signature_view.show_docs(tuple(int(d) for d in result.groups[0]))
    window.results.group_mode.setCurrentIndex(window.results.group_mode.count() - 1)


def _open_every_dialog(qtbot, window, tmp_path, monkeypatch) -> list[QWidget]:
    """The dialogs a user opens from the window: Settings, About, Help, the action log, Not duplicates, Similar
    documents, a confirmation (Move to trash), the slow-scan warning, Open location and Open dataset (these two
    block: they are kept open for the walk). They are the window's children: ``unnamed(window)`` walks them."""
    kept: list[QWidget] = []

    def keep(dialog) -> int:
        kept.append(dialog)
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(LocationDialog, "exec", keep)
    monkeypatch.setattr(DatasetColumns, "exec", keep)
    for action in (a := window.menu_actions).settings, a.about, a.help, a.not_duplicates, window.acting.actions.log:
        action.trigger()
    window.similar.find(0)
    qtbot.waitUntil(lambda: window.similar.dialog is not None, timeout=10000)
    marks = np.zeros(len(window.state.result.docs), dtype=bool)
    marks[int(window.state.result.pairs.right[0])] = True
    window.state.set_marks(marks)
    window.acting.actions.trash.trigger()
    assert window.acting.confirm is not None and window.acting.confirm.isVisible()
    kept.append(ScanWarning("about 1.0 M candidate pairs, ~20 s", window))
    window.menu_actions.open_location.trigger()
    dataset = tmp_path / "rows.csv"
    dataset.write_text("id,body\nr1,the first row of text\nr2,the second row of text\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(dataset), ""))
    window.menu_actions.open_dataset.trigger()
    assert {type(d) for d in kept} >= {LocationDialog, DatasetColumns}
    return kept


def test_the_results_and_the_side_panels_leave_no_control_unnamed(scanned):
    window, _ = scanned
    for area in (window.results, window.corpus_panel, window.params_panel, window.side_by_side):
        assert unnamed(area) == [], type(area).__name__


def test_every_control_of_the_window_and_its_dialogs_is_named_and_described(qtbot, scanned, tmp_path, monkeypatch):
    window, _ = scanned
    _visit_every_page(qtbot, window)
    dialogs = _open_every_dialog(qtbot, window, tmp_path, monkeypatch)
    walked = [w for w in [window, *window.findChildren(QWidget)] if _interactive(w)]
    assert len(walked) > 300  # the walk reached the lessons, the S-curve, the grids and the dialogs
    for dialog in (window.settings_dialog, window.acting.confirm, window.not_duplicates.dialog, *dialogs):
        assert any(w.window() is dialog for w in walked), type(dialog).__name__
    found = unnamed(window)
    assert not found, f"{len(found)} controls a screen reader cannot tell:\n" + "\n".join(found)


def test_the_walk_finds_a_control_without_a_name_or_without_a_description(window):
    assert unnamed(window) == []
    bare = QPushButton()  # no text, no tooltip: nothing to say
    named = QSpinBox()
    named.setAccessibleName("Copies")  # a name but nothing on what it does
    for w in (bare, named):
        window.results.layout().addWidget(w)
    found = unnamed(window)
    assert len(found) == 2 and found[0].startswith("QPushButton ''") and found[1].startswith("QSpinBox 'Copies'")
    named.setAccessibleDescription("How many copies to keep")
    bare.setText("Keep")
    bare.setToolTip("Keep the marked files")  # Qt's description falls back to the tooltip
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


def test_a_slider_says_its_quantity_and_its_range_as_k_changes_it(qtbot):
    scheme = SchemeControls()
    qtbot.addWidget(scheme)
    for k in (128, 40):
        scheme.set_k(k, {})
        said = QAccessible.queryAccessibleInterface(scheme.b_slider).text(DESCRIPTION)
        assert said.startswith("Bands b: more bands catch more pairs") and said.endswith(f"(from 1 to {k})")
    scheme.r_slider.setRange(2, 9)  # a change that signals
    assert QAccessible.queryAccessibleInterface(scheme.r_slider).text(DESCRIPTION).endswith("(from 2 to 9)")


def _said(w: QWidget) -> str:
    return QAccessible.queryAccessibleInterface(w).text(DESCRIPTION)


def test_the_plots_and_the_grid_say_what_they_show_as_it_changes(qtbot, scanned):
    window, _ = scanned
    view = window.scurve_view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.figures is not None and view.workers.idle(), timeout=20000)
    for b in (view.scheme.b_spin.value(), 8):
        view.scheme.b_spin.setValue(b)
        qtbot.waitUntil(lambda b=b: view.plot.banding.bands == b and view.workers.idle(), timeout=20000)
        r, kinds = view.plot.banding.rows, view.plot.pairs.kind
        said = _said(view.plot)
        assert f"{b} x {r} = {b * r} slots" in said and f"threshold at {view.plot.t:.2f}" in said
        assert f"{np.count_nonzero(kinds == KIND_CAUGHT):,} caught" in said
        assert f"{np.count_nonzero(kinds == KIND_MISSED):,} missed" in said
    view.tables.setCurrentIndex(1)  # the buckets: the plot says its bars (sizes: how many buckets)
    sizes = view.figures.bucket_sizes
    assert f"{len(sizes):,} buckets, largest {int(sizes.max()):,} documents" in _said(view.tables.bucket_plot)
    assert f"2: {int(np.count_nonzero(sizes == 2)):,}" in _said(view.tables.bucket_plot)
    result = window.state.result
    grid = window.signature_view.grid
    assert "No signatures to show" in _said(grid.table)
    window.signature_view.show_docs((int(result.pairs.left[0]), int(result.pairs.right[0])))
    agree = len(grid.model.agreeing_slots())
    for w in (grid.table, grid.wrapped):
        assert f"2 documents · k = {grid.model.k}" in _said(w) and f"{agree} of {grid.model.k} slots agree" in _said(w)
