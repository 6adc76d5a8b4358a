"""The ``lshdesk`` command: no arguments opens the app; ``scan`` and ``signature`` run headless on the same core."""

from __future__ import annotations

# isort: off
from lshdesk.terminal import early_interrupts, emit, end_now, fail, say  # first: a Ctrl+C while starting is one line

# isort: on
import argparse
import json
import math
import os
import signal
import sys
import time

from lshdesk.cli_query import add_measure_option, add_query_parser
from lshdesk.cli_storage import add_storage_option
from lshdesk.core.errors import LshdeskError, ScanCancelled
from lshdesk.core.params import FAMILIES, Banding, CorpusOptions, ScanParams, ShingleSpec, SignatureParams
from lshdesk.system import commands

MAX_MEGABYTES = 1_000_000  # a size cap above a terabyte is no cap: refused as a mistake


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints the whole usage)
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
        metavar="word|word:N|char:N",
        help="shingling (default word:3)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lshdesk", description="Find near-duplicate text documents with MinHash + LSH.")
    commands.add_global_options(parser)  # --version [--verbose], --debug, the exit codes in --help
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    g = sub.add_parser("gui", help="open the app (the default), optionally on folders")
    g.add_argument("paths", nargs="*", metavar="PATH")

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
    add_storage_option(s)
    s.add_argument(
        "--include", action="append", default=[], metavar="GLOB", help="read only files matching (repeatable)"
    )
    s.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip files matching (repeatable)")
    s.add_argument("--all-files", action="store_true", help="read every file, not only known text types")
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
        "--format", choices=("csv", "json", "html"), default="csv", help="csv, json, or a self-contained html report"
    )
    s.add_argument("--output", "-o", metavar="FILE", help="write there instead of standard output")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress or summary on standard error")
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

    sig = sub.add_parser("signature", help="print the MinHash signatures of files")
    sig.add_argument("files", nargs="+", metavar="FILE")
    _add_signature_options(sig)
    sig.add_argument("--format", choices=("json",), default="json")
    add_query_parser(sub, _add_signature_options, _positive)
    commands.add_commands(sub)  # completion, install-desktop
    return parser


