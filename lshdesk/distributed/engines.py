"""The choice of engine, in one place for the CLI and the GUI: this machine (with or without the cache) or Dask."""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence

from lshdesk.core.errors import ParamError
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.pipeline import ScanResult, cached_scan, scan
from lshdesk.core.scan.progress import Progress

ENGINES = ("local", "dask")


def make_scan(
    engine: str,
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    *,
    address: str | None = None,
    cache: bool = True,
    cache_path: str | None = None,
    gather: bool = True,
    connect_timeout: float | None = None,
) -> Generator[Progress, None, ScanResult]:
    """The scan generator of ``engine``: 'local' (the signature cache at ``cache_path`` unless ``cache`` is False)
    or 'dask' (the scheduler at ``address``, which must answer within ``connect_timeout`` s, else worker processes
    on this machine; ``gather`` as in its ``scan``).
    A containment scan (``params.measure``) runs on this machine."""
    if params.measure == "containment":
        from lshdesk.core.query.corpus import containment_scan

        if engine != "local":
            raise ParamError("a containment scan runs on this machine only: choose the local engine")
        if not cache:
            return containment_scan(roots, params, cancel, reference)
        return cached_scan(roots, params, cancel, reference, cache_path, containment_scan)
    if engine == "dask":
        from lshdesk.core.corpus.dataset_names import is_dataset_root
        from lshdesk.distributed.engine import scan as dask_scan

        if any(is_dataset_root(r) for r in roots):  # each row a document: read here (core.corpus.datasets)
            raise ParamError("datasets are scanned on this machine: choose the local engine")

        return dask_scan(
            roots, params, cancel, reference, address=address or None, gather=gather, timeout=connect_timeout
        )
    if engine != "local":
        raise ValueError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if not cache:
        return scan(roots, params, cancel, reference)
    return cached_scan(roots, params, cancel, reference, cache_path)
