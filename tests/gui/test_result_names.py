"""Names that read at a glance (issue 31, items 5 and 10): file name first, the folder where paths differ, group
titles that tell groups apart, the full path on hover, the Folders column whole, and the filter narrowing Groups."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.gui.models import groups as groups_module
from lshdesk.gui.models.groups import GroupsModel
from lshdesk.gui.models.names import NAME_ROLE, group_title
from lshdesk.gui.widgets.name_delegate import fit_name
from lshdesk.gui.widgets.result_tables import ALL_MAX
from lshdesk.gui.widgets.results_view import ResultsView

PACKAGES = ("libvirt-daemon", "libvirt-clients", "vim-tiny", "vim-runtime", "python3-venv", "python3-pip")


@pytest.fixture(scope="module")
def debian(tmp_path_factory):
    """debian-doc/<pkg>/NEWS.Debian.txt in six packages, pairs of packages sharing a text (three groups)."""
    root = tmp_path_factory.mktemp("debian")
    for i, pkg in enumerate(PACKAGES):
        folder = root / "debian-doc" / pkg
        folder.mkdir(parents=True)
        text = " ".join(f"w{i // 2}x{j}" for j in range(150))  # the two packages of a group share their words
        (folder / "NEWS.Debian.txt").write_text(f"{text} {pkg} changed")
    result = run(scan([str(root)], ScanParams(threshold=0.5, banding=Banding(64, 2))))
    return result, export.short_paths(result)


def test_a_name_cut_to_a_column_keeps_its_file_name_and_the_folder_that_differs(qapp):
    fm = QFontMetrics(QApplication.font())
    path = "debian-doc/vim-tiny/NEWS.Debian.txt"
    width = fm.horizontalAdvance("NEWS.Debian.txt" + "   …/vim-tiny") + 2
    assert "vim-tiny" not in fm.elidedText(path, Qt.TextElideMode.ElideMiddle, width)  # what the tables showed
    file, folder = fit_name(fm, width, "NEWS.Debian.txt", "debian-doc/vim-tiny")
    assert file == "NEWS.Debian.txt" and folder.endswith("vim-tiny") and folder.startswith("…")
    assert fit_name(fm, fm.horizontalAdvance("NEWS.Debian.txt"), "NEWS.Debian.txt", "debian-doc/vim") == (
        "NEWS.Debian.txt",
        "",
    )  # no room for a folder: the file name alone, whole


def test_group_titles_name_what_differs_between_groups():
    same_file = group_title(["debian-doc/vim-tiny/NEWS.Debian.txt", "debian-doc/vim-runtime/NEWS.Debian.txt"])
    assert same_file == "NEWS.Debian.txt in vim-tiny, vim-runtime"
    assert group_title(["docs/a.txt", "docs/b.txt"]) == "a.txt, b.txt in docs"
    assert group_title(["a/x.txt", "b/y.txt"]) == "x.txt, y.txt in a, b"
    assert group_title(["x.txt", "y.txt"]) == "x.txt, y.txt"


def test_the_groups_tree_titles_differ_and_name_cells_show_file_then_folder(debian):
    result, names = debian
    model = GroupsModel()
    model.set_result(result, names)
    assert model.rowCount() == 3
    titles = [model.data(model.index(g, 0)) for g in range(3)]
    assert len(set(titles)) == 3
    for g, title in enumerate(titles):
        packages = {names[d].split("/")[1] for d in model.members(model.index(g, 0))}
        assert title.startswith("NEWS.Debian.txt in ") and all(p in title for p in packages)
        member = model.index(0, 0, model.index(g, 0))
        doc = model.members(member)[0]
        assert model.data(member, NAME_ROLE) == ("NEWS.Debian.txt", f"debian-doc/{names[doc].split('/')[1]}")
        assert model.data(member, Qt.ItemDataRole.ToolTipRole) == result.docs.paths[doc]  # the full path


def test_pair_names_hover_with_their_full_path_and_the_folders_column_is_whole(qtbot, debian):
    result, names = debian
    two = replace(result, roots=(result.roots[0], result.roots[0] + "-reference"), reference=(1,))
    two = replace(two, docs=replace(two.docs, root=np.arange(len(two.docs)) % 2))
    view = ResultsView()
    qtbot.addWidget(view)
    view.resize(1920, 900)
    view.show()
    view.set_result(two, export.short_paths(two))
    model, table = view.pairs_model, view.pairs
    for row in range(model.rowCount()):
        left, right = model.pair_at(row, two)
        assert model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole) == two.docs.paths[left]
        assert model.data(model.index(row, 1), Qt.ItemDataRole.ToolTipRole) == two.docs.paths[right]
    fm = table.fontMetrics()
    widest = max(fm.horizontalAdvance(model.data(model.index(r, 5))) for r in range(model.rowCount()))
    assert 160 < widest < ALL_MAX and table.columnWidth(5) > widest  # it was 160 px, cut even at 1920
    view.resize(700, 600)  # the Results at 1024 px: the names keep three quarters of the table
    view.set_result(two, export.short_paths(two))
    assert table.columnWidth(5) <= table.viewport().width() // 4


def test_the_filter_narrows_the_groups_as_it_does_pairs_and_documents(qtbot, debian):
    result, names = debian
    view = ResultsView()
    qtbot.addWidget(view)
    view.set_result(result, names)
    view.filter.setText("VIM news")
    groups = view.groups_model
    assert groups.rowCount() == 1 and view.tabs.tabText(1) == "Groups (1 of 3)"
    shown = {names[d] for d in groups.members(groups.index(0, 0))}
    assert shown == {"debian-doc/vim-tiny/NEWS.Debian.txt", "debian-doc/vim-runtime/NEWS.Debian.txt"}
    assert view.pairs_model.rowCount() == 1  # the Pairs table agrees
    member = groups.index(1, 0, groups.index(0, 0))
    assert groups.parent(member) == groups.index(0, 0) and groups.group_of(member) == groups.members(member.parent())
    view.group_mode.setCurrentIndex(1)  # strict groups, filtered too
    assert groups.rowCount() == 1
    view.filter.clear()
    assert groups.rowCount() == 3 and view.tabs.tabText(1) == "Groups (3)"


def test_switching_linked_and_strict_groups_works_each_out_once(qtbot, debian, monkeypatch):
    result, names = debian
    calls = []
    real = groups_module.strict_groups
    monkeypatch.setattr(groups_module, "strict_groups", lambda pairs: calls.append(1) or real(pairs))
    view = ResultsView()
    qtbot.addWidget(view)
    view.set_result(result, names)
    for mode in (1, 0, 1, 0, 1):
        view.group_mode.setCurrentIndex(mode)
    assert len(calls) == 1 and view.groups_model.rowCount() == 3
    view.set_result(result, list(names))  # a new result (or new names): worked out again
    assert len(calls) == 2
