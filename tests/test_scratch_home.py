"""The test session's throwaway XDG folders: the session uses them, and the process that made them removes them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.scratch_home import PARTS

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(
    """
    import os, sys
    from tests.scratch_home import make_scratch_home
    home = make_scratch_home()
    (home / "cache" / "kept.bin").write_bytes(b"x")
    if hasattr(os, "fork"):
        pid = os.fork()
        if pid == 0:
            sys.exit(0)  # a forked child ending normally runs the atexit handlers it inherited
        os.waitpid(pid, 0)
    print(home)
    print(all((home / name).is_dir() for name in ("cache", "state", "data")) and (home / "cache" / "kept.bin").exists())
    print(os.environ["XDG_CACHE_HOME"] == str(home / "cache"))
    """
)


def test_the_session_writes_under_its_scratch_home():
    from tests.conftest import SCRATCH_HOME

    for var, name in PARTS.items():
        assert Path(os.environ[var]) == SCRATCH_HOME / name and (SCRATCH_HOME / name).is_dir()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_scratch_home_outlives_a_forked_child_and_goes_with_its_process():
    out = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    ).stdout.split("\n")
    home = Path(out[0])
    assert home.name.startswith("lshdesk-test-")
    assert out[1] == "True", "the folders were gone after a forked child ended"
    assert out[2] == "True"
    assert not home.exists(), "the scratch home was left behind"
