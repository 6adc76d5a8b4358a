"""Dask scheduler addresses: a malformed one is refused at once, and a port where no scheduler answers (refused,
silent, a web server, another protocol) is named within the connect timeout, never a silent wait or a traceback."""

from __future__ import annotations

import http.server
import os
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from lshdesk.cli import main
from lshdesk.distributed.cluster import ClusterError, check_address, check_scheduler

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "a.txt").write_text("a few words to scan " * 10)
    return tmp_path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def web_server():
    """An HTTP server on a free loopback port (what `--scheduler` pointed at a dashboard or a web app meets)."""
    server = socketserver.TCPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _listener(greeting: bytes | None):
    """A loopback port that accepts connections and sends ``greeting`` (or nothing, ever)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    held = []

    def serve():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            held.append(conn)
            if greeting:
                conn.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    return sock, held


@pytest.mark.parametrize(
    "address",
    [
        "foo://1.2.3.4:5",
        "tcp://",
        "tcp://host",
        "tcp://host:99999",
        "tcp://host:0",
        "tcp://h:8786/x",
        ":8786",
        "tcp://[::1",
        "tcp://::1:8786",
    ],
)
def test_a_malformed_address_is_refused_at_once(address, folder, capsys):
    with pytest.raises(ClusterError):
        check_address(address)
    t0 = time.monotonic()
    assert main(["scan", str(folder), "--engine", "dask", "--scheduler", address]) == 2
    assert time.monotonic() - t0 < 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "scheduler address" in err[0] and "e.g. tcp://" in err[0]


def test_a_malformed_address_leaves_no_traceback_behind(folder):
    r = subprocess.run(
        [sys.executable, "-m", "lshdesk", "scan", str(folder), "--scheduler", "foo://1.2.3.4:5"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_a_web_server_is_named_within_the_timeout(web_server, folder, capsys):
    t0 = time.monotonic()
    code = main(["scan", str(folder), "--scheduler", f"tcp://127.0.0.1:{web_server}", "--connect-timeout", "1", "-q"])
    assert code == 2 and time.monotonic() - t0 < 5
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a web server answered (HTTP/1.0 200 OK)" in err[0] and "not a Dask scheduler" in err[0]


def test_silence_refusal_and_other_protocols_are_named():
    silent, _ = _listener(None)
    with pytest.raises(ClusterError, match="said nothing within 0.5 s"):
        check_scheduler(f"tcp://127.0.0.1:{silent.getsockname()[1]}", 0.5)
    silent.close()
    ssh, _ = _listener(b"SSH-2.0-OpenSSH_9.6\r\n")
    with pytest.raises(ClusterError, match="something answered 'SSH-2.0-OpenSSH_9.6'"):
        check_scheduler(f"127.0.0.1:{ssh.getsockname()[1]}", 1)
    ssh.close()
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    with pytest.raises(ClusterError, match=f"cannot reach the Dask scheduler .*nothing listens on port {port}"):
        check_scheduler(f"tcp://127.0.0.1:{port}", 1)


def test_a_dask_greeting_passes_the_check():
    frames = (2).to_bytes(8, "little") + (5).to_bytes(8, "little") + b"\x83\xabcompression"
    dask_like, _ = _listener(frames)
    check_scheduler(f"tcp://127.0.0.1:{dask_like.getsockname()[1]}", 1)  # no error
    dask_like.close()


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan", "soon", "99999"])
def test_the_connect_timeout_must_be_a_sensible_number(value, folder, capsys):
    with pytest.raises(SystemExit) as e:
        main(["scan", str(folder), "--scheduler", "tcp://127.0.0.1:8786", f"--connect-timeout={value}"])
    assert e.value.code == 2 and "timeout in seconds" in capsys.readouterr().err


def _timed_scan(folder, address: str, timeout: float) -> tuple[int, float]:
    t0 = time.monotonic()
    code = main(["scan", str(folder), "--scheduler", address, "--connect-timeout", f"{timeout:g}", "-q"])
    return code, time.monotonic() - t0


def test_a_silent_port_is_named_within_the_connect_timeout(folder, capsys):
    silent, _ = _listener(None)
    address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
    code, took = _timed_scan(folder, address, 2)
    silent.close()
    assert code == 2 and took < 2 + 0.9  # the greeting wait and the question that follows share the 2 s
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and address in err[0] and "said nothing within 2 s" in err[0]


def test_the_connect_timeout_reaches_the_dask_client_and_the_scheduler_is_checked_once(folder, capsys, monkeypatch):
    pytest.importorskip("distributed")  # imported now, so its import time is not counted below
    from lshdesk.distributed import cluster

    dask_like, _ = _listener((1).to_bytes(8, "little"))  # starts a scheduler's greeting, then never says more
    address = f"tcp://127.0.0.1:{dask_like.getsockname()[1]}"
    checks = []
    real_check = cluster.check_scheduler
    monkeypatch.setattr(cluster, "check_scheduler", lambda a, t: checks.append((a, t)) or real_check(a, t))
    code, took = _timed_scan(folder, address, 2)
    dask_like.close()
    assert checks == [(address, 2.0)]
    assert code == 2 and took < 2 + 1.5  # dask's Client waited its own 10 s before
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"cannot reach the Dask scheduler at {address}" in err[0]
