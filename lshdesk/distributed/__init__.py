"""Scans on a Dask cluster (the optional ``cluster`` extra); the core never imports this package, nor dask.

``scan`` is ``lshdesk.core.scan.pipeline.scan`` run on a cluster: the same arguments, the same progress, cancel and
``ScanResult``. ``connect`` opens a client (a LocalCluster or a scheduler's address) that several scans can share;
``test_connection`` checks a scheduler address (for the GUI's Settings > Compute engine). Importing this package
does not import dask, nor the engine: each is loaded when a scan or a connection starts.
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> the module that holds it, imported at first use: a local scan (``distributed.engines``) goes through this
# package and paid ~50 ms for asyncio and the engine it never runs
_WHERE = {
    "INSTALL_HINT": "cluster",
    "ClusterError": "cluster",
    "ClusterInfo": "cluster",
    "connect": "cluster",
    "describe": "cluster",
    "require_distributed": "cluster",
    "test_connection": "cluster",
    "scan": "engine",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"lshdesk.distributed.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'lshdesk.distributed' has no attribute {name!r}")
