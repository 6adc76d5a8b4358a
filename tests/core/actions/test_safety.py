"""Nothing outside what the user chose: hostile names stay inside the chosen folder, a hand-written log line moves
nothing, the trash gives back what it took, and a full disk names the file that could not be written."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from lshdesk.core.actions import trash, undo
from lshdesk.core.actions.log import ActionLog, Entry, last_run
from lshdesk.core.actions.plan import Plan, Planned, Unsafe, destination
from lshdesk.core.actions.run import ActionRun, UndoRun
from lshdesk.core.scan.pipeline import run

UNDOABLE = ("move", "trash")


def _plan(root: Path, *names: str) -> Plan:
    files = []
    for i, name in enumerate(names):
        p = root / name
        st = os.stat(p)
        files.append(Planned(i, str(p), name, str(root), st.st_size, st.st_mtime_ns))
    return Plan(tuple(files))


@pytest.fixture
def work(tmp_path):
    root = tmp_path / "work"
    root.mkdir()
    for name in ("..\\..\\escaped\\cron-like.txt", "back\\slash.txt", "plain.txt"):
        (root / name).write_text(f"text of {name}")
    return root


def test_a_backslash_name_keeps_its_name_and_never_leaves_the_chosen_folder(tmp_path, work):
    out = tmp_path / "out"
    names = ("..\\..\\escaped\\cron-like.txt", "back\\slash.txt")
    r = run(ActionRun(_plan(work, *names), "move", (str(work),), str(out), ActionLog(tmp_path / "log")).steps())
    assert r.refused == [] and sorted(os.listdir(out / "work")) == sorted(names)
    assert not (tmp_path / "escaped").exists() and not (tmp_path.parent / "escaped").exists()


def test_a_name_with_a_step_up_or_a_link_in_the_folder_is_refused(tmp_path, work):
    outside = tmp_path / "outside"
    outside.mkdir()
    f = _plan(work, "plain.txt").files[0]
    stepping = Planned(0, f.path, "../../outside/plain.txt", f.root, f.size, f.mtime_ns)  # a crafted session
    with pytest.raises(Unsafe, match="lead out"):
        destination(stepping, str(tmp_path / "out"), (str(work),))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "work").symlink_to(outside)  # planted in the chosen folder
    r = run(ActionRun(Plan((f,)), "copy", (str(work),), str(tmp_path / "out"), ActionLog(tmp_path / "log")).steps())
    assert r.done == [] and "outside" in r.refused[0][1] and list(outside.iterdir()) == []


def _victim(tmp_path: Path) -> Path:
    v = tmp_path / "home" / "mine.txt"
    v.parent.mkdir()
    v.write_text("the user's own file")
    return v


def _forged(tmp_path: Path, victim: Path, **fields) -> list[Entry]:
    """A line written by hand into the log: 'move' the victim 'back' to a place of the writer's choosing."""
    log = ActionLog(tmp_path / "log.jsonl")
    st = os.stat(victim)
    line = {"format_version": 1, "run": "x", "time": "2026-01-01T00:00:00+0000", "action": "move"}
    line |= {"source": str(tmp_path / "drop" / "taken.txt"), "dest": str(victim), "size": st.st_size, "mtime_ns": 0}
    line |= fields
    log.path.write_text(json.dumps(line) + "\n")
    return last_run(log.read(), UNDOABLE)


@pytest.mark.parametrize(
    "fields, why",
    [
        ({}, "older lshdesk"),  # the attack of issue 30, as it was written
        ({"inode": "INO", "folder": "HOME", "roots": ["DROP"]}, "modification time"),  # mtime_ns 0
        ({"inode": "INO", "folder": "HOME", "roots": ["DROP"], "mtime_ns": "MT"}, "not where a move"),
        ({"inode": "INO", "folder": "OUT", "roots": ["ELSE"], "mtime_ns": "MT"}, "not below a scanned folder"),
        ({"inode": 1, "folder": "/", "roots": ["DROP"], "mtime_ns": "MT"}, "not a folder a move"),
    ],
)
def test_a_hand_written_log_line_moves_nothing_and_says_why(tmp_path, fields, why):
    victim = _victim(tmp_path)
    st = os.stat(victim)
    values = {"INO": st.st_ino, "MT": st.st_mtime_ns, "HOME": str(victim.parent), "OUT": str(tmp_path / "out")}
    values |= {"DROP": str(tmp_path / "drop"), "ELSE": str(tmp_path / "else")}
    fields = {
        k: ([values.get(x, x) for x in v] if isinstance(v, list) else values.get(v, v)) for k, v in fields.items()
    }
    entries = _forged(tmp_path, victim, **fields)
    r = run(UndoRun(entries, ActionLog(tmp_path / "log.jsonl")).steps())
    assert r.done == [] and len(r.refused) == 1 and why in r.refused[0][1], r.refused
    assert victim.read_text() == "the user's own file" and not (tmp_path / "drop").exists()


