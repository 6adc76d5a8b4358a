"""Reaching a Dask cluster: a private LocalCluster of worker processes, or a running scheduler by its address."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lshdesk import __version__
from lshdesk.core.errors import LshdeskError

if TYPE_CHECKING:
    from distributed import Client

_log = logging.getLogger(__name__)

INSTALL_HINT = "pip install 'lshdesk[cluster]'"


class ClusterError(LshdeskError):
    """The Dask engine cannot run: dask missing, scheduler unreachable, no workers, or workers that cannot run lshdesk."""


def require_distributed() -> None:
    """Raise ``ClusterError`` with the install command when ``dask.distributed`` is not installed."""
    if importlib.util.find_spec("distributed") is None:
        raise ClusterError(f"the Dask engine needs dask.distributed, which is not installed: {INSTALL_HINT}")


@dataclass(frozen=True)
class ClusterInfo:
    """What a scheduler offers: its address, workers, threads, memory (bytes, 0 = no limit) and lshdesk versions."""

    address: str
    workers: int
    threads: int
    memory: int
    versions: tuple[str, ...]

    def __str__(self) -> str:
        mem = f", {self.memory / 2**30:.1f} GB" if self.memory else ""
        return f"{self.workers} workers, {self.threads} threads{mem} at {self.address}"


PROGRESS_TOPIC = "lshdesk-progress"
_sinks: dict[str, list[int]] = {}  # scan tag -> files read so far in each partition, as the workers report them


def report_progress(tag: str, part: int, done: int) -> None:
    """On a worker: tell the client that partition ``part`` of scan ``tag`` has read ``done`` files."""
    from distributed import get_worker

    try:
        worker = get_worker()
    except ValueError:  # not on a worker (a task run in this process)
        return
    worker.log_event(PROGRESS_TOPIC, [tag, part, done])


def _on_progress(event: tuple) -> None:  # on the client's event loop thread
    _, (tag, part, done) = event
    sink = _sinks.get(tag)
    if sink is not None and done > sink[part]:
        sink[part] = done


@contextmanager
def progress_sink(client: Client, tag: str, n_parts: int) -> Iterator[list[int]]:
    """Files read per partition of scan ``tag``, kept up to date from the workers' ``report_progress`` events."""
    sink = _sinks[tag] = [0] * n_parts
    client.subscribe_topic(PROGRESS_TOPIC, _on_progress)  # one handler for every scan of this process
    try:
        yield sink
    finally:
        del _sinks[tag]


def _worker_version() -> str:  # runs on each worker: importing this module proves lshdesk is installed there
    return __version__


def describe(client: Client, timeout: float = 10.0) -> ClusterInfo:
    """Wait (up to ``timeout`` s) for a worker, check every worker runs this lshdesk, and describe the cluster."""
    address = client.scheduler.address
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise ClusterError(
            f"the scheduler at {address} has no workers: start some with `dask worker {address}`"
        ) from None
    try:
        versions = client.run(_worker_version)
    except Exception as e:
        raise ClusterError(
            f"a worker of {address} cannot run lshdesk ({type(e).__name__}: {e}): {INSTALL_HINT} on every worker"
        ) from None
    wrong = sorted({v for v in versions.values() if v != __version__})
    if wrong:
        raise ClusterError(
            f"workers of {address} run lshdesk {', '.join(wrong)}, this is {__version__}: install the same on all"
        )
    workers = client.scheduler_info().get("workers", {})
    return ClusterInfo(
        address,
        len(workers),
        sum(int(w.get("nthreads", 0)) for w in workers.values()),
        sum(int(w.get("memory_limit") or 0) for w in workers.values()),
        tuple(sorted(set(versions.values()))),
    )


@contextmanager
def connect(
    address: str | None = None, *, client: Client | None = None, n_workers: int | None = None, timeout: float = 10.0
) -> Iterator[Client]:
    """A client for the scan; closed (with the LocalCluster it started) on exit.

    ``client`` given: used as it is and left open. ``address`` given: that scheduler, checked with ``describe``.
    Neither: a LocalCluster of ``n_workers`` (default: one per core) single-threaded worker processes.
    """
    if client is not None:
        yield client
        return
    require_distributed()
    from distributed import Client, LocalCluster

    if address:
        try:
            cl = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        try:
            describe(cl, timeout)
            yield cl
        finally:
            cl.close()
        return
    cluster = LocalCluster(  # a loopback port of the system's choosing: two scans at once do not fight over 8787
        n_workers=n_workers or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,  # not the workers' routine warnings (a cancelled task) on the user's terminal
    )
    try:
        with Client(cluster, set_as_default=False) as cl:
            yield cl
    finally:
        _stop_workers(cluster)
        cluster.close()


def _stop_workers(cluster, timeout: float = 0.5) -> None:
    """Stop a LocalCluster's workers at once: a worker still running a cancelled task is killed after ``timeout``
    (``cluster.close()`` alone gives it 4 s, which a user who pressed Cancel sees)."""

    async def stop_all() -> None:
        await asyncio.gather(
            *(n.close(timeout=timeout) for n in list(cluster.workers.values())), return_exceptions=True
        )

    try:
        cluster.sync(stop_all)
    except Exception as e:  # a worker already gone, a loop closing: cluster.close() sees to the rest
        _log.debug(
            "stopping the local workers early failed (%s: %s); closing the cluster stops them", type(e).__name__, e
        )


def test_connection(address: str, timeout: float = 5.0) -> ClusterInfo:
    """Connect to a scheduler, check its workers, describe it; raise ``ClusterError`` with the reason if it fails."""
    with connect(address, timeout=timeout) as cl:
        return describe(cl, timeout)


test_connection.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
