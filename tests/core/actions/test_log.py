"""The action log reads back only well-formed entries, whatever else the file holds."""

from __future__ import annotations

import json

from lshdesk.core.actions.log import ActionLog, Entry, finished, last_run


def _entry(run: str, action: str = "move", undoes: str = "") -> Entry:
    return Entry(run, "2026-01-01T10:00:00+0000", action, f"/src/{run}", f"/dst/{run}", 10, 5, undoes)


def test_entries_round_trip_and_damaged_lines_are_skipped(tmp_path):
    log = ActionLog(tmp_path / "sub" / "actions.jsonl")
    log.append(_entry("a"))
    with open(log.path, "ab") as f:
        f.write(b"not json\n\xff\xfe\n[1, 2]\n")
        good = {"format_version": 1, **_entry("x").__dict__}
        for key, bad in (("size", "10"), ("size", True), ("action", "delete"), ("source", None), ("format_version", 9)):
            f.write(json.dumps({**good, key: bad}).encode() + b"\n")
    log.append(_entry("b"))
    with open(log.path, "ab") as f:
        f.write(b'{"format_version": 1, "run": "c", "ti')  # a last line cut short
    assert [e.run for e in log.read()] == ["a", "b"]
    assert log.read()[0] == _entry("a")


def test_a_missing_log_is_empty(tmp_path):
    assert ActionLog(tmp_path / "none.jsonl").read() == []


def _moved(run: str, name: str) -> Entry:
    return Entry(run, "2026-01-01T10:00:00+0000", "move", f"/src/{name}", f"/dst/{name}", 10, 5)


def _back(run: str, moved: Entry) -> Entry:
    return Entry(run, "2026-01-01T10:00:00+0000", "undo", moved.dest, moved.source, 10, 5, moved.run)


def test_last_run_skips_undone_runs_and_other_actions():
    a1, a2, b1 = _moved("a", "1"), _moved("a", "2"), _moved("b", "3")
    entries = [a1, a2, b1, _entry("t", "trash"), _back("u", b1), finished("u", "b")]
    assert last_run(entries, "move") == [a1, a2]
    assert [e.run for e in last_run(entries, "trash")] == ["t"]
    assert last_run(entries + [_back("v", a1), _back("v", a2), finished("v", "a")], "move") == []


def test_an_undo_cut_short_leaves_its_other_files_and_a_finished_one_none():
    a1, a2, a3 = _moved("a", "1"), _moved("a", "2"), _moved("a", "3")
    cut = [a1, a2, a3, _back("u", a1)]  # cancelled after the first file: no finished line
    assert last_run(cut, "move") == [a2, a3]
    assert last_run([*cut, _back("w", a2), _back("w", a3)], "move") == []  # every file back (an older version)
    assert last_run([a1, a2, a3, finished("u", "a")], "move") == []  # went through all of them, refusals and all


def test_the_finished_line_round_trips_and_is_known(tmp_path):
    log = ActionLog(tmp_path / "actions.jsonl")
    log.append(finished("u", "a"))
    [line] = log.read()
    assert line.is_marker and line.undoes == "a" and not _moved("a", "1").is_marker
