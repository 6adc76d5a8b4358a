"""The compiled-kernel cache: in the user's cache folder unless NUMBA_CACHE_DIR says otherwise; cold until compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# a fresh interpreter: numba binds a kernel to its cache folder when the kernel's module is imported
PROBE = """
import os, sys
import numpy as np
from lshdesk.core.kernels import cache
print(os.environ["NUMBA_CACHE_DIR"])
print(cache.is_cold(("banding",)))
print("numba" in sys.modules)  # asking imported no numba
from lshdesk.core.kernels import banding
banding.band_keys(np.zeros((2, 4), dtype=np.uint32), 2, 2)
print(cache.is_cold(("banding",)))
"""


def _probe(env: dict[str, str]) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_kernels_cache_in_the_users_cache_folder_and_warm_up_once(tmp_path):
    cold = _probe({"NUMBA_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path)})
    assert cold == [str(tmp_path / "lshdesk" / "kernels"), "True", "False", "False"]
    assert list((tmp_path / "lshdesk" / "kernels").rglob("banding.*.nbi"))  # numba's index of the compiled kernel
    warm = _probe({"NUMBA_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path)})
    assert warm[1:3] == ["False", "False"]  # the next run finds it, by name, without importing numba


def test_numba_cache_dir_set_by_the_user_wins(tmp_path):
    mine = tmp_path / "mine"
    assert _probe({"NUMBA_CACHE_DIR": str(mine), "XDG_CACHE_HOME": str(tmp_path / "xdg")})[0] == str(mine)
    assert list(mine.rglob("*.nbi")) and not (tmp_path / "xdg").exists()
