"""Skipped files in a few words: how many for each reason, and the files inside tool folders that were not read."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from lshdesk.core.corpus.listing import FIXES, Skipped
from lshdesk.core.humanize import plural

# The count ``listing.files_phrase`` writes into a tool folder's reason: "(94 files)", "(1 file)", "(10,000+ files)".
_COUNT = re.compile(r"\((\d[\d,]*)(\+?) files?\)")
_KIND = re.compile(r" \(|: |; ")  # a reason's kind ends where its details begin: "not a text file type ('.bin')"


@dataclass(frozen=True)
class ToolFolders:
    """The tool and version-control folders (.git, node_modules, ...) left unread: their paths and their files."""

    paths: tuple[str, ...] = ()
    files: int = 0
    more: bool = False  # a folder held more files than were counted (``listing.COUNT_CAP``)

    def __bool__(self) -> bool:
        return bool(self.paths)

    def words(self) -> str:
        """'94 files in 1 tool folder not read' ("" when there is none)."""
        if not self.paths:
            return ""
        files = f"{self.files:,}{'+' if self.more else ''} file{'' if self.files == 1 and not self.more else 's'}"
        return f"{files} in {plural(len(self.paths), 'tool folder')} not read"

    def names(self, limit: int = 3) -> str:
        """'node_modules, .git and 2 more': the folders' own names."""
        names = [os.path.basename(p.rstrip("/")) or p for p in self.paths]
        shown = ", ".join(names[:limit])
        return f"{shown} and {len(names) - limit:,} more" if len(names) > limit else shown


def tool_folders(skipped: Sequence[Skipped]) -> ToolFolders:
    """The tool folders among the skipped rows, with the files each holds (as its reason counted them)."""
    paths, files, more = [], 0, False
    for s in skipped:
        if s.fix != "tool-folder":
            continue
        paths.append(s.path)
        if m := _COUNT.search(s.reason):
            files += int(m.group(1).replace(",", ""))
            more = more or bool(m.group(2))
    return ToolFolders(tuple(paths), files, more)


def reason_kind(reason: str) -> str:
    """A reason without its details: 'not a text file type' for "not a text file type ('.bin')"."""
    return _KIND.split(reason, maxsplit=1)[0]


def by_reason(skipped: Sequence[Skipped], ui: str = "cli") -> str:
    """'7 files skipped: 4 not a text file type, 3 empty file; read them with ...' (tool folders left out: see
    ``tool_folders``); "" when no file was skipped. The way to read them is named when one reason has one."""
    rows = [s for s in skipped if s.fix != "tool-folder"]
    if not rows:
        return ""
    kinds = Counter(reason_kind(s.reason) for s in rows)
    parts = ", ".join(f"{n:,} {kind}" for kind, n in kinds.most_common())
    fixes = {s.fix for s in rows}
    fix = FIXES.get(next(iter(fixes)), {}).get(ui, "") if len(fixes) == 1 else ""
    how = f"; {fix if len(rows) == 1 else fix.replace(' it ', ' them ', 1)}" if fix else ""
    return f"{plural(len(rows), 'file')} skipped ({parts}){how}"


def read_counts(docs: int, skipped: Sequence[Skipped]) -> str:
    """What a scan read, for a summary: '6,126 documents, 3 skipped, 94 files in 1 tool folder not read' (a tool
    folder is one skipped row but many files: it is counted by its files, apart)."""
    tools = tool_folders(skipped)
    rows = len(skipped) - len(tools.paths)
    return f"{plural(docs, 'document')}, {rows:,} skipped" + (f", {tools.words()}" if tools else "")


def tool_fix(skipped: Sequence[Skipped], ui: str = "cli") -> str:
    """'not read: node_modules; read them with --all-files or name the folder' ("" when no tool folder was left)."""
    tools = tool_folders(skipped)
    if not tools:
        return ""
    fix = FIXES["tool-folder"][ui].replace(" it ", " them " if tools.files != 1 else " it ", 1)
    if len(tools.paths) > 1:
        fix = fix.replace("the folder", "the folders")
    return f"not read: {tools.names()}; {fix}"
