"""The ``lshdesk`` command: no arguments opens the app; ``scan`` and ``signature`` run headless on the same core."""

from __future__ import annotations

# isort: off
# first: a Ctrl+C while starting is one line
from lshdesk.terminal import (
    OUT_OF_MEMORY,
    drive,
    early_interrupts,
    emit,
    end_now,
    fail,
    log_thread_memory_errors,
    not_a_file,
    off_main,
    out_of_memory,
    resume_collector,
    say,
)

# isort: on
import argparse
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING

from lshdesk.cli.args import build_parser, command_of
from lshdesk.cli.data import check_data, data_outputs
from lshdesk.cli.storage import check_scan_paths
from lshdesk.core.errors import LshdeskError, ScanCancelled
from lshdesk.core.humanize import plural, summary_seconds
from lshdesk.core.params import Banding, CorpusOptions, ScanParams, SignatureParams
from lshdesk.core.persistence.atomic import ReaderGone
from lshdesk.system import commands, logs

if TYPE_CHECKING:
    from lshdesk.core.ignore import IgnoreList


def _scan_params(args: argparse.Namespace) -> ScanParams:
    """The scan's parameters from its options (a LshdeskError says what is wrong)."""
    return ScanParams(
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
            args.follow_links,
            args.text_column or "text",
            args.id_column,
            args.sample,
            args.sample_seed,
        ),
    )


def _scan(args: argparse.Namespace) -> int:
    from lshdesk.core.corpus.sources import same_root
    from lshdesk.core.persistence import export
    from lshdesk.distributed.engines import make_scan

    resume_collector()  # the scan's modules are loaded

    engine = args.engine or ("dask" if args.scheduler else "local")
    if engine == "local" and args.scheduler:
        return fail("--scheduler goes with --engine dask")
    if args.output in (None, "", "-") and sys.stdout is None:
        return fail("standard output is closed: give a file with -o FILE", 1)
    if (args.bands is None) != (args.rows is None):
        return fail("--bands and --rows go together (or leave both out to choose them for the threshold)")
    if why := check_scan_paths(list(args.paths) + list(args.reference), args.storage_option):
        return fail(why)
    same = same_root  # 'docs', 'docs/' and './docs' are one folder
    paths = list(dict.fromkeys(args.paths, None))
    paths += [p for p in args.reference if same(p) not in {same(q) for q in paths}]
    if why := check_data(args, paths, engine):
        return fail(why)
    try:
        params = _scan_params(args)
    except LshdeskError as e:
        return fail(str(e))
    try:  # read before the scan: a damaged list is said at once, not after minutes of scanning
        ignored = _ignore_list(args.ignore_list)
    except LshdeskError as e:
        return fail(str(e))
    ref_real = {same(p) for p in args.reference}
    reference = [i for i, p in enumerate(paths) if same(p) in ref_real]
    if args.measure == "containment":
        from lshdesk.cli.query import scan_containment

        return scan_containment(args, paths, params, reference)
    cache_path = os.path.join(args.cache_dir, "signatures.sqlite3") if args.cache_dir else None
    gen = make_scan(
        engine,
        paths,
        params,
        args.cancel,
        reference,
        address=args.scheduler,
        connect_timeout=args.connect_timeout,  # the scheduler is checked once, at the scan's start, within this
        cache=not args.no_cache,
        cache_path=cache_path,
        gather=False,
    )
    result = drive(gen, args.quiet, args.cancel)  # a Dask scan's cluster is shut down there, also on Ctrl+C
    result, left_out = ignored.apply(result) if ignored is not None else (result, 0)
    for warning in getattr(result, "warnings", ()):
        if not args.quiet or "newer lshdesk" in warning:  # a cache left alone is said even under -q
            say(f"lshdesk: warning: {warning}")
    if args.format == "html":
        from lshdesk.core.persistence.report import to_html

        text = to_html(result)
    else:
        text = export.to_csv(result) if args.format == "csv" else export.to_json(result)
    if code := emit(text, args.output):
        return code
    data_outputs(args, result)  # a dataset's rows: their clusters, the deduplicated rows; the scheme
    if not args.quiet:
        left = f"{plural(left_out, 'pair')} left out: not duplicates by {args.ignore_list}" if left_out else ""
        _summary(result, params, left)
    return 0


def _ignore_list(path: str | None) -> IgnoreList | None:
    """The ``--ignore-list`` read (its module, with pathlib and json, is loaded only when one is given), or None."""
    if not path:
        return None
    from lshdesk.core.ignore import load

    return load(path)


