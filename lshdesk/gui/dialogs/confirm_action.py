"""The confirmation every action on files asks first: what will happen, to which files, where, how many, how large."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from lshdesk.core.actions.plan import Plan, destinations
from lshdesk.core.humanize import human_size
from lshdesk.gui.accessible import describe
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column

VERBS = {"trash": "Move to trash", "move": "Move", "copy": "Copy", "hardlink": "Replace", "symlink": "Replace"}
LINKS = {"hardlink": "hard links", "symlink": "symbolic links"}


def _what(kind: str, plan: Plan, folder: str) -> tuple[str, str]:
    """(question, what happens next) in the user's words."""
    n = len(plan)
    files = f"{n:,} file{'s' if n != 1 else ''} ({human_size(plan.total_size)})"
    if kind == "trash":
        return f"Move {files} to the trash?", "They can be restored from the system trash. Nothing is deleted."
    if kind in LINKS:
        return (
            f"Replace {files} with {LINKS[kind]} to the documents kept?",
            "Each original goes to the system trash (Edit > Undo brings it back) and a link to the document kept in "
            "its group takes its name.",
        )
    where = f"to {folder}"
    then = (
        "Edit > Undo moves them back."
        if kind == "move"
        else "The originals stay where they are; an existing file there is never replaced."
    )
    return (
        f"{VERBS[kind]} {files} {where}?",
        f"Each goes below a folder named as its scanned folder, at the same relative path. {then}",
    )


def _group(g: object) -> str:
    return str(g) if g else "none"


def _columns(
    kind: str,
    plan: Plan,
    folder: str,
    roots: tuple[str, ...],
    kept: dict[int, str],
    preview: dict[int, tuple[int, list[str]]],
) -> list[Column]:
    """The file, where it goes (or the link it becomes), its size, and with ``preview`` its group and what stays."""
    columns = [
        Column("File", [f.path for f in plan.files]),
        Column("Size", np.array([f.size for f in plan.files], np.int64), human_size, "Size at the scan", True),
    ]
    if kind in LINKS:  # the document each one will lead to
        to = [f"link to {kept[f.doc]}" if kept.get(f.doc) else "not replaced: no document kept" for f in plan.files]
        columns.insert(1, Column("Becomes", to))
    elif kind != "trash":  # where each one goes, or why it will not
        columns.insert(1, Column("To", destinations(plan, folder, roots)))
    if preview:  # group by group: what goes (these rows) and what stays
        groups = [preview.get(f.doc, (0, [])) for f in plan.files]
        columns.append(Column("Group", np.array([g for g, _ in groups], np.int64), _group, "Its group", True))
        columns.append(Column("Stays in its group", [", ".join(stays) or "nothing: all marked" for _, stays in groups]))
    return columns


class ConfirmAction(QDialog):
    """Lists the files with their sizes; ``accepted`` only when the user presses the action's button."""

    def __init__(
        self,
        parent: QWidget | None,
        kind: str,
        plan: Plan,
        folder: str = "",
        roots: tuple[str, ...] = (),
        keep: dict[int, str] | None = None,
        preview: dict[int, tuple[int, list[str]]] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{VERBS[kind]}: confirm")
        question, then = _what(kind, plan, folder)
        head = QLabel(f"<b>{question}</b>")
        head.setWordWrap(True)
        note = QLabel(
            f"{then} A file changed since the scan (size or date), gone, or read-only is left alone and reported."
        )
        note.setWordWrap(True)
        self.model = ArrayTableModel(self)
        columns = _columns(kind, plan, folder, roots, keep or {}, preview or {})
        self.model.set_columns(columns)
        self.table = QTableView()
        self.table.setModel(self.model)
        describe(
            self.table,
            "The marked files this changes, one a row, with their sizes"
            + ("" if kind == "trash" else ", and where each goes")
            + (", their group and what stays in it" if preview else ""),
            "Files to act on",
        )
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        for c, col in enumerate(columns):  # names share the width, figures (size, group) as wide as they need
            mode = QHeaderView.ResizeMode.ResizeToContents if col.numeric else QHeaderView.ResizeMode.Stretch
            self.table.horizontalHeader().setSectionResizeMode(c, mode)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a path keeps its file name
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.addButton(VERBS[kind], QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok.setAutoDefault(False)
        self.ok.setDefault(False)
        describe(self.ok, f"{question} {then}")
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        describe(cancel, "Leave every file as it is (Enter)")
        cancel.setDefault(True)  # Enter cancels: a move needs a deliberate click (or Alt + the button's letter)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(head)
        lay.addWidget(note)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(980 if preview else 760, 440)  # the group and what stays in it need the room
