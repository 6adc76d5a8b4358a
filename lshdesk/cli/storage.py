"""The command line's options for corpora in object storage: ``--storage-option KEY=VALUE`` (fsspec options), checked."""

from __future__ import annotations

import argparse
import os

from lshdesk.core.errors import LshdeskError
from lshdesk.terminal import say


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


def check_scan_paths(paths: list[str], storage_options: list) -> str | None:
    """Why a scan cannot start (a local path that does not exist), or None; ``--storage-option`` given with no URL
    among the paths is a warning on standard error (it does nothing for local paths)."""
    from lshdesk.core.corpus.sources import is_url

    for p in paths:
        if not is_url(p) and not os.path.exists(p):  # a URL is checked when it is listed
            return f"no such folder or file: {p}"
    if storage_options and not any(is_url(p) for p in paths):
        say("lshdesk: warning: --storage-option is for URLs (s3://, gs://, abfs://): ignored for local paths")
    return None
