"""One text of a pair side by side: its name, the text with its passages marked (shared, or what differs) and a thin
map of them."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Signal
from PySide6.QtGui import QPainter, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from lshdesk.gui.theme import SHARED_BG, Tone, text_on, watch_palette
from lshdesk.gui.widgets.file_menu import add_file_entries

Mark = tuple[int, int, Tone]  # (start, end, colour) in Python indices; start == end marks a place (a thin line)


def _utf16(text: str, index: int) -> int:
    """Qt positions count UTF-16 code units; Python counts code points."""
    return index if text.isascii() else len(text[:index].encode("utf-16-le")) // 2


def _from_utf16(text: str, position: int) -> int:
    """The Python index of a Qt (UTF-16) position."""
    if text.isascii():
        return position
    return len(text.encode("utf-16-le")[: 2 * position].decode("utf-16-le", errors="ignore"))


def shared_format(tone: Tone = SHARED_BG) -> QTextCharFormat:
    """How a marked passage looks: its background for the palette in use and the ink that reads on it."""
    fmt = QTextCharFormat()
    bg = tone.color()
    fmt.setBackground(bg)
    fmt.setForeground(text_on(bg))
    return fmt


class PassageMap(QWidget):
    """A thin strip beside a text: where its marked passages are (by position in the text), the part on screen
    framed; a click scrolls the text there."""

    clicked = Signal(int)  # a position in the text

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setFixedWidth(10)
        self.setToolTip("Where the shared passages are in this text: click to go there")
        self.length, self.seen = 0, (0, 0)
        self.marks: list[Mark] = []

    def set_marks(self, length: int, marks: list[Mark]) -> None:
        self.length, self.marks = length, marks
        self.update()

    def set_seen(self, first: int, last: int) -> None:
        self.seen = (first, last)
        self.update()

    def _y(self, pos: int) -> int:
        return round(pos / max(self.length, 1) * self.height())

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        pal = self.palette()
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        for s, e, tone in self.marks:
            p.fillRect(QRect(1, self._y(s), self.width() - 2, max(self._y(e) - self._y(s), 2)), tone.color())
        if self.length:
            top, bottom = self._y(self.seen[0]), self._y(self.seen[1])
            p.setPen(pal.color(QPalette.ColorRole.Highlight))
            p.drawRect(QRect(0, top, self.width() - 1, max(bottom - top, 3)))
        p.setPen(pal.color(QPalette.ColorRole.Mid))
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        p.end()

    def mousePressEvent(self, event) -> None:
        self.clicked.emit(round(event.position().y() / max(self.height(), 1) * self.length))


class TextPane(QWidget):
    """One document: its name over its text and passage map, with a context menu to open the file or its folder."""

    def __init__(self, side: str, parent=None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setAccessibleName(f"Document {side}")
        self.text.setAccessibleDescription(f"The text of document {side} of the pair, its shared passages marked")
        self.title.setBuddy(self.text)
        self.map = PassageMap()
        self.map.setAccessibleName(f"Shared passages of document {side}")
        self.path = ""
        self._text = ""
        self._marks: list[Mark] = []
        watch_palette(self.text, self._highlight)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        row = QHBoxLayout()
        row.setSpacing(2)
        row.addWidget(self.text, 1)
        row.addWidget(self.map)
        lay.addLayout(row, 1)
        self.text.setContextMenuPolicy(self.text.contextMenuPolicy().CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._menu)
        self.map.clicked.connect(self.scroll_to)
        self.text.verticalScrollBar().valueChanged.connect(self._seen_changed)

    def show_name(self, name: str, path: str) -> None:
        self.path = path
        self.title.setText(f"<b>{name}</b>")
        self.title.setToolTip(path)
        self.text.setAccessibleDescription(name)

    def show_text(self, text: str, spans: list[tuple[int, int]]) -> None:
        """Show ``text`` with ``spans`` marked as shared passages."""
        self.text.setPlainText(text)
        self._text = text
        self.set_marks([(s, e, SHARED_BG) for s, e in spans])
        self._seen_changed()

    def set_marks(self, marks: list[Mark]) -> None:
        """Mark these passages of the text shown instead of the ones marked (e.g. what differs, not what is shared)."""
        self._marks = marks
        self.map.set_marks(len(self._text), marks)
        self._highlight()

    def clear_text(self) -> None:
        self.text.clear()
        self._text, self._marks = "", []
        self.map.set_marks(0, [])

    def length(self) -> int:
        return len(self._text)

    # --- positions (Python indices into the text) ------------------------------------------------------------------
    def top_position(self) -> int:
        """The position of the first character on screen."""
        return _from_utf16(self._text, self.text.cursorForPosition(QPoint(0, 0)).position())

    def bottom_position(self) -> int:
        """The position of the last character on screen."""
        viewport = self.text.viewport()
        corner = QPoint(viewport.width() - 1, viewport.height() - 1)
        return _from_utf16(self._text, self.text.cursorForPosition(corner).position())

    def scroll_to(self, pos: int) -> None:
        """Put the line holding ``pos`` at the top of the view (as near as the end of the text allows)."""
        doc = self.text.document()
        qpos = min(_utf16(self._text, max(pos, 0)), max(doc.characterCount() - 1, 0))
        block = doc.findBlock(qpos)
        layout = block.layout()
        line = layout.lineForTextPosition(qpos - block.position()).lineNumber() if layout.lineCount() else 0
        self.text.verticalScrollBar().setValue(block.firstLineNumber() + max(line, 0))

    def _seen_changed(self) -> None:
        self.map.set_seen(self.top_position(), self.bottom_position())

    def _highlight(self) -> None:
        """Mark the passages (again when the palette changes: the colours follow it)."""
        text, formats = self._text, {tone: shared_format(tone) for tone in {m[2] for m in self._marks}}
        sels = []
        for s, e, tone in self._marks:
            if s == e:
                continue  # a place, not a passage: the map shows it
            sel = QTextEdit.ExtraSelection()
            cur = QTextCursor(self.text.document())
            cur.setPosition(_utf16(text, s))
            cur.setPosition(_utf16(text, e), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor, sel.format = cur, formats[tone]
            sels.append(sel)
        self.text.setExtraSelections(sels)
        self.map.update()

    def _menu(self, pos: QPoint) -> None:
        menu = self.context_menu()
        menu.exec(self.text.mapToGlobal(pos))
        menu.deleteLater()

    def context_menu(self) -> QMenu:
        """Copy and Select all, then Open file and Show in folder (the system's default applications)."""
        menu = self.text.createStandardContextMenu()
        if self.path:
            menu.addSeparator()
            add_file_entries(menu, self.path, named=False)  # a dataset's row: said, its file shown
        return menu
