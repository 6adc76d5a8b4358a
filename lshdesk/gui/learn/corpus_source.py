"""The loaded corpus's documents for the lessons' 'use my files': read once, on a worker thread, for whoever asks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterable, Sequence
from itertools import islice

from PySide6.QtCore import QObject, Signal

from lshdesk.core.corpus.reading import iter_texts
from lshdesk.core.errors import LshdeskError
from lshdesk.core.shingling import tokenize
from lshdesk.gui.workers import WorkerSlot

LEARN_MAX_DOCS = 200  # 'use my files' in the lessons reads at most this many documents (of at most 1 MB each)
LEARN_MAX_BYTES = 1 << 20

TextsProvider = Callable[[], Iterable[tuple[str, str]]]  # (name, text) of the corpus's documents, lazily


def files_provider(names: Sequence[str], paths: Sequence[str], max_bytes: int) -> TextsProvider:
    """The first ``LEARN_MAX_DOCS`` readable files (at most 1 MB each), read when iterated, named as shown. The
    sequences are a result's (never changed): nothing is copied on the GUI thread (100k names took 16 ms)."""
    cap = min(max_bytes, LEARN_MAX_BYTES)
    return lambda: islice(iter_texts(zip(names, paths), cap), LEARN_MAX_DOCS)


def _reading(provider: TextsProvider) -> Callable[[threading.Event], Generator[int, None, list[tuple[str, str]]]]:
    """The worker's generator: one report per document, so a cancel stops it between two files."""

    def make(_cancel: threading.Event) -> Generator[int, None, list[tuple[str, str]]]:
        docs: list[tuple[str, str]] = []
        for name, text in provider():
            if tokenize(text):  # a document with no words has no set to compare
                docs.append((name, text))
            yield len(docs)
        return docs

    return make


class CorpusSource(QObject):
    """The loaded corpus's documents, read on a worker thread when a page first asks for them, then kept.

    A page ``request``s them with a callback (called at once when they are here, else when they arrive) and
    ``release``s its request when it no longer wants them; the reading is cancelled when nobody waits any more or
    another corpus arrives (``set_provider``).
    """

    changed = Signal()  # a corpus arrived or went: pages enable or disable their switch (and ask again)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._provider: TextsProvider | None = None
        self._docs: list[tuple[str, str]] | None = None
        self._error = ""  # why the last reading failed
        self._waiting: dict[object, Callable[[], None]] = {}  # owner -> what to call when the documents are here
        self.reader = WorkerSlot(self, "Reading your files failed")

    def set_provider(self, provider: TextsProvider | None) -> None:
        self.reader.cancel()
        self._provider, self._docs, self._error = provider, None, ""
        self._waiting.clear()
        self.changed.emit()

    @property
    def available(self) -> bool:
        return self._provider is not None

    @property
    def ready(self) -> bool:
        """True when the documents have been read (or their reading failed): ``documents`` answers at once."""
        return self._docs is not None or bool(self._error)

    @property
    def reading(self) -> bool:
        return self.reader.busy

    def request(self, owner: object, on_ready: Callable[[], None]) -> bool:
        """Call ``on_ready`` when the documents are here (now, returning True, if they already are)."""
        if self.ready or self._provider is None:
            on_ready()
            return True
        self._waiting[owner] = on_ready
        if not self.reader.busy:
            self.reader.start(_reading(self._provider), self._arrived, on_failed=self._failed)
        return False

    def release(self, owner: object) -> bool:
        """``owner`` no longer waits (True if it did); the reading stops when nobody does."""
        waited = self._waiting.pop(owner, None) is not None
        if not self._waiting:
            self.reader.cancel()
        return waited

    def waits(self, owner: object) -> bool:
        """True while ``owner`` waits for the documents."""
        return owner in self._waiting

    def documents(self) -> list[tuple[str, str]]:
        """(name, text) of every corpus document with at least one word; raises LshdeskError if there is none or
        they have not been read yet (``request`` them first)."""
        if self._provider is None:
            raise LshdeskError("no files are loaded: open a folder and scan it first")
        if self._error:
            raise LshdeskError(self._error)
        if self._docs is None:
            raise LshdeskError("your files are still being read")
        if len(self._docs) < 2:
            raise LshdeskError("the loaded corpus has fewer than two documents with words in them")
        return self._docs

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        self._waiting.clear()
        return self.reader.shutdown(timeout_ms)

    def _arrived(self, docs: list[tuple[str, str]]) -> None:
        self._docs = docs
        self._answer()

    def _failed(self, message: str, _details: str) -> None:
        self._error = f"your files could not be read: {message}"
        self._answer()

    def _answer(self) -> None:
        waiting, self._waiting = self._waiting, {}
        for on_ready in waiting.values():
            on_ready()
