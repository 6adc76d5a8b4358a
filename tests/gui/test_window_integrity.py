"""The window under hostile names, failing disks and crafted sessions: every export valid UTF-8 with the exact
name recoverable, a failed write keeps the old file, and a crafted session is refused with a clear message."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import resource
from contextlib import contextmanager

import numpy as np
import pytest
import session_craft as crafted
from gui_helpers import scan_and_wait, set_test_params, wait_written
from PySide6.QtWidgets import QFileDialog, QMessageBox

from lshdesk.core.persistence.session import SessionError, load_session, save_session
from lshdesk.gui import file_actions

BAD = b"caf\xff\xfe.txt"
TEXT = "the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun " * 6


@pytest.fixture
def scanned(qtbot, window, tmp_path):
    """The window after scanning a folder whose near-copies include a name that is not UTF-8 and a formula."""
    root = tmp_path / "docs"
    root.mkdir()
    with open(os.path.join(os.fsencode(root), BAD), "wb") as f:
        f.write(TEXT.encode())
    (root / "=1+1.txt").write_text(TEXT + " again")
    (root / "copy.txt").write_text(TEXT + " and once more")
    set_test_params(window, 0.5)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    assert len(window.state.result.pairs) == 3
    return window


def test_every_export_of_the_window_is_utf8_and_keeps_the_exact_name(qtbot, scanned, tmp_path, monkeypatch):
    window = scanned
    for fmt in ("csv", "json", "groups", "html"):
        window.files.export_to(str(tmp_path / f"out.{fmt}"), fmt)
        wait_written(qtbot, window)
        text = (tmp_path / f"out.{fmt}").read_bytes().decode("utf-8")  # strict
        assert "caf\ufffd\ufffd.txt" in text
    doc = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    exact = {base64.b64decode(d["path_bytes"]) for d in doc["documents"] if "path_bytes" in d}
    assert exact == {BAD}
    plain = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8"))))
    assert any("=1+1.txt" in row[:2] for row in plain)  # data for programs: exact
    sheet = next(k for k in file_actions.EXPORTS if "spreadsheet" in k)
    target = tmp_path / "sheet.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), sheet))
    window.menu_actions.export.trigger()
    rows = list(csv.reader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert any("'=1+1.txt" in row[:2] for row in rows) and not any("=1+1.txt" in row[:2] for row in rows)


def test_a_session_with_such_a_name_saves_and_opens_exactly(qtbot, scanned, tmp_path, monkeypatch):
    window = scanned
    result = window.state.result
    path = tmp_path / "s.lshdesk"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.save_session.trigger()
    wait_written(qtbot, window)
    assert [p.name for p in tmp_path.iterdir() if ".part" in p.name] == []
    window.state.set_result(None)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.open_session.trigger()
    assert window.state.result.docs.paths == result.docs.paths
    assert BAD in {os.fsencode(os.path.basename(p)) for p in window.state.result.docs.paths}


@contextmanager
def file_size_limit(n: int):
    """Like ``ulimit -f``: writes past ``n`` bytes fail with EFBIG (Python ignores SIGXFSZ)."""
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (n, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)


def test_a_failed_export_or_save_keeps_the_previous_file(qtbot, scanned, tmp_path, monkeypatch):
    window = scanned
    warnings = []
    monkeypatch.setattr(file_actions, "_warn", lambda parent, title, text: warnings.append(text))
    for name, act in (("out.html", lambda p: window.files.export_to(p, "html")), ("s.lshdesk", None)):
        target = tmp_path / name
        target.write_text("previous")
        if act is None:
            monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
            act = lambda p: window.menu_actions.save_session.trigger()  # noqa: E731
        with file_size_limit(200):
            act(str(target))
            wait_written(qtbot, window)
        assert target.read_text() == "previous"
        assert "File too large" in warnings[-1] and "Nothing was changed" in warnings[-1]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def _craft(window, tmp_path, **change):
    good = tmp_path / "good.lshdesk"
    save_session(good, window.state.result)
    return crafted.changed(good, tmp_path / "crafted.lshdesk", **change)


@pytest.mark.parametrize(
    "change, words",
    [
        (dict(arrays=lambda a: a["pairs.left"].__setitem__(0, 10**6)), "pairs.left"),  # once a segfault
        (dict(arrays=lambda a: a["candidates.right"].__setitem__(-1, 99)), "candidates.right"),
        (dict(arrays=lambda a: a.__setitem__("signatures", np.zeros((2, 3), np.uint32))), "signatures"),
        (dict(header=lambda h: h.update(selection=5)), "selection"),
        (dict(header=lambda h: h.update(folders=5)), "folders"),
        (dict(header=lambda h: h.update(format_version=-5)), "format_version"),
        (dict(header=lambda h: h.update(format_version=True)), "format_version"),
        (dict(header=lambda h: h.update(params=[[[[[]]]]])), "params"),
    ],
)
def test_a_crafted_session_is_refused_in_the_window(scanned, tmp_path, monkeypatch, change, words):
    window = scanned
    result = window.state.result
    path = _craft(window, tmp_path, **change)
    with pytest.raises(SessionError):  # the same file, read by the core: refused
        load_session(path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.open_session.trigger()
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert boxes and boxes[-1].windowTitle() == "Cannot open session" and words in boxes[-1].text()
    boxes[-1].close()
    assert window.state.result is result and window.results.pairs_model.rowCount() == len(result.pairs)


def test_a_zip_bomb_session_is_refused_in_the_window(scanned, tmp_path, monkeypatch):
    window = scanned
    bomb = tmp_path / "bomb.lshdesk"
    bomb.write_bytes(crafted.zip_with_deflated({"header.json": (crafted.bomb(64 * 2**20), 3 * 2**30)}))
    warnings = []
    monkeypatch.setattr(file_actions, "_warn", lambda parent, title, text: warnings.append((title, text)))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bomb), ""))
    window.menu_actions.open_session.trigger()
    assert warnings and warnings[0][0] == "Cannot open session" and "header.json" in warnings[0][1]


@pytest.mark.parametrize("ext", ["png", "svg"])
def test_a_failed_plot_export_keeps_the_previous_file(qtbot, tmp_path, ext):
    from lshdesk.core.params import Banding
    from lshdesk.gui.plots.scurve_plot import ScurvePlot

    plot = ScurvePlot()
    qtbot.addWidget(plot)
    plot.resize(700, 500)
    plot.show()
    plot.set_scheme(Banding(16, 8), [])
    target = tmp_path / f"curve.{ext}"
    target.write_text("previous")
    with file_size_limit(100), pytest.raises(OSError, match="File too large"):
        plot.export(str(target))
    assert target.read_text() == "previous" and [p.name for p in tmp_path.iterdir()] == [target.name]
    plot.export(str(target))
    assert target.stat().st_size > 1000
