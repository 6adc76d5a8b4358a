"""Reaching a Dask cluster: a private LocalCluster of worker processes, or a running scheduler by its address."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import socket
import threading
import time
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
CONNECT_TIMEOUT = 10.0  # seconds a scheduler has to answer (the CLI's --connect-timeout)
SCHEMES = ("tcp", "tls")
EXAMPLE = "tcp://10.0.0.5:8786"


class ClusterError(LshdeskError):
    """The Dask engine cannot run: dask missing, scheduler unreachable, no workers, or workers that cannot run lshdesk."""


def require_distributed() -> None:
    """Raise ``ClusterError`` with the install command when ``dask.distributed`` is not installed."""
    if importlib.util.find_spec("distributed") is None:
        raise ClusterError(f"the Dask engine needs dask.distributed, which is not installed: {INSTALL_HINT}")


def check_address(address: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a scheduler address such as tcp://host:8786, or ClusterError saying what is wrong."""
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text  # 'host:8786', as dask accepts it
    host, _, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host  # [::1]
    if scheme not in SCHEMES:
        raise ClusterError(
            f"{address!r} is not a scheduler address lshdesk can use: give tcp:// or tls://, e.g. {EXAMPLE}"
        )
    if "[" in host or "]" in host or (":" in host and not rest.startswith("[")):  # 'tcp://[::1' gave host '[:'
        raise ClusterError(
            f"{address!r} is not a scheduler address (malformed host): an IPv6 host goes in brackets with its port "
            "after them, e.g. tcp://[::1]:8786"
        )
    if not host or "/" in rest or any(c.isspace() for c in rest) or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(f"{address!r} is not a scheduler address: give the host and port, e.g. {EXAMPLE}")
    return scheme, host, int(port)


def check_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Check the address, then that a Dask scheduler answers there within ``timeout`` s (it greets every new
    connection); else ClusterError saying what answered, if anything: refused, silence, a web server, ...
    Every step shares the one ``timeout``: the answer, good or bad, comes within it (plus a moment)."""
    scheme, host, port = check_address(address)
    deadline = time.monotonic() + timeout
    where = f"cannot reach the Dask scheduler at {address}"
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except socket.gaierror:
        raise ClusterError(f"{where}: there is no host called {host!r}") from None
    except ConnectionRefusedError:
        raise ClusterError(f"{where}: nothing listens on port {port} (is `dask scheduler` running there?)") from None
    except TimeoutError:
        raise ClusterError(f"{where}: no answer within {timeout:g} s (a firewall, or no such machine?)") from None
    except OSError as e:
        raise ClusterError(f"{where}: {e.strerror or e}") from None
    with sock:
        if scheme == "tls":
            return  # the greeting comes after the TLS handshake: dask checks the rest
        try:  # a scheduler greets at once: half the time left is ample, the rest is for asking what else it is
            sock.settimeout(max(0.05, (deadline - time.monotonic()) / 2))
            greeting = sock.recv(64)
        except (TimeoutError, OSError):
            greeting = b""
    if len(greeting) >= 8 and 0 < int.from_bytes(greeting[:8], "little") < 1024:  # a count of message frames
        return
    said = _what_answered(host, port, greeting, max(0.05, deadline - time.monotonic()), timeout)
    raise ClusterError(f"{where}: {said}, not a Dask scheduler")


def _what_answered(host: str, port: int, greeting: bytes, left: float, timeout: float) -> str:
    """What spoke at host:port, in a few words (an HTTP server is asked for its status line, within ``left`` s)."""
    if greeting:
        first = greeting.split(b"\n")[0][:40].decode("ascii", "replace").strip()
        return f"something answered {first!r}"
    try:
        with socket.create_connection((host, port), timeout=left) as sock:
            sock.sendall(f"HEAD / HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
            status = sock.recv(128).split(b"\r\n")[0].decode("ascii", "replace")
    except OSError:
        status = ""
    if status.startswith("HTTP/"):
        hint = " (port 8787 is the dashboard; the scheduler is usually on 8786)" if port == 8787 else ""
        return f"a web server answered ({status}){hint}"
    return f"something accepted the connection but said nothing within {timeout:g} s"


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
    assert client.scheduler is not None  # a connected client
    address = str(client.scheduler.address)
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
    address: str | None = None,
    *,
    client: Client | None = None,
    n_workers: int | None = None,
    timeout: float = CONNECT_TIMEOUT,
) -> Iterator[Client]:
    """A client for the scan; closed (with the LocalCluster it started) on exit.

    ``client`` given: used as it is and left open. ``address`` given: that scheduler, checked first with
    ``check_scheduler``, then connected to, both within ``timeout`` s in all, then checked with ``describe``.
    Neither: a LocalCluster of ``n_workers`` (default: one per core) single-threaded worker processes.
    """
    if client is not None:
        yield client
        return
    require_distributed()
    from distributed import Client, LocalCluster

    if address:
        deadline = time.monotonic() + timeout
        check_scheduler(address, timeout)  # before Client: it would wait minutes on a port that is not dask's
        cl = _open_client(address, max(0.5, deadline - time.monotonic()))
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


def _open_client(address: str, timeout: float) -> Client:
    """A dask Client of the scheduler at ``address``, ready within ``timeout`` s, else ClusterError.

    dask (2026.8) waits for the scheduler's half of the handshake with no time limit: a port that starts a
    scheduler's greeting and falls silent would hang the scan for good. The Client is made on a thread of its own; one
    that is not ready in time is left to finish there and closed when (if ever) it is.
    """
    from distributed import Client

    lock = threading.Lock()
    made: list[Client | BaseException] = []
    abandoned: list[bool] = []

    def make() -> None:
        try:
            client: Client | BaseException = Client(address, timeout=timeout, set_as_default=False)
        except BaseException as e:  # handed to the waiting thread, which raises it there
            client = e
        with lock:
            if abandoned and isinstance(client, Client):
                client.close()
            made.append(client)

    thread = threading.Thread(target=make, name="lshdesk-dask-client", daemon=True)
    thread.start()
    thread.join(timeout)
    with lock:
        if not made:
            abandoned.append(True)
            raise ClusterError(
                f"cannot reach the Dask scheduler at {address}: it did not finish its greeting within {timeout:g} s"
            )
    if isinstance(made[0], (OSError, TimeoutError, ValueError)):
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {made[0]}") from None
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]


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
