"""The command line's Unix conventions (issue 32): ``--debug`` anywhere, ``--in`` beside the query files, one time
unit, ``signature`` on a folder, warnings for options that do nothing, malformed addresses, no stray escapes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lshdesk.cli import entry as cli
from lshdesk.system import logs

ROOT = Path(__file__).resolve().parent.parent


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


def _tree(root):
    words = [f"word{i}" for i in range(60)]
    for name, text in {
        "a/one.txt": " ".join(words),
        "a/two.txt": " ".join(words[:50] + ["other"] * 10),
        "b/three.txt": " ".join(words[5:] + ["more"] * 5),
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    query = root / "q.txt"
    query.write_text(" ".join(words), encoding="utf-8")
    return query


def test_query_in_before_the_file_takes_one_path(tmp_path, capsys):
    query = _tree(tmp_path)
    assert cli.main(["query", "--in", str(tmp_path / "a"), str(query), "-q"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert sorted(r.split(",")[1] for r in rows) == ["one.txt", "two.txt"]  # the file was not taken as a folder


def test_query_in_repeated_searches_every_path(tmp_path, capsys):
    query = _tree(tmp_path)
    argv = ["query", "--in", str(tmp_path / "a"), "--in", str(tmp_path / "b"), str(query), "-q"]
    assert cli.main(argv) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert sorted(r.split(",")[1].rsplit("/", 1)[-1] for r in rows) == ["one.txt", "three.txt", "two.txt"]


def test_summary_seconds_is_one_unit():
    from lshdesk.core.humanize import summary_seconds

    assert [summary_seconds(s) for s in (0.001, 0.5, 5.416, 125.4)] == ["< 0.01 s", "0.50 s", "5.42 s", "125 s"]


def test_the_query_summary_says_its_times_in_seconds(tmp_path, capsys):
    import re

    query = _tree(tmp_path)
    assert cli.main(["query", str(query), "--in", str(tmp_path / "a")]) == 0
    summary = capsys.readouterr().err.splitlines()[-1]
    units = re.findall(r"\d (\w+)\)?,?(?: |$)", summary.split("(", 1)[1])
    assert "signed in" in summary and units == ["s", "s"], summary


def test_scan_help_shows_the_default_format(capsys):
    with pytest.raises(SystemExit):
        cli.main(["scan", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "csv (the default), json" in out


def test_signature_of_a_folder_says_it_is_a_folder_and_what_to_do(tmp_path, capsys):
    _tree(tmp_path)
    assert cli.main(["signature", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert "is a folder, not a file" in err and "lshdesk scan" in err and "no such file" not in err
    assert len(err.splitlines()) == 1


def test_a_query_folder_given_as_the_query_points_to_in(tmp_path, capsys):
    _tree(tmp_path)
    assert cli.main(["query", str(tmp_path / "a"), "--in", str(tmp_path / "b")]) == 2
    assert "is a folder, not a file: search it with --in" in capsys.readouterr().err


def test_signature_writes_to_o_and_q_keeps_standard_error_quiet(tmp_path, capsys):
    import json

    _tree(tmp_path)
    out = tmp_path / "sig.json"
    assert cli.main(["signature", str(tmp_path / "a/one.txt"), "-k", "16", "-o", str(out)]) == 0
    got = capsys.readouterr()
    assert got.out == "" and "1 signature (k = 16) written to" in got.err
    assert len(json.loads(out.read_text())["signatures"][0]["values"]) == 16
    assert cli.main(["signature", str(tmp_path / "a/one.txt"), "-o", str(out), "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_storage_option_on_local_paths_is_one_warning(tmp_path, capsys):
    _tree(tmp_path)
    assert cli.main(["scan", str(tmp_path / "a"), "--storage-option", "anon=true", "-q"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["lshdesk: warning: --storage-option is for URLs (s3://, gs://, abfs://): ignored for local paths"]
    assert cli.main(["scan", str(tmp_path / "a"), "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_an_unclosed_ipv6_bracket_is_a_malformed_address_not_a_missing_host():
    from lshdesk.distributed.cluster import ClusterError, check_address

    for bad in ("tcp://[::1", "tcp://[::1]", "tcp://::1]:8786"):
        with pytest.raises(ClusterError) as e:
            check_address(bad)
        assert "not a scheduler address" in str(e.value) and "no host" not in str(e.value)
    assert "malformed host" in str(pytest.raises(ClusterError, check_address, "tcp://[::1").value)
    assert check_address("tcp://[::1]:8786") == ("tcp", "::1", 8786)


def test_a_message_after_a_progress_line_starts_on_a_line_of_its_own(monkeypatch):
    import io

    from lshdesk import terminal

    err = io.StringIO()
    monkeypatch.setattr(terminal.sys, "stderr", err)
    monkeypatch.setattr(terminal, "_progress_shown", [False])
    terminal.say("\rListing files: 3,000 files     0.2 s\033[K", end="")
    terminal.fail("interrupted", 130)  # what Ctrl+C in the middle of a scan says
    terminal.say("lshdesk: next")
    lines = ["\rListing files: 3,000 files     0.2 s\033[K", "lshdesk: error: interrupted", "lshdesk: next", ""]
    assert err.getvalue().split("\n") == lines


def _on_a_terminal(argv: list[str], cwd) -> bytes:
    """What ``lshdesk argv`` writes to a terminal (a pty for standard input, output and error), NO_COLOR=1."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time
    from pathlib import Path

    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    main, child = pty.openpty()
    p = subprocess.Popen(
        [sys.executable, "-m", "lshdesk", *argv], stdin=child, stdout=child, stderr=child, env=env, cwd=cwd
    )
    os.close(child)
    out, deadline = b"", time.monotonic() + 120
    while time.monotonic() < deadline:
        if select.select([main], [], [], 1)[0]:
            try:
                data = os.read(main, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            out += data
        elif p.poll() is not None:
            break
    p.wait(timeout=30)
    os.close(main)
    return out


@pytest.mark.parametrize(
    "argv", [["scan", "a"], ["query", "q.txt", "--in", "a"], ["signature", "q.txt"], ["scan", "x"]]
)
def test_no_stray_colour_reset_reaches_the_terminal(argv, tmp_path):
    _tree(tmp_path)
    out = _on_a_terminal(argv, tmp_path)
    assert b"lshdesk" in out or b"signatures" in out  # it ran, and spoke to the terminal
    assert b"\x1b[0m" not in out and b"\x1b[" not in out.replace(b"\x1b[K", b"")  # only the progress line's erase


def test_query_in_with_two_paths_says_to_repeat_in(tmp_path, capsys):
    query = _tree(tmp_path)
    with pytest.raises(SystemExit) as e:
        cli.main(["query", str(query), "--in", str(tmp_path / "a"), str(tmp_path / "b")])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "unrecognized arguments" in err and "repeat it, --in A --in B" in err


def test_the_window_without_a_display_is_one_line_and_exit_2_not_qts_abort():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    p = subprocess.run([sys.executable, "-m", "lshdesk"], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "no display" in p.stderr, p.stderr[-500:]
    assert "lshdesk scan DIR" in p.stderr
