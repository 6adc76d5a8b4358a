"""Side by side: the texts of a pair, shared passages highlighted (Unicode offsets too), scrolling linked, menus."""

from __future__ import annotations

import os

import pytest
from gui_helpers import running_threads
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

import lshdesk.core.passages as passages_module
from lshdesk.core.params import ScanParams
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.gui.widgets.side_by_side import SideBySide

PASSAGE = "Crème brûlée is the ﬁnest dessert in all of Lyon, says the café owner, Zoë Müller, every single morning"


@pytest.fixture
def view(qtbot):
    w = SideBySide()
    qtbot.addWidget(w)
    w.resize(1000, 600)
    w.show()
    yield w
    assert w.shutdown(5000) and not running_threads(w)


def scan_folder(folder, files: dict[str, str], threshold: float = 0.05):
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    result = run(scan([str(folder)], ScanParams(threshold=threshold)))
    names = export.display_paths(result)
    return result, names, {n: i for i, n in enumerate(names)}


def show(qtbot, view, result, names, a: int, b: int) -> None:
    with qtbot.waitSignal(view.shown, timeout=5000):
        view.show_pair(result, names, a, b)


def selected_texts(pane) -> list[str]:
    return [s.cursor.selectedText().replace("\u2029", "\n") for s in pane.text.extraSelections()]


def test_highlights_land_on_the_shared_passage_in_non_ascii_text(qtbot, view, tmp_path):
    files = {
        "a.txt": "😀😀 An opening line with its own words 🎉 here. "
        + PASSAGE
        + ". Then a closing line, alpha beta gamma.",
        "b.txt": "A completely different first sentence for this one. "
        + PASSAGE
        + ". And another ending, delta epsilon.",
    }
    result, names, idx = scan_folder(tmp_path, files)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    assert view.a.title.text() == "<b>a.txt</b>" and view.b.title.text() == "<b>b.txt</b>"
    assert view.a.text.toPlainText() == files["a.txt"]
    # Only the passage's 3-grams are shared, so in each text exactly the passage is highlighted: with emoji
    # (two UTF-16 units each) before it in a.txt, a code-point offset would land on the wrong characters.
    assert selected_texts(view.a) == [PASSAGE]
    assert selected_texts(view.b) == [PASSAGE]
    assert "highlighted" in view.figures.text()


def test_scrolling_one_text_scrolls_the_other(qtbot, view, tmp_path):
    line = "the same words on every line of both documents so they scroll together {}\n"
    files = {
        "long.txt": "".join(line.format(i) for i in range(400)),
        "short.txt": "".join(line.format(i) for i in range(200)),
    }
    result, names, idx = scan_folder(tmp_path, files)
    show(qtbot, view, result, names, idx["long.txt"], idx["short.txt"])
    a, b = view.a.text.verticalScrollBar(), view.b.text.verticalScrollBar()
    assert a.maximum() > b.maximum() > 0
    a.setValue(a.maximum())
    assert b.value() == b.maximum()
    b.setValue(b.maximum() // 2)
    assert abs(a.value() / a.maximum() - 0.5) < 0.05
    a.setValue(0)
    assert b.value() == 0


def test_the_context_menu_opens_the_file_and_its_folder(qtbot, view, tmp_path, monkeypatch):
    result, names, idx = scan_folder(tmp_path, {"x.txt": PASSAGE + " one", "y.txt": PASSAGE + " two"})
    show(qtbot, view, result, names, idx["x.txt"], idx["y.txt"])
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url) or True))
    menu = view.b.context_menu()
    actions = {a.text(): a for a in menu.actions()}
    actions["Open file"].trigger()
    actions["Show in folder"].trigger()
    path = str(tmp_path / "y.txt")
    assert opened == [QUrl.fromLocalFile(path), QUrl.fromLocalFile(os.path.dirname(path))]
    menu.deleteLater()


def test_a_file_gone_since_the_scan_is_shown_with_the_reason(qtbot, view, tmp_path):
    result, names, idx = scan_folder(tmp_path, {"x.txt": PASSAGE + " one", "y.txt": PASSAGE + " two"})
    os.remove(tmp_path / "y.txt")
    show(qtbot, view, result, names, idx["x.txt"], idx["y.txt"])
    assert view.b.text.toPlainText().startswith("[cannot show this file:")
    assert "vanished" in view.b.text.toPlainText()
    assert view.a.text.toPlainText() == PASSAGE + " one"


def test_texts_too_long_to_highlight_are_shown_plain(qtbot, view, tmp_path, monkeypatch):
    monkeypatch.setitem(passages_module.MAX_HIGHLIGHT_CHARS, "word", 50)
    result, names, idx = scan_folder(tmp_path, {"x.txt": PASSAGE + " one", "y.txt": PASSAGE + " two"})
    show(qtbot, view, result, names, idx["x.txt"], idx["y.txt"])
    assert view.a.text.extraSelections() == [] and view.b.text.toPlainText() == PASSAGE + " two"
    assert "too long to highlight" in view.figures.text()


def test_the_newest_selection_wins(qtbot, view, tmp_path):
    files = {"p.txt": PASSAGE + " p", "q.txt": PASSAGE + " q", "r.txt": PASSAGE + " r"}
    result, names, idx = scan_folder(tmp_path, files)
    view.show_pair(result, names, idx["p.txt"], idx["q.txt"])
    show(qtbot, view, result, names, idx["q.txt"], idx["r.txt"])
    qtbot.waitUntil(lambda: not running_threads(view), timeout=5000)
    assert (view.a.text.toPlainText(), view.b.text.toPlainText()) == (files["q.txt"], files["r.txt"])
    view.show_pair(result, names, idx["p.txt"], idx["r.txt"])
    view.clear()  # cleared while the pair is read: it is not shown
    qtbot.waitUntil(lambda: not running_threads(view), timeout=5000)
    assert view.a.text.toPlainText() == "" and "Select a pair" in view.figures.text()
