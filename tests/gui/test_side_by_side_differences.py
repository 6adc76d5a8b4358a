"""Side by side, Differences: the words deleted, inserted and changed marked in both texts, stepped through with F3,
and the pair opened in an external diff tool."""

from __future__ import annotations

import stat
import time

import pytest
from gui_helpers import running_threads
from PySide6.QtCore import Qt
from test_side_by_side import scan_folder, selected_texts, show

from lshdesk.core.differences import differences
from lshdesk.gui.settings_store import DIFF_TOOL_KEY
from lshdesk.gui.widgets.side_by_side import DIFF_TONES, SideBySide

BASE = [f"Line {i} of the report says the river rose by {i} centimetres near the mill." for i in range(120)]
BASE[60] = "The gauge at the weir was broken that week."  # B lacks it


@pytest.fixture
def view(qtbot, settings):
    w = SideBySide(settings)
    qtbot.addWidget(w)
    w.resize(1000, 600)
    w.show()
    yield w
    assert w.shutdown(5000) and not running_threads(w)


def _edited() -> tuple[str, str]:
    b = list(BASE)
    b[10] = b[10].replace("river", "lake")  # changed
    del b[60]  # deleted: a whole line of A
    b[100] = b[100] + " Nobody was hurt."  # inserted
    return "\n".join(BASE) + "\n", "\n".join(b) + "\n"


def _show_differences(qtbot, view, tmp_path):
    a, b = _edited()
    result, names, idx = scan_folder(tmp_path, {"a.txt": a, "b.txt": b}, threshold=0.5)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    view.diff_mode.click()
    qtbot.waitUntil(lambda: view.diff is not None, timeout=5000)
    return a, b


def test_the_differences_are_marked_in_both_texts_in_their_colours(qtbot, view, tmp_path):
    a, b = _show_differences(qtbot, view, tmp_path)
    want = differences(a, b)
    assert [c.kind for c in want.changes] == ["changed", "deleted", "inserted"]
    assert selected_texts(view.a) == [
        "river",
        BASE[60].rstrip("."),
    ]  # an insertion is a place in A: on the map, not selected
    assert selected_texts(view.b) == ["lake", "Nobody was hurt"]
    assert [m[2] for m in view.b.map.marks] == [DIFF_TONES[c.kind] for c in want.changes]
    assert view.legend.isVisible() and "3 differences: words 9 deleted, 3 inserted, 1 changed" in view.legend.text()
    assert view.where.text() == "3 differences" and view.next_button.text() == "Next difference"


def test_f3_goes_to_each_difference_and_ctrl_d_back_to_the_shared_passages(qtbot, view, tmp_path):
    a, b = _show_differences(qtbot, view, tmp_path)
    view.a.text.setFocus()
    for i, line in enumerate((BASE[10], BASE[60], BASE[100])):
        qtbot.keyClick(view.a.text, Qt.Key.Key_F3)
        assert view.where.text() == f"difference {i + 1} of 3"
        top = view.a.top_position()
        assert a.rfind("\n", 0, a.index(line)) + 1 <= top + 1 and a.index(line) < view.a.bottom_position()
    change = view.diff.changes[2]
    assert view.b.top_position() <= change.b[0] <= view.b.bottom_position()
    qtbot.keyClick(view.a.text, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert view.shared_mode.isChecked() and not view.legend.isVisible()
    assert [m[:2] for m in view.a.map.marks] == view.comparison.spans[0]
    assert view.where.text().endswith("shared passages")


def test_a_new_pair_never_shows_the_last_pairs_differences(qtbot, view, tmp_path):
    a, b = _show_differences(qtbot, view, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    result, names, idx = scan_folder(other, {"c.txt": a, "d.txt": a.replace("mill", "bridge")}, threshold=0.3)
    show(qtbot, view, result, names, idx["c.txt"], idx["d.txt"])
    qtbot.waitUntil(lambda: view.diff is not None, timeout=5000)  # still in Differences: computed for this pair
    assert {c.kind for c in view.diff.changes} == {"changed"} and len(
        view.diff.changes
    ) == 119  # every "mill" but the weir line


def _fake_tool(folder, log):
    tool = folder / "fakediff"
    tool.write_text(f'#!/bin/sh\nfor a in "$@"; do echo "$a" >> {log}; done\n')
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return tool


def test_open_in_diff_tool_runs_the_command_set_with_both_paths(qtbot, view, settings, tmp_path):
    log = tmp_path / "argv.log"
    tool = _fake_tool(tmp_path, log)
    settings.setValue(DIFF_TOOL_KEY, f"{tool} --two {{left}} {{right}}")
    docs = tmp_path / "docs with space"
    docs.mkdir()
    a, b = _edited()
    result, names, idx = scan_folder(docs, {"a.txt": a, "b.txt": b}, threshold=0.5)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    assert view.tool_button.isEnabled() and "fakediff" in view.tool_button.toolTip()
    view.tool_button.click()
    deadline = time.monotonic() + 5
    while not (log.exists() and len(log.read_text().splitlines()) == 3) and time.monotonic() < deadline:
        qtbot.wait(50)
    assert log.read_text().splitlines() == ["--two", str(docs / "a.txt"), str(docs / "b.txt")]


def test_with_no_diff_tool_the_button_says_what_to_do(qtbot, view, settings, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    a, b = _edited()
    result, names, idx = scan_folder(tmp_path, {"a.txt": a, "b.txt": b}, threshold=0.5)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    assert not view.tool_button.isEnabled() and "No diff tool found (meld" in view.tool_button.toolTip()
    settings.setValue(DIFF_TOOL_KEY, "nosuchtool {left} {right}")
    show(qtbot, view, result, names, idx["b.txt"], idx["a.txt"])
    assert not view.tool_button.isEnabled() and "cannot be run: nosuchtool" in view.tool_button.toolTip()
