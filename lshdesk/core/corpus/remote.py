"""Documents in object storage through fsspec: list a URL's objects like a folder, fetch many objects at once.

Loaded only when a root is a URL (``sources``). Listing is one ``find(detail=True)`` whose entries go through
``listing.judge``, the folders' rules and skip reasons; an object's version for the signature cache is its
version id or ETag (not its time). Reading fetches a batch with at most ``CONCURRENCY`` requests in flight, each
stopping at the size cap. Credentials come the standard way of each store (environment, config files, instance
roles) or from ``storage_options``; S3 honours ``AWS_ENDPOINT_URL`` (MinIO and other S3-compatible stores).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from lshdesk.core.corpus.listing import VCS_DIRS, Skipped, SourceFile, files_phrase, judge
from lshdesk.core.errors import LshdeskError, NotText
from lshdesk.core.humanize import human_size
from lshdesk.core.params import CorpusOptions

CONCURRENCY = 16  # requests in flight per batch (two batches at once locally): small objects are latency-bound
# never hang on an unreachable or silent endpoint: S3 connections time out and are retried a few times only
S3_DEFAULTS: dict[str, Any] = {
    # botocore's pool holds 10 connections by default: fewer than the requests lshdesk keeps in flight
    "config_kwargs": {
        "connect_timeout": 5,
        "read_timeout": 15,
        "retries": {"max_attempts": 2},
        "max_pool_connections": 64,
    }
}
S3_RETRIES = 2  # s3fs's own retries of timeouts around botocore's (5 by default): at worst 2 x 2 x 15 s, not minutes
EXTRAS = {"s3": "s3", "s3a": "s3", "gs": "gcs", "gcs": "gcs", "abfs": "azure", "az": "azure", "abfss": "azure"}


class RemoteError(LshdeskError):
    """A location in object storage cannot be listed: missing, denied, unreachable, or its package not installed."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # 2: the location or its protocol is wrong; 1: the store or its access failed


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    try:
        return json.loads(text)  # numbers and {"json": "objects"} (e.g. client_kwargs)
    except ValueError:
        return text


