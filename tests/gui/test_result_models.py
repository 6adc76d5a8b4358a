"""The result models over arrays: Qt's model tester, sorting, filtering, and selections that follow their rows."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from gui_helpers import SKIPPED, table
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt

from lshdesk.core.humanize import human_size
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.gui.models.groups import GroupsModel
from lshdesk.gui.models.results import DocumentsModel, PairsModel


@pytest.fixture(scope="module")
def result(corpus_dir):
    root, _ = corpus_dir
    return run(scan([str(root)], ScanParams(threshold=0.3, banding=Banding(64, 2))))


@pytest.fixture
def names(result):
    return export.display_paths(result)


def test_pairs_model_passes_the_model_tester(qtmodeltester, result, names):
    model = PairsModel()
    model.set_result(result, names)
    assert model.rowCount() == len(result.pairs) == 6
    qtmodeltester.check(model)
    model.sort(2, Qt.SortOrder.AscendingOrder)  # the tester keeps watching while the rows move
    model.set_filter("notes")
    model.sort(0, Qt.SortOrder.DescendingOrder)
    model.set_filter("")
    model.set_result(None, [])
    assert model.rowCount() == 0 and model.columnCount() == 0


def test_documents_model_passes_the_model_tester(qtmodeltester, result, names):
    model = DocumentsModel()
    model.set_result(result, names)
    assert model.rowCount() == len(result.docs) + len(SKIPPED)
    qtmodeltester.check(model)
    model.sort(4, Qt.SortOrder.DescendingOrder)
    model.set_filter("skipped")
    assert model.rowCount() == len(SKIPPED)
    assert all(model.doc_at(r) is None for r in range(model.rowCount()))


def test_documents_show_sizes_as_the_rest_of_the_app_does(result, names):
    # sizes on both sides of each unit step, so a table with its own formatting would differ somewhere
    sizes = np.resize(np.array([0, 812, 1023, 1024, 4300, 1_363_149, 3 << 30], dtype=np.int64), len(result.docs))
    model = DocumentsModel()
    model.set_result(replace(result, docs=replace(result.docs, size=sizes)), names)
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    shown = [model.data(model.index(r, headers.index("Size"))) for r in range(model.rowCount())]
    assert shown[: len(sizes)] == [human_size(int(n)) for n in sizes]
    assert shown[len(sizes) :] == [""] * len(SKIPPED)  # a skipped file has no size


def test_groups_model_passes_the_model_tester(qtmodeltester, result, names):
    model = GroupsModel()
    model.set_result(result, names)
    assert model.rowCount() == len(result.groups) == 5
    qtmodeltester.check(model)
    for g, members in enumerate(result.groups):
        top = model.index(g, 0)
        assert model.rowCount(top) == len(members)
        assert model.members(top) == tuple(members.tolist())
        child = model.index(0, 0, top)
        assert model.parent(child) == top and model.members(child) == (int(members[0]),)
        assert model.group_of(child) == tuple(members.tolist())
        assert model.data(child, Qt.ItemDataRole.ToolTipRole) == result.docs.paths[int(members[0])]
    model.set_result(None, [])
    assert model.rowCount() == 0


def test_sorting_orders_rows_by_value_and_names_as_shown_file_name_first(result, names):
    model = PairsModel()
    model.set_result(result, names)
    for col in (2, 3, 4):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            model.sort(col, order)
            values = [float(r[col]) for r in table(model)]
            assert values == sorted(values, reverse=order == Qt.SortOrder.DescendingOrder)
    model.sort(1, Qt.SortOrder.AscendingOrder)
    b = [r[1] for r in table(model)]
    shown = [(n.rsplit("/", 1)[-1].lower(), n.rsplit("/", 1)[0].lower() if "/" in n else "") for n in b]
    assert shown == sorted(shown) and len(set(b)) > 2  # by file name, then by folder, case-insensitively
    assert b != sorted(b, key=str.lower)  # the corpus has names that sort otherwise by their whole path
    # data_row and view_row are inverse maps; the UserRole is the data row
    for row in range(model.rowCount()):
        d = model.data_row(row)
        assert model.view_row(d) == row == model.view_row(model.data(model.index(row, 0), Qt.ItemDataRole.UserRole))
        assert model.pair_at(row, result) == (int(result.pairs.left[d]), int(result.pairs.right[d]))


def test_filtering_keeps_rows_matching_every_word(result, names):
    model = DocumentsModel()
    model.set_result(result, names)
    model.set_filter("  ALPHA   notes ")
    assert sorted(r[0] for r in table(model)) == ["alpha/notes-a.txt", "alpha/notes-b.txt"]
    model.set_filter("binary")  # matches the reason column too
    assert [r[0] for r in table(model)] == ["alpha/binary.txt"]
    model.set_filter("no such file")
    assert model.rowCount() == 0
    assert model.view_row(0) == -1


def test_a_selected_row_stays_on_its_pair_when_the_table_is_sorted(qtbot, result, names):
    from PySide6.QtWidgets import QTableView

    model = PairsModel()
    model.set_result(result, names)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    model.sort(2, Qt.SortOrder.DescendingOrder)
    view.selectionModel().select(
        model.index(0, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    )
    chosen = model.pair_at(0, result)
    model.sort(2, Qt.SortOrder.AscendingOrder)
    rows = view.selectionModel().selectedRows()
    assert len(rows) == 1 and rows[0].row() == model.rowCount() - 1
    assert model.pair_at(rows[0].row(), result) == chosen


def test_models_answer_out_of_range_requests_with_nothing(result, names):
    model = PairsModel()
    model.set_result(result, names)
    assert model.data(model.index(99, 0)) is None
    assert model.data(QModelIndex()) is None
    assert model.headerData(9, Qt.Orientation.Horizontal) is None
    assert model.headerData(0, Qt.Orientation.Vertical) is None
    groups = GroupsModel()
    groups.set_result(result, names)
    assert not groups.index(99, 0).isValid() and not groups.index(0, groups.columnCount()).isValid()
    assert groups.rowCount(groups.index(0, 1)) == 0  # only column 0 has children


def test_groups_reach_the_tree_a_few_hundred_at_a_time_and_all_as_it_scrolls(qtbot, qtmodeltester, result, names):
    from PySide6.QtWidgets import QTreeView

    from lshdesk.gui.models.groups import FETCH_ROWS

    n = len(result.docs)
    many = [np.array([i % n, (i + 1) % n], dtype=np.int64) for i in range(2 * FETCH_ROWS + 7)]
    model = GroupsModel()
    model.set_result(replace(result, groups=many, group_min=np.ones(len(many))), names)
    assert model.rowCount() == FETCH_ROWS and model.canFetchMore()  # a tree lays out every row it knows of
    qtmodeltester.check(model)
    view = QTreeView()
    view.setModel(model)
    view.resize(600, 300)
    qtbot.addWidget(view)
    view.show()
    bar = view.verticalScrollBar()
    for _ in range(10):  # the user scrolls to the bottom: the view asks for the next rows
        bar.setValue(bar.maximum())
        qtbot.wait(5)
    assert model.rowCount() == len(many) and not model.canFetchMore()
    last = model.index(len(many) - 1, 0)
    said = model.data(last, Qt.ItemDataRole.AccessibleTextRole)
    assert said.startswith(f"Group {len(many)} of {len(many)}, 2 documents")
    assert model.members(last) == tuple(many[-1].tolist())
    model.set_result(result, names)  # a new result starts again from its first rows
    assert model.rowCount() == len(result.groups)