def _scan(args: argparse.Namespace) -> int:
    from lshdesk.core.corpus.sources import is_url, same_root
    from lshdesk.core.persistence import export
    from lshdesk.core.scan.explain import explain_empty
    from lshdesk.core.scan.pipeline import run
    from lshdesk.core.scan.progress import STAGE_WORDS
    from lshdesk.distributed.engines import make_scan

    engine = args.engine or ("dask" if args.scheduler else "local")
    if engine == "local" and args.scheduler:
        return fail("--scheduler goes with --engine dask")
    if not args.output and sys.stdout is None:
        return fail("standard output is closed: give a file with -o FILE", 1)
    if (args.bands is None) != (args.rows is None):
        return fail("--bands and --rows go together (or leave both out to choose them for the threshold)")
    for p in list(args.paths) + list(args.reference):
        if not is_url(p) and not os.path.exists(p):  # a URL is checked when it is listed
            return fail(f"no such folder or file: {p}")
    same = same_root  # 'docs', 'docs/' and './docs' are one folder
    paths = list(dict.fromkeys(args.paths, None))
    paths += [p for p in args.reference if same(p) not in {same(q) for q in paths}]
    try:
        params = ScanParams(
            SignatureParams(args.shingle, args.family, args.num_perm, args.seed),
            args.threshold,
            Banding(args.bands, args.rows) if args.bands else None,
            CorpusOptions(
                tuple(args.include),
                tuple(args.exclude),
                args.all_files,
                max(1, int(args.max_size * 2**20)),
                args.formats,
                tuple(args.storage_option),
            ),
        )
    except LshdeskError as e:
        return fail(str(e))
    ref_real = {same(p) for p in args.reference}
    reference = [i for i, p in enumerate(paths) if same(p) in ref_real]
    if args.measure == "containment":
        from lshdesk.cli_query import scan_containment

        return scan_containment(args, paths, params, reference)
    show = not args.quiet and sys.stderr is not None and sys.stderr.isatty()
    last = [0.0]

    def progress(p) -> None:
        if p.warning and not args.quiet:
            say(("\n" if show else "") + f"lshdesk: warning: {p.warning}")
        now = time.monotonic()
        if show and (now - last[0] > 0.1 or p.stage == "done"):
            last[0] = now
            count = f"{p.done:,}/{p.total:,} {p.unit}" if p.total else (f"{p.done:,} {p.unit}" if p.unit else "")
            line = f"{STAGE_WORDS.get(p.stage, p.stage)}: {count}" if count else STAGE_WORDS.get(p.stage, p.stage)
            say(f"\r{line}  {p.elapsed:6.1f} s\033[K", end="")

    if engine == "dask" and args.scheduler:
        from lshdesk.distributed.cluster import check_scheduler

        check_scheduler(args.scheduler, args.connect_timeout)  # a clear message now, not a silent wait
    cache_path = os.path.join(args.cache_dir, "signatures.sqlite3") if args.cache_dir else None
    gen = make_scan(
        engine,
        paths,
        params,
        None,
        reference,
        address=args.scheduler,
        cache=not args.no_cache,
        cache_path=cache_path,
        gather=False,
    )
    try:
        result = run(gen, progress)
    except ScanCancelled:
        return fail("cancelled", 130)
    finally:
        gen.close()  # a Dask scan's cluster is shut down here, also on Ctrl+C
    for warning in getattr(result, "warnings", ()):
        if not args.quiet or "newer lshdesk" in warning:  # a cache left alone is said even under -q
            say(f"lshdesk: warning: {warning}")
    if show:
        say("")
    if args.format == "html":
        from lshdesk.core.persistence.report import to_html

        text = to_html(result)
    else:
        text = export.to_csv(result) if args.format == "csv" else export.to_json(result)
    if code := emit(text, args.output):
        return code
    if not args.quiet:
        say(
            f"lshdesk: {len(result.docs)} documents, {len(result.skipped)} skipped, {len(result.candidates)} candidate pairs, "
            f"{len(result.pairs)} pairs >= {params.threshold} in {len(result.groups)} groups "
            f"(bands x rows {result.banding}, {result.seconds:.2f} s)"
        )
        if not len(result.pairs):
            say(f"lshdesk: {explain_empty(result)}")
    return 0


def _signature(args: argparse.Namespace) -> int:
    from lshdesk.core.corpus.reading import read_text
    from lshdesk.core.errors import NotText
    from lshdesk.core.minhash import sign_texts
    from lshdesk.core.pathnames import name_fields

    if sys.stdout is None:
        return fail("standard output is closed: redirect it to a file", 1)
    texts = []
    for path in args.files:
        if not os.path.isfile(path):
            return fail(f"no such file: {path}")
        try:
            texts.append(read_text(path, 2**31))
        except NotText as e:
            return fail(f"{path}: {e}", 1)
    sigs = sign_texts(texts, SignatureParams(args.shingle, args.family, args.num_perm, args.seed))
    out = {"signatures": [{**name_fields(p), "values": row.tolist()} for p, row in zip(args.files, sigs)]}
    return emit(json.dumps(out) + "\n", None)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    if signal.getsignal(signal.SIGINT) is early_interrupts:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl+C is caught below
    try:
        args, done = commands.begin(build_parser(), argv)  # the log, --debug, --version, completion, install-desktop
        if done is not None:
            return done
        if args.command == "scan":
            return _scan(args)
        if args.command == "signature":
            return _signature(args)
        if args.command == "query":
            from lshdesk.cli_query import query

            return query(args)
        from lshdesk.gui.app import run_app

        return run_app(getattr(args, "paths", []))
    except LshdeskError as e:
        return commands.refused(e)
    except KeyboardInterrupt:
        return end_now(fail("interrupted", 130), argv)
    except MemoryError:
        msg = "out of memory: scan fewer or smaller files (--max-size), or free memory and try again"
        return end_now(fail(msg, 1), argv)
    except Exception as e:  # last resort: one line (the traceback with --debug, and in the log file)
        return commands.crashed(e)
