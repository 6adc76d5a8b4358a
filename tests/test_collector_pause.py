"""The cycle collector is paused while ``lshdesk`` loads its modules and resumed before the command's work (issue 29:
the collections during start-up were ~15 % of an empty folder's scan); one calling ``main`` keeps its own setting."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

from lshdesk.cli.entry import main

RUN = (
    "import gc, json, sys\n"
    "from lshdesk.__main__ import run\n"
    "seen = []\n"
    "gc.callbacks.append(lambda phase, info: phase == 'start' and seen.append(sorted(\n"
    "    m for m in ('numpy', 'lshdesk.core.scan.pipeline', 'lshdesk.core.persistence.export') if m in sys.modules)))\n"
    "sys.argv = ['lshdesk', *sys.argv[1:]]\n"
    "code = run()\n"
    "print(json.dumps([code, gc.isenabled(), gc.get_freeze_count() > 0, seen]))\n"
)


def _run(argv: list[str]) -> list:
    r = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_no_collection_runs_while_a_scan_loads_and_it_collects_again_after(tmp_path):
    (tmp_path / "docs").mkdir()
    for i in range(3):
        (tmp_path / "docs" / f"{i}.txt").write_text(f"the same few words again and again {i}", encoding="utf-8")
    code, enabled, frozen, seen = _run(["scan", str(tmp_path / "docs"), "-q", "-o", str(tmp_path / "p.csv")])
    assert code == 0 and enabled and frozen
    everything = ["lshdesk.core.persistence.export", "lshdesk.core.scan.pipeline", "numpy"]
    assert all(loaded == everything for loaded in seen)  # none before the scan's modules were all loaded


def test_a_command_that_ends_early_collects_again():
    code, enabled, _, _ = _run(["--version"])
    assert code == 0 and enabled


def test_main_called_in_a_process_leaves_the_collector_as_it_found_it(tmp_path):
    (tmp_path / "docs").mkdir()
    argv = ["scan", str(tmp_path / "docs"), "-q", "-o", str(tmp_path / "p.csv")]
    frozen = gc.get_freeze_count()
    assert main(argv) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        assert main(argv) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
