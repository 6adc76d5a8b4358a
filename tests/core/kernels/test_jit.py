"""Kernels on demand: numba is imported at the first kernel call (never for a run that calls none), without SciPy."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import numpy as np

from lshdesk.core.kernels import probe  # a kernel still on numba (pairs is compiled at install now)


def _run(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_scan_of_an_empty_folder_imports_no_numba(tmp_path):
    code = (
        "import json, sys\n"
        "from lshdesk.cli import main\n"
        f"code = main(['scan', {str(tmp_path)!r}, '-q', '--no-cache', '-o', {str(tmp_path / 'out.csv')!r}])\n"
        "print(json.dumps({'code': code, 'numba': 'numba' in sys.modules}))\n"
    )
    assert _run(code) == {"code": 0, "numba": False}
    assert (tmp_path / "out.csv").read_text().startswith("a,b,")


def test_the_first_call_loads_numba_without_scipy_and_scipy_still_imports():
    code = (
        "import json, sys\n"
        "import numpy as np\n"
        "from lshdesk.core.kernels import jit, probe\n"
        "before = 'numba' in sys.modules\n"
        "ids = np.array([1, 2, 3, 2, 3, 4], np.uint32); off = np.array([0, 3, 6], np.int64)\n"
        "one = np.zeros(1, np.int64)\n"
        "inter = int(probe.probe_intersection_sizes(ids, off, one, one + 1)[0])\n"
        "hidden = [m for m in sys.modules if m.split('.')[0] in jit.HIDDEN]\n"
        "bound = type(probe._bits).__name__\n"  # the helper a kernel calls is a dispatcher now
        "try:\n"
        "    import scipy.linalg  # noqa\n"
        "    later = True\n"
        "except ImportError:\n"
        "    later = None  # scipy not installed: nothing to check\n"
        "print(json.dumps([before, 'numba' in sys.modules, inter, hidden, bound, later]))\n"
    )
    before, after, inter, hidden, bound, later = _run(code)
    assert (before, after, inter, hidden) == (False, True, 2, [])
    assert bound != "Lazy"
    assert later in (True, None)


def test_a_kernel_pickles_by_name_and_works_after():
    ids = np.array([5, 7, 9, 7, 9], np.uint32)
    off = np.array([0, 3, 5], np.int64)
    fn = pickle.loads(pickle.dumps(probe.probe_intersection_sizes))
    got = fn(ids, off, np.zeros(1, np.int64), np.ones(1, np.int64))
    assert got.tolist() == [2]
