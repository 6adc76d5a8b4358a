"""A batch that never ends (a worker stuck in an import under low memory) or runs out of memory: Cancel and
Ctrl+C are answered within a second, the pool is not waited on, MemoryError is one clear line and exit 1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from lshdesk.cli import main
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.params import ScanParams
from lshdesk.core.scan import pipeline, reader

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def folder(tmp_path):
    for i in range(6):
        (tmp_path / f"{i}.txt").write_text("some words to read and sign " * 20 + str(i))
    return tmp_path


def test_cancel_is_answered_while_a_batch_is_stuck(folder, monkeypatch):
    release = threading.Event()
    entered = threading.Event()

    def stuck(*args, **kwargs):
        entered.set()
        release.wait(30)
        raise RuntimeError("released")

    monkeypatch.setattr(reader, "read_and_sign_listed", stuck)
    cancel = threading.Event()
    gen = pipeline.scan([str(folder)], ScanParams(), cancel)
    threading.Thread(target=lambda: (entered.wait(10), cancel.set()), daemon=True).start()
    t0 = time.monotonic()
    try:
        with pytest.raises(ScanCancelled):
            pipeline.run(gen)
        assert time.monotonic() - t0 < 2  # not the 30 s the batch would take
    finally:
        release.set()


def test_out_of_memory_is_one_line_and_exit_1(folder, monkeypatch, capsys):
    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(reader, "read_and_sign_listed", no_memory)
    assert main(["scan", str(folder), "--no-cache"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("lshdesk: error: out of memory") and "Traceback" not in "".join(err)


def test_ctrl_c_ends_the_command_within_a_second_with_a_stuck_worker(folder):
    script = (
        "import os, sys, threading\n"
        "from lshdesk.core.scan import reader\n"
        "def stuck(*a, **k):\n"
        "    os.write(2, b'stuck\\n')\n"
        "    threading.Event().wait()\n"
        "reader.read_and_sign_listed = stuck\n"
        "from lshdesk.cli import main\n"
        f"sys.argv = ['lshdesk', 'scan', {str(folder)!r}, '--no-cache']\n"
        "sys.exit(main())\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert p.stderr.readline() == b"stuck\n"
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        code = p.wait(timeout=10)
        elapsed = time.monotonic() - t0
    finally:
        p.kill()
    err = p.stderr.read().decode()
    assert code == 130 and elapsed < 1.5, (code, elapsed, err)
    assert err.strip().splitlines()[-1] == "lshdesk: error: interrupted" and "Traceback" not in err
