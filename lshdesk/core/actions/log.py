"""The action log: one JSON line per file moved, copied, sent to the trash, replaced by a link or moved back, in the
user's data folder.

Each line is appended with one ``write`` on a file opened for appending, then flushed to disk, so a crash leaves at
worst a last line cut short; reading skips any line that is not a well-formed entry (the file is untrusted).

Entries since issue 30 also carry what Undo checks before it touches anything (``Entry.inode``, ``folder``,
``roots``); they are optional fields of format 1, so older logs still read, and older lshdesk versions read these.

An undo that went through every file of a move ends with a line of its own: an 'undo' entry with no source and
no destination (``finished``). A move whose undo was cancelled or cut short has no such line: its files not moved
back yet are the next Undo's (``last_run``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs

LOG_NAME = "actions.jsonl"
FORMAT_VERSION = 1
READ_LIMIT = 8 << 20  # only the last 8 MB of a log are read back (about 40,000 entries)
ACTIONS = ("trash", "move", "copy", "undo", "hardlink", "symlink")


@dataclass(frozen=True)
class Entry:
    """One file acted on: which run, when, what, from where to where (the trash's folder for 'trash')."""

    run: str
    time: str  # local time, ISO 8601
    action: str
    source: str
    dest: str
    size: int
    mtime_ns: int
    undoes: str = ""  # for 'undo': the run it undoes
    inode: int = 0  # of the file where it went (0: not recorded, an older lshdesk)
    folder: str = ""  # the folder the user chose for a move or copy; the trash folder for 'trash'
    roots: tuple[str, ...] = ()  # the scanned folders the file was found in
    link: str = ""  # 'hardlink', 'symlink': the document kept, which the link now at ``source`` leads to

    @property
    def is_marker(self) -> bool:
        """True for the line that ends an undo which went through every file (no source, no destination)."""
        return self.action == "undo" and not self.source and not self.dest


def finished(run_id: str, undoes: str) -> Entry:
    """The line an undo run adds once it went through every file of the run ``undoes``."""
    return Entry(run_id, now(), "undo", "", "", 0, 0, undoes)


def default_path() -> Path:
    """The log in the user's data folder (e.g. ~/.local/share/lshdesk/actions.jsonl)."""
    return Path(platformdirs.user_data_dir("lshdesk", appauthor=False)) / LOG_NAME


def new_run_id() -> str:
    return f"{time.time_ns():x}-{os.getpid():x}"


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class ActionLog:
    """Appends entries to, and reads them from, one JSON-lines file."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    def append(self, entry: Entry) -> None:
        """Add one entry and flush it to disk before returning (raises OSError if the log cannot be written)."""
        line = json.dumps({"format_version": FORMAT_VERSION, **asdict(entry)}, ensure_ascii=False) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8", "surrogateescape"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def read(self) -> list[Entry]:
        """The well-formed entries, oldest first (a damaged or foreign line is skipped)."""
        try:
            with open(self.path, "rb") as f:
                f.seek(0, os.SEEK_END)
                start = max(0, f.tell() - READ_LIMIT)
                f.seek(start)
                data = f.read()
        except FileNotFoundError:
            return []
        lines = data.split(b"\n")
        if start:
            lines = lines[1:]  # the first line read may be cut
        return [e for e in (_entry(line) for line in lines) if e is not None]


def _entry(line: bytes) -> Entry | None:
    try:
        d = json.loads(line.decode("utf-8", "surrogateescape"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(d, dict) or d.get("format_version") != FORMAT_VERSION or d.get("action") not in ACTIONS:
        return None
    texts = ("run", "time", "action", "source", "dest")
    if not all(isinstance(d.get(k), str) for k in texts) or not isinstance(d.get("undoes", ""), str):
        return None
    ints = ("size", "mtime_ns", "inode")
    if not all(isinstance(d.get(k, 0), int) and not isinstance(d.get(k, 0), bool) for k in ints) or "size" not in d:
        return None
    roots = d.get("roots", [])
    if "mtime_ns" not in d or not all(isinstance(d.get(k, ""), str) for k in ("folder", "link")):
        return None
    if not isinstance(roots, list):
        return None
    if not all(isinstance(r, str) for r in roots):
        return None
    return Entry(
        d["run"],
        d["time"],
        d["action"],
        d["source"],
        d["dest"],
        d["size"],
        d["mtime_ns"],
        d.get("undoes", ""),
        d.get("inode", 0),
        d.get("folder", ""),
        tuple(roots),
        d.get("link", ""),
    )


def last_run(entries: list[Entry], action: str | tuple[str, ...]) -> list[Entry]:
    """The entries of the latest run of ``action`` (or of any of several) not undone yet: each of its files not
    moved back, unless an undo went through all of them (its ``finished`` line); empty if there is none."""
    actions = (action,) if isinstance(action, str) else action
    done = {e.undoes for e in entries if e.is_marker}
    back = {(e.undoes, e.source) for e in entries if e.action == "undo" and not e.is_marker}
    runs = list(dict.fromkeys(e.run for e in entries if e.action in actions and e.run not in done))
    for run in reversed(runs):
        left = [e for e in entries if e.run == run and e.action in actions and (run, e.dest) not in back]
        if left:
            return left
    return []
