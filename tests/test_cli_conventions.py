"""The command line's Unix conventions (issue 32): ``--debug`` anywhere, ``--in`` beside the query files, one time
unit, ``signature`` on a folder, warnings for options that do nothing, malformed addresses, no stray escapes."""

from __future__ import annotations

import pytest

from lshdesk import cli
from lshdesk.system import logs


def _crash(args):
    raise RuntimeError("the disk said no")


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_is_accepted_before_and_after_the_subcommand(where, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(cli, "_signature", _crash)
    monkeypatch.delenv(logs.DEBUG_ENV, raising=False)
    doc = tmp_path / "a.txt"
    doc.write_text("some words", encoding="utf-8")
    argv = ["signature", str(doc)]
    argv = ["--debug", *argv] if where == "before" else [*argv, "--debug"]
    assert cli.main(argv) == 1
    assert "Traceback" in capsys.readouterr().err  # --debug took effect, wherever it stood


def test_without_debug_after_the_subcommand_there_is_no_traceback(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(cli, "_signature", _crash)
    monkeypatch.delenv(logs.DEBUG_ENV, raising=False)
    doc = tmp_path / "a.txt"
    doc.write_text("some words", encoding="utf-8")
    assert cli.main(["signature", str(doc)]) == 1
    assert "Traceback" not in capsys.readouterr().err