def storage_dict(protocol: str, storage: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """fsspec keyword arguments from ``KEY=VALUE`` texts (true/false, numbers, JSON), over lshdesk's timeouts."""
    opts: dict[str, Any] = json.loads(json.dumps(S3_DEFAULTS)) if EXTRAS.get(protocol) == "s3" else {}
    for key, text in storage:
        value = _value(text)
        if isinstance(value, dict) and isinstance(opts.get(key), dict):
            opts[key].update(value)
        else:
            opts[key] = value
    return opts


def protocol_of(url: str) -> str:
    return url.split("://", 1)[0].lower()


def filesystem(url: str, storage: Sequence[tuple[str, str]] = ()) -> Any:  # an fsspec AbstractFileSystem
    """The fsspec file system of a URL (fsspec caches instances: one per protocol and options per process)."""
    protocol = protocol_of(url)
    hint = f"pip install 'lshdesk[{EXTRAS.get(protocol, 's3')}]'"
    try:
        import fsspec

        fs = fsspec.filesystem(protocol, **storage_dict(protocol, storage))
    except ImportError as e:
        raise RemoteError(f"reading {protocol}:// needs a package that is not installed ({e}): {hint}", 2) from None
    except ValueError as e:
        raise RemoteError(f"cannot open {protocol}:// locations ({e}): {hint}", 2) from None
    except TypeError as e:  # an option the file system does not take
        raise RemoteError(f"a --storage-option is not understood by {protocol}:// ({e})", 2) from None
    if EXTRAS.get(protocol) == "s3" and isinstance(getattr(fs, "retries", None), int):
        fs.retries = min(fs.retries, S3_RETRIES)
    return fs


def explain(error: BaseException, url: str) -> RemoteError:
    """One line a user can act on, for an error of the store."""
    if isinstance(error, RemoteError):
        return error
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if isinstance(error, FileNotFoundError):
        return RemoteError(f"no such bucket or location: {url} ({first})", 2)
    if isinstance(error, PermissionError):
        return RemoteError(
            f"access denied to {url} ({first}): check the credentials (environment, config file, "
            "or --storage-option key=... --storage-option secret=...)"
        )
    return RemoteError(f"cannot reach the store for {url} ({type(error).__name__}: {first})")


def version_of(info: dict[str, Any]) -> int:
    """A stable 63-bit number of an object's version (version id, else ETag, else time): the cache's key."""
    for key in ("VersionId", "version_id", "ETag", "etag", "md5", "content_md5", "generation", "LastModified", "mtime"):
        if info.get(key) not in (None, "", "null"):
            digest = hashlib.blake2b(f"{key}={info[key]}".encode(), digest_size=8).digest()
            return int.from_bytes(digest, "big") >> 1
    return 0


Mapper = Callable[[Callable, list], list]  # map(fn, [args tuples]) -> results in order: e.g. on Dask workers
_INFO_KEYS = ("type", "size", "VersionId", "version_id", "ETag", "etag", "md5", "generation", "LastModified", "mtime")


def find(url: str, storage: Sequence[tuple[str, str]] = ()) -> dict[str, dict[str, Any]]:
    """Every object below a URL: key -> its type, size and version fields (plain data, cheap to send)."""
    fs = filesystem(url, storage)
    base = fs._strip_protocol(url).rstrip("/")
    try:
        fs.invalidate_cache(base)  # a long-lived app re-scans: list the store as it is now
        found = fs.find(base, detail=True)
    except Exception as e:  # the store's errors are many (botocore, aiohttp, google, azure): one line for each
        raise explain(e, url) from None
    return {k: _lite(i) for k, i in found.items()}


def _lite(info: dict[str, Any]) -> dict[str, Any]:
    return {f: str(v) if f == "LastModified" else v for f, v in info.items() if f in _INFO_KEYS}


def _find_split(
    fs: Any, root: str, base: str, storage: Sequence[tuple[str, str]], mapper: Mapper
) -> dict[str, dict[str, Any]]:
    """``find``, each top-level prefix listed by one ``mapper`` call (on a cluster: by the workers, in parallel)."""
    try:
        top = fs.ls(base, detail=True)
    except Exception as e:
        raise explain(e, root) from None
    found = {i["name"]: _lite(i) for i in top if i.get("type") == "file"}
    subdirs = sorted(i["name"] for i in top if i.get("type") == "directory" and i["name"].rstrip("/") != base)
    for part in mapper(find, [(fs.unstrip_protocol(d), storage) for d in subdirs]):
        found.update(part)
    return found


def walk(
    root: str, index: int, options: CorpusOptions, mapper: Mapper | None = None, inside: Sequence[str] = ()
) -> Iterator[SourceFile | Skipped]:
    """Every object below a URL (sorted as a folder's walk is), judged by the folders' rules; with a ``mapper``,
    the top-level prefixes are listed through it (a prefix of millions of objects is listed by many workers).
    Objects below the URLs ``inside`` (other roots within this one) are left to them."""
    fs = filesystem(root, options.storage_options)
    base = fs._strip_protocol(root).rstrip("/")
    found = (
        _find_split(fs, root, base, options.storage_options, mapper) if mapper else find(root, options.storage_options)
    )
    if not found:
        raise RemoteError(f"no such bucket or location, or nothing in it: {root}", 2)
    rels: list[tuple[list[str], str, dict]] = []
    for key, info in found.items():
        if info.get("type", "file") != "file" or key.endswith("/"):
            continue
        rel = posixpath.basename(key) if key == base else key[len(base) + 1 :] if key.startswith(base + "/") else ""
        if rel:
            rels.append((rel.split("/"), key, info))
    rels.sort(key=lambda t: t[0])  # component by component: the order of a sorted depth-first walk
    prefix = root.rstrip("/")
    if inside:  # below another root given inside this one: listed as that root
        rels = [r for r in rels if not any(_below(f"{prefix}/{'/'.join(r[0])}", u) for u in inside)]
    tool = {} if options.all_files else _tool_folders(rels)
    for parts, key, info in rels:
        url = f"{prefix}/{'/'.join(parts)}" if key != base else prefix  # spelled as the root was given
        folder = _tool_folder(parts) if tool else None
        if folder is not None:
            if tool[folder]:
                yield Skipped(
                    f"{prefix}/{folder}",
                    f"tool or version-control folder, not read ({files_phrase(tool[folder])})",
                    "tool-folder",
                )
                tool[folder] = 0  # one row per folder
            continue
        size = int(info.get("size") or 0)
        yield judge(url, index, "/".join(parts), parts[-1], size, version_of(info), options)


def _below(url: str, root: str) -> bool:
    return url == root or url.startswith(root + "/")


def _tool_folder(parts: list[str]) -> str | None:
    """The outermost tool or version-control folder (.git, node_modules, ...) an object lies in, if any."""
    at = next((i for i, p in enumerate(parts[:-1]) if p in VCS_DIRS), None)
    return None if at is None else "/".join(parts[: at + 1])


def _tool_folders(rels: list) -> dict[str, int]:
    """How many objects each tool folder holds: such folders are one skipped row each, not read."""
    counts: dict[str, int] = {}
    for parts, _, _ in rels:
        if (folder := _tool_folder(parts)) is not None:
            counts[folder] = counts.get(folder, 0) + 1
    return counts


def _why(got: bytes | BaseException, max_bytes: int) -> bytes | NotText:
    if isinstance(got, FileNotFoundError):
        return NotText("object vanished before it could be read")
    if isinstance(got, PermissionError):
        return NotText("access denied (check the credentials)")
    if isinstance(got, BaseException):
        text = str(got).strip().splitlines()
        return NotText(f"cannot read: {type(got).__name__}: {text[0] if text else ''}")
    if len(got) > max_bytes:
        return NotText(f"larger than the size cap ({human_size(max_bytes)}); it grew while scanning")
    if not got:
        return NotText("empty file")
    return got


def fetch(
    urls: Sequence[str], max_bytes: int, storage: Sequence[tuple[str, str]] = (), concurrency: int = CONCURRENCY
) -> list[bytes | NotText]:
    """Each URL's bytes (at most ``max_bytes + 1`` asked for), or NotText with why not; ``concurrency`` at once."""
    out: list[bytes | NotText] = [NotText("not read")] * len(urls)
    by_protocol: dict[str, list[int]] = {}
    for i, u in enumerate(urls):
        by_protocol.setdefault(protocol_of(u), []).append(i)
    for which in by_protocol.values():
        fs = filesystem(urls[which[0]], storage)
        paths = [fs._strip_protocol(urls[i]) for i in which]
        n = len(paths)
        if getattr(fs, "async_impl", False):
            got = fs.cat_ranges(paths, [0] * n, [max_bytes + 1] * n, batch_size=concurrency, on_error="return")
        else:
            with ThreadPoolExecutor(min(concurrency, n)) as pool:
                got = list(pool.map(partial(_cat_or_error, fs, max_bytes=max_bytes), paths))
        for i, g in zip(which, got):
            out[i] = _why(g, max_bytes)
    return out


def _cat_or_error(fs: Any, path: str, max_bytes: int) -> bytes | BaseException:
    try:
        return fs.cat_file(path, 0, max_bytes + 1)
    except Exception as e:
        return e
