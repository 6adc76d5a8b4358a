"""The command line's options for datasets (each row a document): the text and id columns, and the outputs for a
data pipeline (every row's cluster, the deduplicated rows, the scheme for the tools that run at scale)."""

from __future__ import annotations

import argparse
import os

from lshdesk.core.errors import LshdeskError
from lshdesk.terminal import say

DATA_OUTPUTS = ("clusters", "write_deduplicated", "export_scheme")


def _keep(text: str) -> str:
    from lshdesk.core.persistence.rows import parse_keep  # loaded only when the option is given

    try:
        parse_keep(text)
    except LshdeskError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _rows_file(text: str) -> str:
    if not text.lower().endswith((".parquet", ".jsonl", ".ndjson")):
        raise argparse.ArgumentTypeError(f"name a .parquet or .jsonl file to write, not {text!r}")
    return text


def add_data_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The dataset options of ``scan`` (their group returned)."""
    g = parser.add_argument_group(
        "datasets",
        "a Parquet, JSON Lines (.jsonl, .jsonl.gz, .jsonl.zst), CSV/TSV or Arrow file, or a folder of "
        "them: each row a document (needs: pip install 'lshdesk[data]')",
    )
    g.add_argument("--text-column", metavar="NAME", help="the column holding the texts (default: text)")
    g.add_argument("--id-column", metavar="NAME", help="the column naming the rows (default: their position)")
    g.add_argument(
        "--clusters",
        type=_rows_file,
        metavar="OUT",
        help="write every row's cluster (its first row's number) and whether it is kept to OUT (.parquet or .jsonl)",
    )
    g.add_argument(
        "--keep",
        type=_keep,
        metavar="RULE",
        help="the row kept in each cluster: first (the default), longest, max:COLUMN or min:COLUMN",
    )
    g.add_argument(
        "--write-deduplicated",
        type=_rows_file,
        metavar="OUT",
        help="write the kept rows, with all their columns, to OUT (.parquet or .jsonl)",
    )
    g.add_argument(
        "--export-scheme",
        metavar="FILE",
        help="write the scheme (shingles, k, bands x rows, seed) as the parameters of datatrove, NeMo Curator and "
        "text-dedup, with what lshdesk measured for it, to FILE (JSON)",
    )
    return g


def check_data(args: argparse.Namespace, paths: list[str], engine: str) -> str | None:
    """Why a scan with these dataset options cannot start, or None."""
    from lshdesk.core.corpus.dataset_names import format_of, is_dataset_root
    from lshdesk.core.corpus.sources import is_url

    # a URL is a dataset when it names a dataset file; a URL folder is told when the Dask engine lists it
    rows = [format_of(p) is not None if is_url(p) else is_dataset_root(p) for p in paths]
    if any(rows) and engine == "local" and any(is_url(p) for p, r in zip(paths, rows) if r):
        return "datasets in object storage are read by the Dask engine's workers: add --engine dask"
    asked = [f"--{o.replace('_', '-')}" for o in ("text_column", "id_column", "keep", DATA_OUTPUTS[0], DATA_OUTPUTS[1])]
    asked = [o for o in asked if getattr(args, o[2:].replace("-", "_")) is not None]
    if any(rows) and not all(r or is_url(p) for p, r in zip(paths, rows)):
        return (
            "scan dataset files or folders of documents, not both: "
            + ", ".join(p for p, r in zip(paths, rows) if not r and not is_url(p))
            + " holds documents"
        )
    if getattr(args, "sample", None) is not None:
        if engine != "local":
            return "--sample draws its rows on this machine: leave out --engine dask"
        asked.insert(0, "--sample")
        if rows_out := [f"--{o.replace('_', '-')}" for o in DATA_OUTPUTS[:2] if getattr(args, o)]:
            return f"{rows_out[0]} writes every row: leave out --sample (or plan with lshdesk plan)"
    if asked and not any(rows) and not any(map(is_url, paths)):
        return f"{asked[0]} is for datasets (Parquet, JSON Lines, CSV/TSV or Arrow files): none among the paths"
    inputs = {os.path.realpath(p) for p in paths}
    for o in DATA_OUTPUTS:
        out = getattr(args, o)
        if out and (
            os.path.realpath(out) in inputs or any(os.path.realpath(out).startswith(i + os.sep) for i in inputs)
        ):
            return f"--{o.replace('_', '-')} {out} is among the scanned paths: name another file"
    return None


def data_outputs(args: argparse.Namespace, result) -> None:
    """Write the outputs asked for (OutputError or DatasetError if one cannot be written)."""
    if not (args.clusters or args.write_deduplicated or args.export_scheme):
        return  # the common case: nothing of these modules is loaded
    from lshdesk.core.humanize import plural
    from lshdesk.core.persistence import rows

    keep = args.keep or "first"
    if args.clusters:
        n, kept = rows.write_clusters(result, args.clusters, keep)
        if not args.quiet:
            say(
                f"lshdesk: {plural(n, 'row')}, {kept:,} kept (one per cluster, {keep}): clusters written to {args.clusters}"
            )
    if args.write_deduplicated:
        n = rows.write_deduplicated(result, args.write_deduplicated, keep)
        if not args.quiet:
            say(f"lshdesk: {plural(n, 'row')} kept written to {args.write_deduplicated}")
    if args.export_scheme:
        from lshdesk.core.persistence.scheme_export import write_scheme

        write_scheme(result, args.export_scheme)
        if not args.quiet:
            say(f"lshdesk: the scheme for datatrove, NeMo Curator and text-dedup written to {args.export_scheme}")
