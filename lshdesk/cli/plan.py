"""``lshdesk plan``: a dataset too large to scan here, planned on a random sample of its rows (``core.scan.plan``)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from lshdesk.core.errors import LshdeskError
from lshdesk.core.params import Banding

DEFAULT_SAMPLE = 50_000


def _scheme(text: str) -> Banding:
    b, sep, r = text.lower().replace(" ", "").partition("x")
    try:
        if sep and int(b) >= 1 and int(r) >= 1:
            return Banding(int(b), int(r))
    except (ValueError, LshdeskError):
        pass
    raise argparse.ArgumentTypeError(f"a scheme is BANDSxROWS, e.g. 16x8, not {text!r}")


def add_sample_options(g, positive: Callable, seed: Callable, default: int | None) -> None:
    """``--sample N`` and ``--sample-seed S`` (of ``plan``, and of ``scan`` for datasets)."""
    word = f"default {default:,}" if default else "default: every row"
    g.add_argument(
        "--sample", type=positive, default=default, metavar="N", help=f"a uniform random sample of N rows ({word})"
    )
    g.add_argument("--sample-seed", type=seed, default=0, metavar="S", help="the sample's seed (default 0)")


def add_plan_parser(
    sub, add_signature_options: Callable, threshold: Callable, positive: Callable, seed: Callable
) -> None:
    """The ``plan`` subcommand."""
    p = sub.add_parser(
        "plan",
        help="plan a dataset's scan on a random sample of its rows",
        description="Predict, from a uniform random sample of a dataset's rows, each scheme's candidate pairs, "
        "verification cost and pairs at the threshold on the whole dataset (95 % intervals), and its recall on "
        "the sample's pairs: the automatic scheme, its neighbours by rows, the S-curve optimum and any --scheme.",
    )
    p.add_argument("paths", nargs=1, metavar="DATASET", help="a Parquet, JSON Lines, CSV/TSV or Arrow file or folder")
    p.add_argument("--threshold", "-t", type=threshold, default=0.8, help="similarity a pair must reach (default 0.8)")
    add_signature_options(p)
    add_sample_options(p, positive, seed, DEFAULT_SAMPLE)
    p.add_argument(
        "--scheme", type=_scheme, action="append", default=[], metavar="BxR", help="a scheme to plan too (repeatable)"
    )
    p.add_argument("--text-column", metavar="NAME", help="the column holding the texts (default: text)")
    p.add_argument("--id-column", metavar="NAME", help="the column naming the rows (default: their position)")
    p.add_argument(
        "--max-size", type=float, default=20.0, metavar="MB", help="skip rows whose text is larger (default 20 MB)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help="a table (default) or json")
    p.add_argument(
        "--output", "-o", metavar="FILE", help="write there instead of standard output (- is standard output)"
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")


def plan_command(args: argparse.Namespace) -> int:
    from lshdesk.core.corpus.dataset_names import is_dataset_root
    from lshdesk.core.params import CorpusOptions, ScanParams, SignatureParams
    from lshdesk.core.scan.pipeline import sign_stage
    from lshdesk.core.scan.plan import plan
    from lshdesk.terminal import drive, emit, fail

    path = args.paths[0]
    if not is_dataset_root(path):
        return fail(f"{path} is not a dataset (a Parquet, JSON Lines, CSV/TSV or Arrow file, or a folder of them)")
    if not 0 < args.max_size <= 1_000_000:
        return fail(f"size cap must be a number of MB, more than 0 MB and at most 1,000,000 MB, not {args.max_size}")
    try:
        for s in args.scheme:
            s.check(args.num_perm)
        params = ScanParams(
            SignatureParams(args.shingle, args.family, args.num_perm, args.seed),
            args.threshold,
            None,
            CorpusOptions(
                max_bytes=max(1, int(args.max_size * 2**20)),
                text_column=args.text_column or "text",
                id_column=args.id_column,
                sample_rows=args.sample,
                sample_seed=args.sample_seed,
            ),
        )
    except LshdeskError as e:
        return fail(str(e))
    corpus = drive(sign_stage([path], params, args.cancel), args.quiet, args.cancel)
    got = plan(corpus, schemes=args.scheme)
    text = plan_json(got, params) if args.format == "json" else plan_text(got, params)
    return emit(text, args.output)


def plan_text(p, params) -> str:
    """The plan as a table: a line per scheme, the automatic one marked."""
    d = p.draw
    head = [
        f"whole dataset: {d.N:,} rows; sample: {d.n:,} rows drawn uniformly (seed {params.corpus.sample_seed}), "
        f"{p.n_docs:,} documents; {params.signature.shingle} shingles, k = {params.signature.k}",
        f"pairs >= {p.threshold:g}: {p.true_pairs:,} in the sample, {p.positives.words()} in the whole dataset",
        "predicted for the whole dataset, 95 % intervals; verification by the cost model (ids compared x "
        "1.5 ns on 2 threads) and timed here (a comparison of the sample's, on 2 threads); recall measured on the "
        "sample's pairs at the threshold, beside the S-curve's",
        "",
    ]
    cols = (
        "scheme",
        "candidate pairs",
        "ids compared",
        "verification",
        "timed here",
        f"pairs >= {p.threshold:g}",
        "recall",
        "S-curve recall",
    )
    rows = [cols]
    for s in p.schemes:
        mark = " *" if s.banding == p.automatic else ""
        expected = "n/a" if math.isnan(s.expected_recall) else f"{s.expected_recall:.2%}"
        rows.append(
            (
                f"{s.banding}{mark}",
                s.candidates.words(),
                s.ids.words(),
                s.seconds.words("s"),
                s.timed.words("s"),
                s.verified.words(),
                s.recall.words("%"),
                expected,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return (
        "\n".join(
            head + lines + ["", "* the scheme a scan of the whole dataset would choose: lshdesk scan DATASET uses it"]
        )
        + "\n"
    )


def _interval(i) -> dict:
    return {"value": _num(i.value), "low": _num(i.low), "high": _num(i.high)}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def plan_json(p, params) -> str:
    """The plan as JSON (intervals as value, low, high; null where there is none)."""
    schemes = [
        {
            "bands": s.banding.bands,
            "rows": s.banding.rows,
            "automatic": s.banding == p.automatic,
            "candidates": _interval(s.candidates),
            "ids_compared": _interval(s.ids),
            "verification_seconds": _interval(s.seconds),
            "verification_seconds_timed": _interval(s.timed),
            "pairs_at_threshold": _interval(s.verified),
            "recall": _interval(s.recall),
            "expected_recall": _num(s.expected_recall),
            "sample_candidates": s.sample_candidates,
        }
        for s in p.schemes
    ]
    out = {
        "rows": p.draw.N,
        "sample_rows": p.draw.n,
        "sample_seed": params.corpus.sample_seed,
        "sample_documents": p.n_docs,
        "threshold": p.threshold,
        "shingle": str(params.signature.shingle),
        "k": params.signature.k,
        "sample_pairs_at_threshold": p.true_pairs,
        "pairs_at_threshold": _interval(p.positives),
        "schemes": schemes,
    }
    import json  # (only here: args builds the plan parser, which every scan must not pay json for)

    return json.dumps(out, indent=1) + "\n"