def test_undo_refuses_another_file_in_the_moved_ones_place(tmp_path, work):
    log = ActionLog(tmp_path / "log.jsonl")
    moved = run(ActionRun(_plan(work, "plain.txt"), "move", (str(work),), str(tmp_path / "out"), log).steps())
    [(_, dest)] = moved.done
    st = os.stat(dest)
    os.rename(dest, tmp_path / "aside.txt")  # kept: its inode number is not free for the new file to take
    Path(dest).write_text("text of plain.txt")  # same size, same date: another inode
    os.utime(dest, ns=(st.st_atime_ns, st.st_mtime_ns))
    r = run(UndoRun(last_run(log.read(), UNDOABLE), log).steps())
    assert r.done == [] and "another file" in r.refused[0][1] and not (work / "plain.txt").exists()


def test_an_old_log_still_reads(tmp_path):
    old = {"format_version": 1, "run": "a", "time": "t", "action": "move", "source": "/s", "dest": "/d"}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(old | {"size": 3, "mtime_ns": 5}) + "\n")
    [e] = ActionLog(path).read()
    assert (e.source, e.inode, e.folder, e.roots) == ("/s", 0, "", ()) and undo.why_not(e) == undo.OLD


@pytest.mark.skipif(not trash.supported(), reason="no freedesktop trash on this platform")
def test_undo_restores_the_last_trash_action_and_says_which_it_could_not(tmp_path, work):
    log = ActionLog(tmp_path / "log.jsonl")
    plan = _plan(work, "plain.txt", "back\\slash.txt")
    sent = run(ActionRun(plan, "trash", (str(work),), log=log).steps())
    assert sent.refused == [] and not (work / "plain.txt").exists()
    held = {e.source: e.dest for e in log.read()}
    assert all(os.path.exists(trash.info_path(d)) for d in held.values())
    (work / "back\\slash.txt").write_text("a new file in its place")
    r = run(UndoRun(last_run(log.read(), UNDOABLE), log).steps())
    assert r.done == [str(work / "plain.txt")] and (work / "plain.txt").read_text() == "text of plain.txt"
    assert not os.path.exists(held[str(work / "plain.txt")]) and not os.path.exists(
        trash.info_path(held[str(work / "plain.txt")])
    )
    [(still, why)] = r.refused
    assert still == held[str(work / "back\\slash.txt")] and os.path.exists(still) and "not replaced" in why
    assert last_run(log.read(), UNDOABLE) == []


def test_where_the_trash_gives_no_way_back_undo_says_so(tmp_path, work, monkeypatch):
    log = ActionLog(tmp_path / "log.jsonl")
    run(ActionRun(_plan(work, "plain.txt"), "trash", (str(work),), log=log).steps())
    monkeypatch.setattr(trash, "supported", lambda: False)
    r = run(UndoRun(last_run(log.read(), UNDOABLE), log).steps())
    assert r.done == [] and "no way back" in r.refused[0][1] and "restore it from the trash yourself" in r.refused[0][1]


@pytest.fixture
def tiny_fs(tmp_path):
    """A 64 KB tmpfs (needs root and mount; skipped elsewhere)."""
    mnt = tmp_path / "full"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here (not root)")
    yield mnt
    subprocess.run(["umount", str(mnt)], check=False)


def test_a_copy_to_a_full_disk_names_the_destination(tmp_path, tiny_fs):
    root = tmp_path / "big"
    root.mkdir()
    (root / "big.txt").write_text("word " * 60_000)  # 300 KB into 64 KB
    r = run(ActionRun(_plan(root, "big.txt"), "copy", (str(root),), str(tiny_fs), ActionLog(tmp_path / "l")).steps())
    [(path, why)] = r.refused
    assert "No space left" in why and str(tiny_fs / "big" / "big.txt") in why and str(root) not in why
    assert sorted(os.listdir(tiny_fs / "big")) == []  # no part file left
