"""Moving, copying and trashing marked files: where they go, what is refused and why, cancel, the log and undo."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np
import pytest
from actions_corpus import make_corpus, scan_corpus

from lshdesk.core.actions.log import ActionLog, last_run
from lshdesk.core.actions.plan import make_plan, to_csv, to_json
from lshdesk.core.actions.run import ActionRun, UndoRun, trash_location
from lshdesk.core.errors import ParamError, ScanCancelled
from lshdesk.core.scan.pipeline import run


@pytest.fixture
def scanned(tmp_path):
    make_corpus(tmp_path / "c")
    return tmp_path, scan_corpus(tmp_path / "c", reference=False)


def _marks(result, *names):
    return np.array([os.path.basename(p) in names for p in result.docs.paths])


def _run(result, kind, marks, tmp_path, **kw):
    r = ActionRun(make_plan(result, marks), kind, result.roots, log=ActionLog(tmp_path / "log.jsonl"), **kw)
    return run(r.steps())


def test_move_keeps_paths_below_the_scanned_folder_and_logs_each_file(scanned):
    tmp, result = scanned
    texts = {p: Path(p).read_bytes() for p in result.docs.paths}
    marks = _marks(result, "g1_b.txt", "g2_copy_c.txt")
    done = _run(result, "move", marks, tmp, folder=str(tmp / "out"))
    assert done.refused == []
    moved = {tmp / "out" / "work" / "sub" / "g1_b.txt", tmp / "out" / "work" / "g2_copy_c.txt"}
    assert {Path(d) for _, d in done.done} == moved
    for doc, dest in done.done:
        assert not os.path.exists(result.docs.paths[doc]) and Path(dest).read_bytes() == texts[result.docs.paths[doc]]
    assert sorted(done.gone) == sorted(np.flatnonzero(marks).tolist())
    entries = ActionLog(tmp / "log.jsonl").read()
    assert [(e.action, e.source, e.dest) for e in entries] == [
        ("move", result.docs.paths[d], dest) for d, dest in done.done
    ]


def test_a_file_changed_gone_or_read_only_is_refused_and_the_others_go_on(scanned):
    tmp, result = scanned
    p = {os.path.basename(x): x for x in result.docs.paths}
    Path(p["g1_a.txt"]).write_text("rewritten after the scan")  # size changed
    st = os.stat(p["g2_a.txt"])
    os.utime(p["g2_a.txt"], ns=(st.st_atime_ns, st.st_mtime_ns + 5 * 10**9))  # same size, newer date
    os.unlink(p["lone0.txt"])
    os.chmod(p["lone1.txt"], 0o444)
    marks = _marks(result, "g1_a.txt", "g2_a.txt", "lone0.txt", "lone1.txt", "g0_b.txt")
    done = _run(result, "move", marks, tmp, folder=str(tmp / "out"))
    reasons = {os.path.basename(path): why for path, why in done.refused}
    assert set(reasons) == {"g1_a.txt", "g2_a.txt", "lone0.txt", "lone1.txt"}
    assert "size" in reasons["g1_a.txt"] and "modified" in reasons["g2_a.txt"]
    assert "gone" in reasons["lone0.txt"] and "read-only" in reasons["lone1.txt"]
    assert [result.docs.paths[d] for d in done.gone] == [p["g0_b.txt"]]
    assert os.path.exists(p["g1_a.txt"]) and os.path.exists(p["g2_a.txt"]) and os.path.exists(p["lone1.txt"])


def test_a_read_only_folder_is_reported_with_its_name(scanned):
    tmp, result = scanned
    sub = tmp / "c" / "work" / "sub"
    os.chmod(sub, 0o555)
    try:
        done = _run(result, "trash", _marks(result, "g0_b.txt"), tmp)
    finally:
        os.chmod(sub, 0o755)
    assert done.done == [] and str(sub) in done.refused[0][1] and "read-only" in done.refused[0][1]


def test_copy_leaves_the_sources_and_never_replaces_a_file(scanned):
    tmp, result = scanned
    marks = _marks(result, "g0_b.txt", "lone0.txt")
    first = _run(result, "copy", marks, tmp, folder=str(tmp / "out"))
    assert len(first.done) == 2 and first.gone == []
    assert all(os.path.exists(p) for p in result.docs.paths)
    again = _run(result, "copy", marks, tmp, folder=str(tmp / "out"))
    assert again.done == [] and all("already exists" in why for _, why in again.refused)


def test_trash_moves_the_file_into_the_trash_folder(scanned):
    tmp, result = scanned
    path = next(p for p in result.docs.paths if p.endswith("g2_copy_c.txt"))
    data = Path(path).read_bytes()
    done = _run(result, "trash", _marks(result, "g2_copy_c.txt"), tmp)
    assert done.refused == [] and not os.path.exists(path)
    trash = Path(os.environ["XDG_DATA_HOME"]) / "Trash"
    assert str(trash / "files") in trash_location()
    held = [f for f in (trash / "files").iterdir() if f.name.startswith("g2_copy_c")]
    assert any(f.read_bytes() == data for f in held)
    assert any(path in i.read_text() for i in (trash / "info").iterdir())  # recoverable: the trash knows its origin


def test_cancel_stops_between_files_and_the_run_knows_what_it_did(scanned):
    tmp, result = scanned
    marks = _marks(result, "g0_b.txt", "g1_b.txt", "g2_b.txt", "lone0.txt")
    cancel = threading.Event()
    r = ActionRun(make_plan(result, marks), "move", result.roots, str(tmp / "out"), ActionLog(tmp / "log.jsonl"))
    gen = r.steps(cancel)
    next(gen)  # before the first file
    next(gen)  # the first file moved, before the second
    cancel.set()
    with pytest.raises(ScanCancelled):
        next(gen)
    assert len(r.done) == 1 and len(ActionLog(tmp / "log.jsonl").read()) == 1
    assert sum(os.path.exists(p) for p in np.array(result.docs.paths)[marks]) == 3


def test_a_destination_inside_a_scanned_folder_is_refused(scanned):
    tmp, result = scanned
    with pytest.raises(ParamError, match="inside a scanned folder"):
        ActionRun(make_plan(result, _marks(result, "g0_b.txt")), "move", result.roots, str(tmp / "c" / "work" / "x"))


def test_undo_moves_the_last_move_back_and_refuses_a_file_changed_since(scanned):
    tmp, result = scanned
    log = ActionLog(tmp / "log.jsonl")
    marks = _marks(result, "g0_b.txt", "g1_b.txt")
    done = _run(result, "move", marks, tmp, folder=str(tmp / "out"))
    changed_dest = done.done[1][1]
    Path(changed_dest).write_text("edited in its new place")
    undo = run(UndoRun(last_run(log.read(), "move"), log).steps())
    assert undo.done == [result.docs.paths[done.done[0][0]]] and os.path.exists(undo.done[0])
    assert undo.refused[0][0] == changed_dest and "changed" in undo.refused[0][1]
    assert last_run(log.read(), "move") == []  # the run is undone: Undo has nothing more to do


def test_undo_steps_back_through_the_moves_newest_first_and_never_replaces_a_file(scanned):
    tmp, result = scanned
    log = ActionLog(tmp / "log.jsonl")
    first = _run(result, "move", _marks(result, "g0_b.txt"), tmp, folder=str(tmp / "out1"))
    second = _run(result, "move", _marks(result, "g1_b.txt", "lone0.txt"), tmp, folder=str(tmp / "out2"))
    paths = result.docs.paths
    [(a, a_dest)] = first.done
    [(b, b_dest), (c, c_dest)] = second.done
    Path(paths[c]).write_text("a new file where lone0.txt was")  # its old place is taken since

    undo = run(UndoRun(last_run(log.read(), "move"), log).steps())  # the newest move first
    assert undo.done == [paths[b]] and os.path.exists(paths[b]) and not os.path.exists(b_dest)
    assert undo.refused[0][0] == c_dest and "not replaced" in undo.refused[0][1]
    assert Path(paths[c]).read_text() == "a new file where lone0.txt was" and os.path.exists(c_dest)
    assert os.path.exists(a_dest) and not os.path.exists(paths[a])  # the older move is left for the next Undo

    again = run(UndoRun(last_run(log.read(), "move"), log).steps())
    assert again.done == [paths[a]] and not os.path.exists(a_dest) and again.refused == []
    assert last_run(log.read(), "move") == []  # both moves are undone: nothing more to move back


def test_an_undo_cancelled_halfway_leaves_the_rest_for_the_next_undo(scanned):
    tmp, result = scanned
    log = ActionLog(tmp / "log.jsonl")
    move = _run(result, "move", _marks(result, "g0_b.txt", "g1_b.txt", "lone0.txt"), tmp, folder=str(tmp / "out"))
    paths = result.docs.paths
    cancel = threading.Event()
    steps = UndoRun(last_run(log.read(), "move"), log).steps(cancel)
    seen = 0
    with pytest.raises(ScanCancelled):
        for p in steps:
            seen += 1
            if p.done == 1:  # the first file is back: the user cancels
                cancel.set()
    left = last_run(log.read(), "move")
    assert [e.dest for e in left] == [dest for _, dest in move.done[1:]]  # not the whole move: the two still away
    again = run(UndoRun(left, log).steps())
    assert again.done == [paths[doc] for doc, _ in move.done[1:]] and again.refused == []
    assert all(os.path.exists(paths[doc]) for doc, _ in move.done) and last_run(log.read(), "move") == []


def test_the_marked_list_exports_as_csv_and_json(scanned):
    _, result = scanned
    plan = make_plan(result, _marks(result, "g0_b.txt", "lone1.txt"))
    csv_lines = to_csv(plan).splitlines()
    assert csv_lines[0].startswith("path,") and len(csv_lines) == 3
    import json

    data = json.loads(to_json(plan))
    assert [f["path"] for f in data["marked"]] == [f.path for f in plan.files]
    assert data["total_size"] == sum(os.path.getsize(f.path) for f in plan.files)


def test_a_move_to_another_device_copies_then_removes_and_never_leaves_two_copies(tmp_path, monkeypatch):
    import errno

    from lshdesk.core.actions import run as runs

    src, dest = tmp_path / "a.txt", tmp_path / "out" / "a.txt"
    src.write_text("text")
    os.utime(src, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))

    def cross_device(a, b, **_kw):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    real_link = os.link
    monkeypatch.setattr(runs.os, "rename", cross_device)
    monkeypatch.setattr(  # only the source lies on another device: the copy beside dest links as usual
        runs.os, "link", lambda a, b, **kw: cross_device(a, b) if a == str(src) else real_link(a, b, **kw)
    )
    runs.move_file(str(src), str(dest))
    assert not src.exists() and dest.read_text() == "text"
    assert os.stat(dest).st_mtime_ns == 1_600_000_000_000_000_000  # the date travels: Undo can check it

    src.write_text("again")
    dest.unlink()
    monkeypatch.setattr(runs.os, "unlink", lambda p, _real=os.unlink: _real(p) if p == str(dest) else _boom(p))
    with pytest.raises(PermissionError):
        runs.move_file(str(src), str(dest))
    assert src.read_text() == "again" and not dest.exists()


def _boom(path):
    raise PermissionError(13, "Permission denied", path)


def test_a_file_appearing_at_the_destination_meanwhile_is_never_replaced(tmp_path, monkeypatch):
    from lshdesk.core.actions import run as runs

    src, dest = tmp_path / "a.txt", tmp_path / "out" / "a.txt"
    src.write_text("mine")
    dest.parent.mkdir()
    dest.write_text("theirs")  # appears after the check: the check is made to miss it
    monkeypatch.setattr(runs.os.path, "lexists", lambda p, _real=os.path.lexists: False if p == str(dest) else _real(p))
    with pytest.raises(FileExistsError):
        runs.move_file(str(src), str(dest))
    assert src.read_text() == "mine" and dest.read_text() == "theirs"
    with pytest.raises(FileExistsError):
        runs.copy_atomic(str(src), str(dest))
    assert dest.read_text() == "theirs" and sorted(p.name for p in dest.parent.iterdir()) == ["a.txt"]


@pytest.mark.parametrize("kind", ["trash", "move", "copy"])
def test_a_file_whose_real_place_is_outside_the_scanned_folders_is_never_touched(scanned, kind):
    """After the scan a folder becomes a link to the user's own files (same names, sizes, dates): the action
    checks each file's real place when it acts, and refuses."""
    tmp, result = scanned
    sub = tmp / "c" / "work" / "sub"
    mine = tmp / "mydocs"
    os.rename(sub, mine)
    os.symlink(mine, sub)
    marks = _marks(result, "g1_b.txt", "g1_copy_c.txt")
    trashed: list[str] = []
    kw = {"trash": trashed.append} if kind == "trash" else {"folder": str(tmp / "out")}
    done = _run(result, kind, marks, tmp, **kw)
    assert [d for d, _ in done.done] == [result.docs.paths.index(str(tmp / "c" / "work" / "g1_copy_c.txt"))]
    [(path, reason)] = done.refused
    assert path == str(sub / "g1_b.txt") and "outside the scanned folders" in reason
    assert str(mine / "g1_b.txt") in reason and (mine / "g1_b.txt").exists()
    assert str(mine / "g1_b.txt") not in trashed and not (tmp / "out" / "work" / "sub").exists()
