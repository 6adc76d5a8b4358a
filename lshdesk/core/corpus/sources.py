"""Where documents come from: a root is a local folder (or file) or an fsspec URL (s3://, gs://, abfs://, ...).

This module never imports fsspec: ``remote`` (which does) is loaded only when a root or a path is a URL, so
scanning local folders costs nothing more than before. The scan lists through ``walk`` and its readers take the
objects of a batch from ``prefetch`` (many requests at once); local files are read as they always were.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from lshdesk.core.corpus import dataset_names, listing, reading
from lshdesk.core.corpus.listing import Skipped, SourceFile
from lshdesk.core.errors import LshdeskError, NotText, ParamError
from lshdesk.core.params import CorpusOptions

if TYPE_CHECKING:
    from lshdesk.core.corpus.remote import Mapper

_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+://")  # two letters at least: 'C:\\...' is a Windows path
Storage = tuple[tuple[str, str], ...]


def is_url(path: str) -> bool:
    """True for ``protocol://...`` (object storage and any other fsspec file system), False for a local path."""
    return bool(_URL.match(path)) and not path.startswith("file://")


def parse_storage_option(text: str) -> tuple[str, str]:
    """``KEY=VALUE`` as a pair (the value stays text: ``remote`` reads true/false, numbers and JSON in it)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ParamError(f"a storage option is KEY=VALUE (e.g. anon=true), not {text!r}")
    return key.strip(), value


def same_root(path: str) -> str:
    """One spelling per root ('docs', './docs/' and 's3://b/p/' equal 'docs', 'docs', 's3://b/p')."""
    return path.rstrip("/") if is_url(path) else os.path.realpath(path)


def root_path(root: str) -> str:
    """A root as its documents' paths begin: the URL without a trailing '/', or the absolute local path."""
    return root.rstrip("/") if is_url(root) else os.path.abspath(root)


def walk(
    roots: Sequence[str], options: CorpusOptions, mapper: Mapper | None = None, runs: bool = False
) -> Iterator[SourceFile | Skipped | listing.FileRun]:
    """``listing.walk`` over roots that may be URLs: each root's documents carry its index, in the order given
    (``mapper``: how a URL's top-level prefixes are listed in parallel, see ``remote.walk``). A URL root inside
    another (a reference prefix inside a scanned one) is read once, as itself, as nested local folders are.
    ``runs``: local plain text files come as ``listing.FileRun`` items, not stat-ed."""
    urls = [root_path(r) for r in roots if is_url(r)]
    if not urls:
        return listing.walk(roots, options, runs=runs)
    from lshdesk.core.corpus import remote

    def elsewhere(root: str, index: int) -> Iterator[SourceFile | Skipped] | None:
        if not is_url(root):
            return None
        inside = [u for u in urls if u.startswith(root_path(root) + "/")]
        return remote.walk(root, index, options, mapper, inside)

    return listing.walk(roots, options, elsewhere, runs)


def prefetch(
    paths: Sequence[str], index: Sequence[int], max_bytes: int, storage: Storage
) -> dict[int, bytes | NotText]:
    """The bytes (or why not) of the URLs among ``paths[i] for i in index``, fetched concurrently; {} if none."""
    urls = [i for i in index if "://" in paths[i] and is_url(paths[i])]  # the test first: 0.1 us, not 1.3 us
    if not urls:
        return {}
    from lshdesk.core.corpus import remote

    got = remote.fetch([paths[i] for i in urls], max_bytes, storage)
    return dict(zip(urls, got))


def read_bytes(path: str, max_bytes: int, storage: Storage = ()) -> bytes:
    """One document's bytes, local or remote (``reading.read_bytes`` for a local path); NotText with the reason."""
    if not is_url(path):
        return reading.read_bytes(path, max_bytes)
    try:
        got = prefetch([path], [0], max_bytes, storage)[0]
    except LshdeskError as e:  # the store's package missing, an option not understood: this document is not read
        raise NotText(str(e)) from None
    if isinstance(got, NotText):
        raise got
    return got


def read_text(path: str, max_bytes: int, formats: frozenset[str] | None = None, storage: Storage = ()) -> str:
    """One document's text, local or remote (``reading.read_text`` for a local path), or a dataset's row."""
    if (row := dataset_names.parse_row_ref(path)) is not None:
        from lshdesk.core.corpus import datasets  # its rows' types load with the first row read

        return datasets.read_row(*row)
    return reading.file_text(read_bytes(path, max_bytes, storage), path, formats)
