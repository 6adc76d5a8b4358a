"""A local S3-compatible server for the tests: moto in server mode on 127.0.0.1, a free port, stopped at teardown."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[3] / "resources" / "sample"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class S3Server:
    """A running server: its endpoint URL and process."""

    endpoint: str
    process: subprocess.Popen


def start(env: dict[str, str] | None = None) -> S3Server:
    """Start ``moto.server`` (``env`` added to its environment) and wait until it answers (at most 30 s)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=1).close()
            return S3Server(endpoint, proc)
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop(S3Server(endpoint, proc))
                raise RuntimeError("the moto S3 server did not start") from None
            time.sleep(0.1)


def stop(server: S3Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def upload(fs, folder: Path, url: str) -> None:
    """Every file below ``folder`` to ``url`` (bucket/prefix), at the same relative names."""
    fs.pipe({f"{url}/{p.relative_to(folder).as_posix()}": p.read_bytes() for p in folder.rglob("*") if p.is_file()})


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    """A moto S3 server for the session, with ``s3://bucket/sample`` holding ``resources/sample``.

    AWS_ENDPOINT_URL and dummy credentials are set in this process's environment (so Dask worker processes
    started later inherit them), and removed at teardown."""
    pytest.importorskip("moto.server")
    pytest.importorskip("s3fs")
    server = start()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("AWS_ENDPOINT_URL", server.endpoint)
            mp.setenv("AWS_ACCESS_KEY_ID", "testing")
            mp.setenv("AWS_SECRET_ACCESS_KEY", "testing")
            mp.setenv("AWS_DEFAULT_REGION", "us-east-1")
            mp.delenv("AWS_PROFILE", raising=False)
            import fsspec

            fs = fsspec.filesystem("s3", skip_instance_cache=True)
            fs.mkdir("bucket")
            upload(fs, SAMPLE, "bucket/sample")
            yield server
    finally:
        stop(server)
