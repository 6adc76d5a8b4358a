"""Side by side: the texts of a pair, shared passages highlighted (Unicode offsets too), scrolling linked, menus."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from gui_helpers import running_threads
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QDesktopServices

from lshdesk.core.params import ScanParams
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingle_kinds import KINDS
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
    a.setValue(a.maximum())  # past the lines B has too: B as far down as it goes
    assert b.value() == b.maximum()
    b.setValue(b.maximum() // 2)  # the same line at the top of both
    top = lambda pane: pane.text.cursorForPosition(QPoint(0, 0)).block().text()  # noqa: E731
    assert top(view.a) == top(view.b) != ""
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
    monkeypatch.setitem(KINDS, "word", replace(KINDS["word"], highlight_chars=50))
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


def _filler(seed: int, n_lines: int) -> str:
    import random

    rng = random.Random(seed)
    vocab = [f"word{i}" for i in range(3000)]
    return "".join(" ".join(rng.choices(vocab, k=9)) + "\n" for _ in range(n_lines))


def _visible(pane) -> tuple[int, int]:
    return pane.top_position(), pane.bottom_position()


def test_a_passage_scrolled_to_on_one_side_shows_its_match_on_the_other(qtbot, view, tmp_path):
    passage = _filler(1, 12)
    files = {"a.txt": _filler(2, 40) + passage + _filler(3, 40), "b.txt": _filler(4, 200) + passage + _filler(5, 60)}
    result, names, idx = scan_folder(tmp_path, files)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    at_a, at_b = files["a.txt"].index(passage), files["b.txt"].index(passage)
    assert len(files["b.txt"]) > 2.5 * len(files["a.txt"])  # linking by proportion would show unrelated text
    view.a.scroll_to(at_a)
    first, last = _visible(view.b)
    assert first <= at_b + 20 and at_b + 200 <= last  # B shows its copy of the passage, from its start
    view.a.text.verticalScrollBar().setValue(0)
    view.b.scroll_to(at_b + len(passage) // 2)  # and the other way round
    first, last = _visible(view.a)
    assert first <= at_a + len(passage) // 2 <= last


def test_next_and_previous_shared_passage_by_button_and_key(qtbot, view, tmp_path):
    one, two = _filler(6, 8), _filler(7, 8)
    files = {
        "a.txt": _filler(8, 30) + one + _filler(9, 60) + two + _filler(10, 30),
        "b.txt": _filler(11, 150) + one + _filler(12, 150) + two + _filler(13, 100),
    }
    result, names, idx = scan_folder(tmp_path, files)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    spans = view.comparison.spans[0]
    assert len(spans) == 2 and view.where.text() == "2 shared passages"
    assert not view.prev_button.isEnabled() and view.next_button.isEnabled()
    view.a.text.setFocus()
    qtbot.keyClick(view.a.text, Qt.Key.Key_F3)
    assert view.passage == 0 and view.where.text() == "passage 1 of 2"
    first, last = _visible(view.b)
    assert first <= files["b.txt"].index(one) <= last
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.passage == 1 and not view.next_button.isEnabled()
    first, last = _visible(view.b)
    assert first <= files["b.txt"].index(two) <= last
    first, last = _visible(view.a)
    assert first <= files["a.txt"].index(two) <= last
    qtbot.keyClick(view.a.text, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert view.passage == 0
    assert [m[:2] for m in view.a.map.marks] == spans and [m[:2] for m in view.b.map.marks] == view.comparison.spans[1]


def test_identical_texts_wear_a_badge(qtbot, view, tmp_path):
    text = _filler(14, 20)
    result, names, idx = scan_folder(tmp_path, {"x.txt": text, "y.txt": text, "z.txt": text + _filler(15, 5)})
    show(qtbot, view, result, names, idx["x.txt"], idx["y.txt"])
    assert view.badge.isVisible()
    show(qtbot, view, result, names, idx["x.txt"], idx["z.txt"])
    assert not view.badge.isVisible()


def test_a_pair_the_scan_does_not_report_says_so(qtbot, view, tmp_path):
    from lshdesk.core.params import Banding

    base = _filler(16, 20)
    files = {"p.txt": base, "q.txt": base.replace("word1", "other", 30)[: len(base) * 3 // 4], "r.txt": _filler(17, 20)}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    strict = run(scan([str(tmp_path)], ScanParams(threshold=0.05, banding=Banding(1, 128))))  # one band of 128 rows
    names = export.display_paths(strict)
    idx = {n: i for i, n in enumerate(names)}
    assert len(strict.pairs) == 0  # J ~ 0.5: reaches 0.05, but one band of 128 rows practically never agrees
    show(qtbot, view, strict, names, idx["p.txt"], idx["q.txt"])
    assert view.note.isVisible() and "does not report this pair" in view.note.text() and "1 x 128" in view.note.text()
    show(qtbot, view, strict, names, idx["p.txt"], idx["r.txt"])
    assert "below the threshold" in view.note.text()
    loose = run(scan([str(tmp_path)], ScanParams(threshold=0.05)))
    show(qtbot, view, loose, names, idx["p.txt"], idx["q.txt"])
    assert not view.note.isVisible()


def test_a_containment_pair_says_which_lines_of_the_container_hold_the_excerpt(qtbot, view, tmp_path):
    import dataclasses

    from lshdesk.core.query.corpus import containment_scan

    words = PASSAGE.replace(",", "").split()
    lines = [" ".join(f"{w}{i}x{j}" for j, w in enumerate(words[:10])) for i in range(100)]  # 100 distinct lines
    first, last = 60, 79
    (tmp_path / "report.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "excerpt.txt").write_text("\n".join(lines[first : last + 1]), encoding="utf-8")
    params = dataclasses.replace(ScanParams(threshold=0.8), measure="containment")
    result = run(containment_scan([str(tmp_path)], params))
    names = export.display_paths(result)
    assert len(result.pairs) == 1
    left, right = int(result.pairs.left[0]), int(result.pairs.right[0])
    assert names[right] == "report.txt"
    share = len("\n".join(lines[first : last + 1])) / len("\n".join(lines) + "\n")
    for a, b in ((left, right), (right, left)):  # whichever side the container is shown on
        show(qtbot, view, result, names, a, b)
        assert view.excerpt.isVisible()
        assert (
            f"The excerpt is <b>lines {first + 1}-{last + 1} ({share * 100:.0f} %) of report.txt" in view.excerpt.text()
        )
    # a Jaccard scan of the same pair says nothing of an excerpt
    jac = run(scan([str(tmp_path)], ScanParams(threshold=0.1)))
    show(qtbot, view, jac, export.display_paths(jac), 0, 1)
    assert view.excerpt.isHidden()


def test_one_shared_passage_is_said_in_the_singular(qtbot, view, tmp_path):
    """Issue 31, item 14: it said "1 shared passages"."""
    one = _filler(6, 8)
    files = {"a.txt": _filler(8, 30) + one + _filler(9, 60), "b.txt": _filler(11, 150) + one + _filler(12, 150)}
    result, names, idx = scan_folder(tmp_path, files)
    show(qtbot, view, result, names, idx["a.txt"], idx["b.txt"])
    assert len(view.comparison.spans[0]) == 1 and view.where.text() == "1 shared passage"
