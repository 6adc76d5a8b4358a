"""'Use my files' in the real window: the scanned files are read on a worker thread, then shown in the lesson."""

from __future__ import annotations

import threading

from gui_helpers import scan_and_wait, set_test_params

from lshdesk.core.corpus import reading


def test_use_my_files_reads_the_scanned_files_off_the_gui_thread(qtbot, window, corpus_dir, monkeypatch):
    root, texts = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    readers = []
    real_read = reading.read_text

    def read_text(path, max_bytes, formats=None):
        readers.append(threading.current_thread())
        return real_read(path, max_bytes, formats)

    monkeypatch.setattr(reading, "read_text", read_text)
    page = window.learn.signatures
    window.tabs.setCurrentWidget(window.learn)
    window.learn.show_page(page)
    page.use_files.setChecked(True)
    qtbot.waitUntil(lambda: page.doc_a.count() == len(texts), timeout=10000)
    assert len(readers) == len(texts) and threading.main_thread() not in readers
    shown = {page.doc_a.itemText(i).split(": ", 1)[1] for i in range(page.doc_a.count())}
    assert shown == set(window.names) and not page.reading_note.isVisible()
