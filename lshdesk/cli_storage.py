"""The command line's options for corpora in object storage: ``--storage-option KEY=VALUE`` (fsspec options)."""

from __future__ import annotations

import argparse

from lshdesk.core.errors import LshdeskError


def _storage_option(text: str) -> tuple[str, str]:
    from lshdesk.core.corpus.sources import parse_storage_option  # loaded only when the option is given

    try:
        return parse_storage_option(text)
    except LshdeskError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_storage_option(parser: argparse.ArgumentParser) -> None:
    """``--storage-option KEY=VALUE`` (repeatable), gathered as ``args.storage_option``: (KEY, VALUE) pairs."""
    parser.add_argument(
        "--storage-option",
        action="append",
        type=_storage_option,
        default=[],
        metavar="KEY=VALUE",
        help="an fsspec option for URLs (s3://, gs://, abfs://), e.g. anon=true or endpoint_url=http://host:9000 "
        "(repeatable); credentials otherwise come from the environment",
    )
