"""Scans on a Dask cluster (the optional ``cluster`` extra); the core never imports this package, nor dask.

``scan`` is ``lshdesk.core.scan.pipeline.scan`` run on a cluster: the same arguments, the same progress, cancel and
``ScanResult``. ``connect`` opens a client (a LocalCluster or a scheduler's address) that several scans can share;
``test_connection`` checks a scheduler address (for the GUI's Settings > Compute engine). Importing this package
does not import dask: it is loaded when a scan or a connection starts.
"""

from lshdesk.distributed.cluster import (
    INSTALL_HINT,
    ClusterError,
    ClusterInfo,
    connect,
    describe,
    require_distributed,
    test_connection,
)
from lshdesk.distributed.engine import scan

__all__ = [
    "INSTALL_HINT",
    "ClusterError",
    "ClusterInfo",
    "connect",
    "describe",
    "require_distributed",
    "scan",
    "test_connection",
]
