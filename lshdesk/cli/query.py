"""``lshdesk query`` (find like this) and ``lshdesk scan --measure containment``: parsers and commands."""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Callable, Sequence

from lshdesk.core.errors import LshdeskError, ScanCancelled
from lshdesk.core.humanize import summary_seconds
from lshdesk.core.params import CorpusOptions, ScanParams, SignatureParams
from lshdesk.terminal import drive, emit, fail, not_a_file, resume_collector, say


def _fraction(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"similarity must be a number in [0, 1], not {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"similarity must be a number in [0, 1], not {text}")
    return v


def add_measure_option(p: argparse.ArgumentParser) -> None:
    """``--measure jaccard|containment`` on ``scan``."""
    p.add_argument(
        "--measure",
        choices=("jaccard", "containment"),
        default="jaccard",
        help="jaccard (the default), or containment: pairs where a (the smaller) is contained in b at >= threshold",
    )


def add_query_parser(sub, add_signature_options: Callable, positive: Callable) -> None:
    """The ``query`` subcommand, with the scan's signature options (``add_signature_options``)."""
    q = sub.add_parser("query", help="rank the documents of folders by their similarity to given files")
    q.add_argument("files", nargs="+", metavar="FILE", help="the query documents")
    q.add_argument(  # one path per --in: with nargs="+" it took the query files after it too (--in DIR FILE)
        "--in",
        dest="inside",
        action="append",
        required=True,
        metavar="PATH",
        help="a folder (or file) to search; repeat for more: --in A --in B",
    )
    q.add_argument("--top", "-n", type=positive, default=10, metavar="N", help="matches per query (default 10)")
    q.add_argument(
        "--min-similarity", type=_fraction, default=0.0, metavar="S", help="list only matches at >= S (default 0)"
    )
    q.add_argument(
        "--measure",
        choices=("jaccard", "containment"),
        default="jaccard",
        help="rank by exact Jaccard (default) or by containment of the query in each document",
    )
    add_signature_options(q)
    q.add_argument("--no-cache", action="store_true", help="do not use the signature cache")
    q.add_argument(
        "--cache-dir", metavar="DIR", help="where the signature cache lives (default: the user's cache folder)"
    )
    q.add_argument("--format", choices=("csv", "json"), default="csv", help="csv (default) or json")
    q.add_argument(
        "--output", "-o", metavar="FILE", help="write there instead of standard output (- is standard output)"
    )
    q.add_argument("--quiet", "-q", action="store_true", help="no progress or summary on standard error")


def scan_containment(args: argparse.Namespace, paths: Sequence[str], params: ScanParams, reference: list[int]) -> int:
    """``lshdesk scan --measure containment``: columns ``a,b,estimate,containment`` (a contained in b)."""
    from lshdesk.core.corpus.skipped_words import read_counts
    from lshdesk.core.query.export import containment_csv, containment_json
    from lshdesk.distributed.engines import make_scan

    if getattr(args, "engine", None) == "dask" or getattr(args, "scheduler", None):
        return fail("--measure containment runs on this machine only: leave out --engine dask and --scheduler")
    if args.format == "html":
        return fail("--measure containment writes csv or json (the html report shows Jaccard pairs)")
    params = dataclasses.replace(params, measure="containment")
    cache_path = os.path.join(args.cache_dir, "signatures.sqlite3") if args.cache_dir else None
    gen = make_scan("local", paths, params, args.cancel, reference, cache=not args.no_cache, cache_path=cache_path)
    result = drive(gen, args.quiet, args.cancel)
    if not args.quiet:
        for w in result.warnings:
            say(f"lshdesk: warning: {w}")
    code = emit(containment_csv(result) if args.format == "csv" else containment_json(result), args.output)
    if not code and not args.quiet:
        say(
            f"lshdesk: {read_counts(len(result.docs), result.skipped)}, {len(result.candidates):,} candidate "
            f"pairs, {len(result.pairs):,} pairs with containment >= {params.threshold} ({summary_seconds(result.seconds)})"
        )
    return code


def query(args: argparse.Namespace) -> int:
    """``lshdesk query FILE... --in PATH [--in PATH...]``: each file's best matches in the folders, exact, best first."""
    from lshdesk.core.query.corpus import sign_files, signed_corpus
    from lshdesk.core.query.export import query_csv, query_json
    from lshdesk.core.query.rank import rank
    from lshdesk.core.scan.pipeline import cached_scan

    resume_collector()  # the query's modules are loaded
    for p in args.files:
        if why := not_a_file(p, f"search it with --in {p}, and give the query as a file"):
            return fail(why)
    for p in args.inside:
        if not os.path.exists(p):
            return fail(f"no such folder or file: {p}")
    try:
        params = ScanParams(
            SignatureParams(args.shingle, args.family, args.num_perm, args.seed), corpus=CorpusOptions()
        )
        batch, sigs = sign_files(args.files, params)
        inside = list(dict.fromkeys(args.inside))
        if args.no_cache:
            gen = signed_corpus(inside, params, args.cancel)
        else:
            cache_path = os.path.join(args.cache_dir, "signatures.sqlite3") if args.cache_dir else None
            gen = cached_scan(inside, params, args.cancel, (), cache_path, signed_corpus)
        result = drive(gen, args.quiet, args.cancel)
    except ScanCancelled:
        raise
    except LshdeskError as e:
        return fail(str(e), 1)
    t0 = time.perf_counter()
    where = {os.path.realpath(p): i for i, p in enumerate(result.docs.paths)}
    matches = [
        rank(
            result.signatures,
            result.shingles,
            sigs[i],
            batch.doc(i),
            args.top,
            args.min_similarity,
            args.measure,
            exclude=[where[r]] if (r := os.path.realpath(f)) in where else [],
        )
        for i, f in enumerate(args.files)
    ]
    seconds = time.perf_counter() - t0
    if not args.quiet:
        for w in result.warnings:
            say(f"lshdesk: warning: {w}")
    if args.format == "csv":
        text = query_csv(result, args.files, matches)
    else:
        text = query_json(result, args.files, matches, args.measure, args.top, args.min_similarity)
    code = emit(text, args.output)
    if not code and not args.quiet:
        say(
            f"lshdesk: {len(args.files)} quer{'y' if len(args.files) == 1 else 'ies'} against {len(result.docs):,} documents "
            f"(signed in {summary_seconds(result.seconds)}, ranked in {summary_seconds(seconds)})"
        )
    return code
