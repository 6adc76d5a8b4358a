"""Opening folders: Ctrl+O, the recent-folders menu, dropping folders on the window; the layout is remembered."""

from __future__ import annotations

import os

from gui_helpers import scan_and_wait
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from lshdesk.gui.app import sample_corpus
from lshdesk.gui.mainwindow import MainWindow


def test_ctrl_o_opens_the_folder_dialog_and_adds_the_chosen_folder(qtbot, window, corpus_dir, monkeypatch):
    root, _ = corpus_dir
    asked = []

    def fake_dialog(parent, caption="", directory="", *args, **kwargs):
        asked.append((parent, caption))
        return str(root / "alpha")

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(fake_dialog))
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1 and asked[0][0] is window
    assert window.state.folders == [str(root / "alpha")]
    assert window.corpus_panel.list.count() == 1 and window.corpus_panel.list.item(0).text() == str(root / "alpha")
    assert "press Scan" in window.progress.stage.text()
    assert not window.scans.is_scanning()  # the user sets the parameters, then presses Scan

    # A second folder is added next to the first; a cancelled dialog changes nothing.
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(root / "beta")))
    window.menu_actions.open.trigger()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    window.menu_actions.open.trigger()
    assert window.state.folders == [str(root / "alpha"), str(root / "beta")]


def test_an_opened_folder_replaces_the_sample_corpus(qtbot, window, corpus_dir, monkeypatch):
    root, _ = corpus_dir
    sample = sample_corpus()
    assert sample is not None
    window.folders.open([sample], scan_now=False)
    assert window.corpus_panel.hint.isVisibleTo(window.corpus_panel)  # 'this is the sample corpus...'
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(root)))
    window.folders.choose()
    assert window.state.folders == [str(root)]
    assert not window.corpus_panel.hint.isVisibleTo(window.corpus_panel)


def test_the_recent_folders_menu_reopens_a_folder_and_is_remembered(qtbot, window, settings, corpus_dir):
    root, texts = corpus_dir
    alpha, beta = str(root / "alpha"), str(root / "beta")
    window.folders.open([alpha], scan_now=False)
    window.folders.open([beta], scan_now=False)
    window.folders.open([alpha], scan_now=False)
    titles = [a.text() for a in window.menu_actions.recent.actions()]
    assert titles == [alpha, beta]  # most recent first, no repeats
    assert window.menu_actions.recent.isEnabled()

    scan_and_wait(qtbot, window, window.menu_actions.recent.actions()[1].trigger)
    assert window.state.folders == [beta]
    assert len(window.state.result.docs) == sum(n.startswith("beta/") for n in texts)

    again = MainWindow(settings)  # a new session reads the same settings file
    qtbot.addWidget(again)
    assert [a.text() for a in again.menu_actions.recent.actions()] == [beta, alpha]
    assert again.shutdown()


def test_the_recent_menu_keeps_at_most_eight_folders(qtbot, window, tmp_path):
    folders = []
    for i in range(10):
        (tmp_path / f"f{i}").mkdir()
        folders.append(str(tmp_path / f"f{i}"))
        window.folders.open([folders[-1]], scan_now=False)
    assert [a.text() for a in window.menu_actions.recent.actions()] == folders[::-1][:8]


def _mime(*paths: str) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(p) for p in paths])
    return mime


def test_dropping_folders_on_the_window_adds_them(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    mime = _mime(str(root / "alpha"), str(root / "beta"), str(root / "alpha" / "report.txt"))
    actions = Qt.DropAction.CopyAction | Qt.DropAction.LinkAction
    enter = QDragEnterEvent(QPoint(600, 400), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(600, 400), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    assert drop.isAccepted()
    assert window.state.folders == [str(root / "alpha"), str(root / "beta")]  # the file is not a folder
    assert [a.text() for a in window.menu_actions.recent.actions()][
        0
    ] == f"{root / 'alpha'} + beta"  # the set, as one entry


def test_dragging_only_files_is_refused(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    mime = _mime(str(root / "alpha" / "report.txt"))
    enter = QDragEnterEvent(
        QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    enter.ignore()
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()
    assert window.state.folders == []


def test_the_window_layout_is_remembered(qtbot, window, settings):
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, window.dock)  # the user moves the panel
    window.resize(700, 500)  # within the offscreen screen (800 x 600): restoreGeometry keeps windows on screen
    window.close()
    again = MainWindow(settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.dockWidgetArea(again.dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert (again.width(), again.height()) == (700, 500)
    assert again.shutdown()


def test_removing_a_folder(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    window.folders.open([str(root / "alpha"), str(root / "beta")], scan_now=False)
    window.corpus_panel.list.setCurrentRow(0)
    qtbot.mouseClick(window.corpus_panel.remove_button, Qt.MouseButton.LeftButton)
    assert window.state.folders == [str(root / "beta")]
    assert os.path.isdir(root / "alpha")  # removed from the list, not from the disk
