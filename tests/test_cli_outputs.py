"""What the command line writes to and reads from: ``-o`` keeps links, devices and FIFOs what they were, ``-o -`` is
standard output, a device given as a document is named as one, and memory running out is one line."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from lshdesk.cli import entry as cli
from lshdesk.terminal import OUT_OF_MEMORY
from tests.test_cli import call

ROOT = Path(__file__).resolve().parent.parent
TEXT = " ".join("alpha beta gamma delta epsilon zeta eta theta iota kappa".split() * 20)


@pytest.fixture
def docs(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(TEXT)
    (root / "b.txt").write_text(TEXT + " omega")
    return root


def test_dash_is_standard_output_not_a_file_named_dash(docs, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = call(capsys, "scan", str(docs), "-q", "--no-cache", "-o", "-")
    assert code == 0 and out.startswith("a,b,") and "a.txt" in out
    assert not (tmp_path / "-").exists()


def test_a_symlinked_output_stays_a_link(docs, capsys, tmp_path):
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old")
    link.symlink_to(real)
    code, _, err = call(capsys, "scan", str(docs), "-q", "--no-cache", "-o", str(link))
    assert code == 0 and err == "" and link.is_symlink() and real.read_text().startswith("a,b,")


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_null_device_as_output_stays_a_device(docs, capsys, tmp_path):
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    code, _, err = call(capsys, "scan", str(docs), "-q", "--no-cache", "-o", str(null))
    assert code == 0 and err == "" and stat.S_ISCHR(os.stat(null).st_mode)


def test_a_fifo_as_output_gets_the_whole_output(docs, capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = call(capsys, "scan", str(docs), "-q", "--no-cache", "-o", str(fifo))
    reader.join(10)
    assert code == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode) and got[0].startswith(b"a,b,")


@pytest.mark.parametrize(
    "argv", [["query", "/dev/zero", "--in", "{docs}"], ["signature", "/dev/urandom"], ["signature", "{docs}"]]
)
def test_a_device_or_folder_given_as_a_document_is_named_as_such(docs, capsys, argv):
    code, out, err = call(capsys, *[a.replace("{docs}", str(docs)) for a in argv])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert ("is a device" in err or "is a folder" in err) and "no such file" not in err


@pytest.mark.parametrize(
    "exc",
    [
        MemoryError(),
        RuntimeError("can't start new thread"),
        ImportError("/x/_helperlib.so: failed to map segment from shared object"),
    ],
)
def test_memory_running_out_is_one_line_and_exit_1(capsys, monkeypatch, exc):
    def boom(args):
        raise exc

    monkeypatch.setattr(cli, "_command", boom)
    code, out, err = call(capsys, "signature", "x")
    assert code == 1 and out == "" and err == "lshdesk: error: " + OUT_OF_MEMORY + "\n"


@pytest.mark.parametrize("mb", [50, 120])  # 120: where numpy's OpenBLAS used to end the process with its own line
def test_under_a_small_address_space_the_scan_says_memory_ran_out_in_one_line(docs, mb):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))  # a small folder's scan needs 200-250 MB

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run(
        [sys.executable, "-m", "lshdesk", "scan", str(docs), "-q", "--no-cache"],
        env=env,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "out of memory" in p.stderr, p.stderr[-2000:]
    assert f"limited to {mb} MB (ulimit -v)" in p.stderr
