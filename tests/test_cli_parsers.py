"""A command line that names scan, signature or query is parsed by a parser holding that subcommand alone (issue 29:
building them all was a fixed cost of every command): its result, its errors and its help are the whole parser's."""

from __future__ import annotations

import contextlib
import io

import pytest

from lshdesk.cli.args import ON_THEIR_OWN, build_parser, command_of

COMMAND_LINES = [
    ["scan", "docs"],
    ["scan", "a", "b", "-t", "0.5", "-k", "64", "--seed", "7", "--shingle", "char:5", "-q", "-o", "out.csv"],
    ["--debug", "scan", "docs", "--bands", "4", "--rows", "8", "--format", "json", "--reference", "ref"],
    ["--verbose", "--debug", "scan", "docs", "--debug", "--no-cache", "--cache-dir", "c", "--measure", "containment"],
    ["scan", "docs", "--include", "*.md", "--exclude", "x*", "--all-files", "--max-size", "3", "--formats", "txt,pdf"],
    ["scan", "docs", "--engine", "dask", "--scheduler", "tcp://h:1", "--connect-timeout", "3", "--text-column", "t"],
    ["signature", "a.txt", "b.txt", "-k", "16", "--family", "article", "-o", "s.json"],
    ["query", "q.txt", "--in", "docs", "--in", "more"],
    # errors: each is said as the whole parser says it
    ["scan"],
    ["scan", "docs", "-t", "1.5"],
    ["scan", "docs", "--bogus"],
    ["scan", "docs", "--family", "nope"],
    ["scan", "docs", "--shingle", "word:0"],
    ["scan", "docs", "-k", "0"],
    ["scan", "docs", "--max-size", "inf"],
    ["scan", "docs", "--formats", "exe"],
    ["signature"],
    ["query", "q.txt", "--in", "a", "b"],
    ["scan", "--help"],
    ["signature", "-h"],
    ["query", "--help"],
    ["scan", "docs", "--version"],
]


def _parsed(parser, argv: list[str]) -> tuple:
    """What parsing ``argv`` gives: the namespace (or the exit code), and what was printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result = vars(parser.parse_args(argv))
        except SystemExit as e:
            result = e.code
    return result, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=" ".join)
def test_one_subcommands_parser_parses_as_the_whole_one(argv, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # one width for both helps
    only = command_of(argv)
    assert only == next(w for w in argv if not w.startswith("--"))
    assert _parsed(build_parser(only), argv) == _parsed(build_parser(), argv)


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], ["-h", "scan"], ["--version"], ["gui", "docs"], ["docs"], ["scna", "docs"], ["--deb", "scan"]]
    + [["completion", "bash"], ["install-desktop"], ["--", "scan", "docs"], ["--version", "scan", "docs"]],
)
def test_other_command_lines_get_the_whole_parser(argv):
    assert command_of(argv) is None


def test_the_light_parser_holds_one_subcommand_and_the_whole_one_all():
    def names(parser):
        return list(parser._subparsers._group_actions[0].choices)  # argparse has no public walk of subcommands

    assert names(build_parser()) == ["gui", "scan", "signature", "query", "plan", "completion", "install-desktop"]
    for name in ON_THEIR_OWN:
        assert names(build_parser(name)) == [name]
