"""The command line's words: the ``lshdesk`` parser, its subcommands and options, each value checked in one line."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import NoReturn

from lshdesk.cli.data import add_data_options
from lshdesk.cli.plan import add_plan_parser, add_sample_options
from lshdesk.cli.query import add_measure_option, add_query_parser
from lshdesk.cli.storage import add_storage_option
from lshdesk.core import shingle_kinds
from lshdesk.core.errors import LshdeskError
from lshdesk.core.params import FAMILIES, ShingleSpec
from lshdesk.system import commands

MAX_MEGABYTES = 1_000_000  # a size cap above a terabyte is no cap: refused as a mistake


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it (``COLUMNS``, else the terminal's, else 80),
    without loading shutil (with bz2, lzma and zlib: ~3 ms of every command)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    _width: int | None = None  # the help's width, asked once

    def _get_formatter(self):  # argparse makes one per option added (to check its metavar), each asking the width
        if _Parser._width is None:
            _Parser._width = _columns() - 2
        # typeshed's formatter protocol names prog alone; every HelpFormatter takes width
        return self.formatter_class(prog=self.prog, width=_Parser._width)  # type: ignore[call-arg]

    def parse_args(self, args=None, namespace=None):
        self._argv = sys.argv[1:] if args is None else list(args)  # for error's hint
        return super().parse_args(args, namespace)

    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints the whole usage)
        if message.startswith("unrecognized arguments") and "--in" in getattr(self, "_argv", ()):
            message += " (--in takes one path: repeat it, --in A --in B)"  # 'query FILE --in A B', as it once was
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _bounded(parse, ok, what: str):
    """An argparse type: ``parse`` the text, check it with ``ok``, else say ``what`` it must be (one line)."""

    def check(text: str):
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, not {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{what}, not {text}")
        return value

    return check


_threshold = _bounded(float, lambda v: 0.0 < v <= 1.0, "threshold must be a number in (0, 1]")
_positive = _bounded(int, lambda v: v >= 1, "expected a whole number of at least 1")
_seed = _bounded(int, lambda v: 0 <= v < 2**32, f"seed must be a whole number from 0 to {2**32 - 1}")
_megabytes = _bounded(
    float,
    lambda v: math.isfinite(v) and 0 < v <= MAX_MEGABYTES,
    f"size cap must be a number of MB, more than 0 MB and at most {MAX_MEGABYTES:,} MB",
)
_seconds = _bounded(
    float, lambda v: math.isfinite(v) and 0 < v <= 3600, "a timeout in seconds, more than 0, at most 3600"
)


def _formats(text: str) -> frozenset[str]:
    from lshdesk.core.corpus.extract import parse_formats

    try:
        return parse_formats(text)
    except LshdeskError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _shingle(text: str) -> ShingleSpec:
    try:
        return ShingleSpec.parse(text)
    except LshdeskError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _add_signature_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--num-perm", "-k", type=_positive, default=128, metavar="K", help="hash functions per signature (default 128)"
    )
    p.add_argument("--seed", type=_seed, default=1, help="seed of the hash functions (default 1)")
    p.add_argument("--family", choices=FAMILIES, default="fast", help="hash family (default fast)")
    p.add_argument(
        "--shingle",
        type=_shingle,
        default=ShingleSpec("word", 3),
        metavar="|".join(shingle_kinds.written_forms()),
        help="shingling (default word:3)",
    )


def _add_signature_parser(sub) -> None:
    """The ``signature`` subcommand: the signatures of files, as JSON, on standard output or in ``-o FILE``."""
    sig = sub.add_parser("signature", help="print the MinHash signatures of files")
    sig.add_argument("files", nargs="+", metavar="FILE")
    _add_signature_options(sig)
    sig.add_argument("--format", choices=("json",), default="json", help="json (the default, and the only one)")
    sig.add_argument(
        "--output", "-o", metavar="FILE", help="write there instead of standard output (- is standard output)"
    )
    sig.add_argument("--quiet", "-q", action="store_true", help="no summary on standard error")


def _add_engine_options(s: argparse.ArgumentParser) -> None:
    """Where ``scan`` computes: this machine or a Dask cluster."""
    s.add_argument(
        "--engine",
        choices=("local", "dask"),
        help="compute here (local, the default) or on a Dask cluster (needs: pip install 'lshdesk[cluster]')",
    )
    s.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --engine dask: the scheduler, e.g. tcp://10.0.0.5:8786 (default: worker processes on this machine)",
    )
    s.add_argument(
        "--connect-timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="with --scheduler: how long to wait for it to answer (default 10)",
    )


# The subcommands a command line names first, after global flags alone, as it runs them: only that one's parser is
# built (``command_of``). Every other command line (no subcommand, --help, a typo, completion: it reads them all)
# gets the whole parser.
ON_THEIR_OWN = ("scan", "signature", "query", "plan")
_BEFORE_A_COMMAND = ("--debug", "--verbose")  # global flags that take no value and print nothing


def command_of(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs when that alone needs parsing (one of ``ON_THEIR_OWN``, after global flags
    only), else None."""
    for word in argv:
        if word not in _BEFORE_A_COMMAND:
            return word if word in ON_THEIR_OWN else None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``lshdesk`` parser; with ``only`` (from ``command_of``), the parser with that subcommand alone, which
    parses its command lines exactly as the whole one does (building every subcommand's ~70 options and their
    help texts was a fixed cost of every command)."""
    parser = _Parser(prog="lshdesk", description="Find near-duplicate text documents with MinHash + LSH.")
    commands.add_global_options(parser, exit_codes=only is None)  # --version [--verbose], --debug; the exit codes
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    if only is None:
        g = sub.add_parser("gui", help="open the app (the default), optionally on folders")
        g.add_argument("paths", nargs="*", metavar="PATH")
    if only in (None, "scan"):
        _add_scan_parser(sub)
    if only in (None, "signature"):
        _add_signature_parser(sub)
    if only in (None, "query"):
        add_query_parser(sub, _add_signature_options, _positive)
    if only in (None, "plan"):
        add_plan_parser(sub, _add_signature_options, _threshold, _positive, _seed)
    if only is None:
        commands.add_commands(sub)  # completion, install-desktop
    commands.debug_anywhere(sub)  # after every subcommand
    return parser


def _add_scan_parser(sub) -> None:
    """The ``scan`` subcommand: folders in, near-duplicate pairs out."""
    s = sub.add_parser("scan", help="scan folders and print the near-duplicate pairs")
    s.add_argument("paths", nargs="+", metavar="PATH", help="folders (or files, or URLs such as s3://bucket/prefix)")
    s.add_argument("--threshold", "-t", type=_threshold, default=0.8, help="similarity a pair must reach (default 0.8)")
    _add_signature_options(s)
    s.add_argument("--bands", "-b", type=_positive, help="bands (with --rows; default: chosen for the threshold)")
    s.add_argument("--rows", "-r", type=_positive, help="rows per band (with --bands)")
    s.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="PATH",
        help="a reference folder: its documents are compared only with the others (repeatable)",
    )
    s.add_argument(
        "--ignore-list",
        metavar="FILE",
        help="leave out the pairs this file holds (the window's Not duplicates, exported)",
    )
    add_storage_option(s)
    s.add_argument(
        "--include", action="append", default=[], metavar="GLOB", help="read only files matching (repeatable)"
    )
    s.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip files matching (repeatable)")
    s.add_argument("--all-files", action="store_true", help="read every file, not only known text types")
    s.add_argument(
        "--follow-links",
        action="store_true",
        help="follow links to folders that lie inside the scanned folders (default: listed as skipped)",
    )
    s.add_argument(
        "--formats",
        type=_formats,
        metavar="LIST",
        help="formats to read, e.g. txt,pdf,docx (default: all: txt pdf docx odt html md rtf epub)",
    )
    s.add_argument(
        "--max-size", type=_megabytes, default=20.0, metavar="MB", help="skip files larger than this (default 20 MB)"
    )
    add_measure_option(s)
    s.add_argument("--no-cache", action="store_true", help="do not use the signature cache")
    s.add_argument(
        "--cache-dir", metavar="DIR", help="where the signature cache lives (default: the user's cache folder)"
    )
    s.add_argument(
        "--format", choices=("csv", "json", "html"), default="csv", help="csv (the default), json, or an html report"
    )
    s.add_argument(
        "--output", "-o", metavar="FILE", help="write there instead of standard output (- is standard output)"
    )
    s.add_argument("--quiet", "-q", action="store_true", help="no progress or summary on standard error")
    _add_engine_options(s)
    data = add_data_options(s)  # datasets: the text and id columns, the rows' outputs
    add_sample_options(data, _positive, _seed, None)  # a dataset's random sample of rows
