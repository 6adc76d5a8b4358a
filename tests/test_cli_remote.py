"""``lshdesk scan s3://...`` against a local S3-compatible server: the pairs of the same folder on disk, with the
local engine and with Dask worker processes; a missing bucket, wrong credentials or no server: one line, no hang."""

from __future__ import annotations

import csv
import io
import socket
import threading

import pytest
from s3_server import SAMPLE, start, stop

from lshdesk.cli import main


def _scan(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["scan", *argv])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def _pairs(out: str, prefix: str = "") -> list[tuple[str, str, str, str]]:
    rows = list(csv.DictReader(io.StringIO(out)))
    for r in rows:
        assert r["a"].startswith(prefix) and r["b"].startswith(prefix)
    return [(r["a"][len(prefix) :], r["b"][len(prefix) :], r["estimate"], r["jaccard"]) for r in rows]


def test_scan_of_a_bucket_reports_exactly_the_pairs_of_the_folder(s3, capsys):
    code, local, _ = _scan(capsys, str(SAMPLE), "-t", "0.5", "--no-cache", "-q")
    assert code == 0
    code, far, err = _scan(capsys, "s3://bucket/sample", "-t", "0.5", "--no-cache")
    assert code == 0, err
    assert _pairs(far, "s3://bucket/sample/") == _pairs(local) and len(_pairs(local)) >= 5
    assert "29 documents, 0 skipped" in err


def test_scan_of_a_bucket_with_worker_processes_reports_the_same_pairs(s3, capsys):
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'lshdesk[cluster]')")
    code, local, _ = _scan(capsys, str(SAMPLE), "-t", "0.5", "--no-cache", "-q")
    # a LocalCluster of worker processes, each reading its partition from the store itself
    code, far, err = _scan(capsys, "s3://bucket/sample", "-t", "0.5", "-q", "--engine", "dask")
    assert code == 0, err
    assert _pairs(far, "s3://bucket/sample/") == _pairs(local)


def test_a_bucket_as_reference_is_compared_only_with_the_others(s3, capsys):
    code, out, err = _scan(
        capsys, str(SAMPLE / "notes"), "--reference", "s3://bucket/sample/news", "-t", "0.5", "--no-cache", "-q"
    )
    assert code == 0, err
    pairs = _pairs(out)
    assert pairs, "notes/budget-vote-summary.txt has a twin in news"
    for a, b, *_ in pairs:
        assert a.startswith("s3://bucket/sample/news/") != b.startswith("s3://bucket/sample/news/")


def test_a_missing_bucket_is_one_line_and_exit_2(s3, capsys):
    code, out, err = _scan(capsys, "s3://no-such-bucket/docs", "-q")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no such bucket" in err and "s3://no-such-bucket/docs" in err


def test_wrong_credentials_are_one_line_and_exit_1(capsys):
    pytest.importorskip("moto.server")
    server = start({"INITIAL_NO_AUTH_ACTION_COUNT": "0"})  # this server checks every request's credentials
    try:
        code, out, err = _scan(
            capsys,
            "s3://bucket/docs",
            "--storage-option",
            f"endpoint_url={server.endpoint}",
            "--storage-option",
            "key=AKIAWRONGWRONGWRONG",
            "--storage-option",
            "secret=wrong",
            "-q",
        )
    finally:
        stop(server)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "access denied" in err and "credentials" in err


def test_an_unreachable_endpoint_is_one_line_and_exit_1(s3, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    code, out, err = _scan(capsys, "s3://bucket/sample", "--storage-option", f"endpoint_url=http://127.0.0.1:{closed}")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "cannot reach the store" in err


def test_a_silent_endpoint_times_out_instead_of_hanging(s3, capsys):
    with socket.socket() as server:  # accepts connections, never answers
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        held: list[socket.socket] = []
        stop_flag = threading.Event()

        def accept() -> None:
            server.settimeout(0.2)
            while not stop_flag.is_set():
                try:
                    held.append(server.accept()[0])
                except OSError:
                    continue

        t = threading.Thread(target=accept, daemon=True)
        t.start()
        try:
            code, out, err = _scan(
                capsys,
                "s3://bucket/sample",
                "--storage-option",
                f"endpoint_url=http://127.0.0.1:{server.getsockname()[1]}",
                "--storage-option",
                'config_kwargs={"read_timeout": 1, "connect_timeout": 1}',
                "-q",
            )
        finally:
            stop_flag.set()
            t.join()
            for c in held:
                c.close()
    assert code == 1 and err.count("\n") == 1 and "cannot reach the store" in err
    assert held, "the scan did reach the silent server"
