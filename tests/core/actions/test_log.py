"""The action log reads back only well-formed entries, whatever else the file holds."""

from __future__ import annotations

import json

from lshdesk.core.actions.log import ActionLog, Entry, last_run


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


def test_last_run_skips_undone_runs_and_other_actions():
    entries = [_entry("a"), _entry("a"), _entry("b"), _entry("t", "trash"), _entry("u", "undo", undoes="b")]
    assert [e.run for e in last_run(entries, "move")] == ["a", "a"]
    assert [e.run for e in last_run(entries, "trash")] == ["t"]
    assert last_run(entries + [_entry("v", "undo", undoes="a")], "move") == []