def _summary(result, params: ScanParams, note: str = "") -> None:
    """A scan's summary on standard error: what was read and found, a ``note`` on it, tool folders left unread,
    why no pair."""
    from lshdesk.core.corpus.skipped_words import read_counts, tool_fix
    from lshdesk.core.scan.explain import explain_empty
    from lshdesk.core.scurve import scan_banding

    say(
        f"lshdesk: {read_counts(len(result.docs), result.skipped)}, {len(result.candidates):,} candidate pairs, "
        f"{len(result.pairs):,} pairs >= {params.threshold} in {len(result.groups):,} groups "
        f"(bands x rows {result.banding}, {summary_seconds(result.seconds)})"
    )
    if note:
        say(f"lshdesk: {note}")
    if fix := tool_fix(result.skipped):
        say(f"lshdesk: {fix}")
    if result.banding != scan_banding(params):  # the automatic scheme left the S-curve optimum: say why
        say(f"lshdesk: {result.scheme_note}")
    if not len(result.pairs):
        say(f"lshdesk: {explain_empty(result)}")


def _signature(args: argparse.Namespace) -> int:
    import json

    from lshdesk.core.corpus.reading import read_text
    from lshdesk.core.errors import NotText
    from lshdesk.core.minhash import sign_texts
    from lshdesk.core.pathnames import name_fields

    resume_collector()

    if args.output in (None, "", "-") and sys.stdout is None:
        return fail("standard output is closed: give a file with -o FILE", 1)
    texts = []
    for path in args.files:
        if why := not_a_file(path, f"give the files in it ({os.path.join(path, '*.txt')}), or: lshdesk scan {path}"):
            return fail(why)
        try:
            texts.append(read_text(path, 2**31))
        except NotText as e:
            return fail(f"{path}: {e}", 1)
    sigs = sign_texts(texts, SignatureParams(args.shingle, args.family, args.num_perm, args.seed))
    out = {"signatures": [{**name_fields(p), "values": row.tolist()} for p, row in zip(args.files, sigs)]}
    code = emit(json.dumps(out) + "\n", args.output)
    if not code and not args.quiet and args.output not in (None, "", "-"):
        say(f"lshdesk: {plural(len(args.files), 'signature')} (k = {args.num_perm}) written to {args.output}")
    return code


def _command(args: argparse.Namespace) -> int:
    from lshdesk.cli.plan import plan_command
    from lshdesk.cli.query import query

    return {"scan": _scan, "signature": _signature, "query": query, "plan": plan_command}[args.command](args)


def _reader_gone() -> int:
    """Standard output's reader left: say nothing more (later writes and the flush at exit go nowhere), exit 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no standard output at all: nothing left to quiet
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    if getattr(sys, "frozen", False):  # a frozen build: a spawned extraction process starts here, and runs its job
        import multiprocessing

        resume_collector()  # a worker process never comes back from freeze_support: it collects as it works
        multiprocessing.freeze_support()
    if signal.getsignal(signal.SIGINT) is early_interrupts:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl+C is caught below
    try:
        parser = build_parser(command_of(sys.argv[1:] if argv is None else argv))  # a scan builds scan's alone
        args, done = commands.begin(parser, argv)  # the log, --debug, --version, completion, install-desktop
        if done is not None:
            return done
        if args.command in (None, "gui"):
            if (why := commands.no_display()) is not None:  # before Qt, which aborts (SIGABRT) without one
                return fail(why, 2)
            from lshdesk.gui.app import run_app

            resume_collector()
            return run_app(getattr(args, "paths", []))
        log_thread_memory_errors(logs.logger)
        args.cancel = threading.Event()  # set by Ctrl+C: the scan stops at its next check
        return off_main(lambda: _command(args), args.cancel)  # compiled work never on the main thread
    except (KeyboardInterrupt, ScanCancelled):  # the command cancels only on Ctrl+C
        return end_now(fail("interrupted", 130), argv)
    except (BrokenPipeError, ReaderGone):  # the reader stopped early (`| head`): silence and success, as ripgrep does
        return _reader_gone()
    except LshdeskError as e:
        return commands.refused(e)
    except Exception as e:  # memory ran out (exit 1, in the README), or last resort: one line (traceback: --debug)
        if out_of_memory(e):
            logs.logger().error("out of memory", exc_info=e)
            return end_now(fail(OUT_OF_MEMORY, 1), argv)
        return commands.crashed(e)
    finally:
        resume_collector()  # if no command did (after its imports)
