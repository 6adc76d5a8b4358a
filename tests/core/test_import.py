"""The core and the command line load no Qt: a headless server or CI can use them without PySide6 being imported."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import lshdesk.core

QT_PREFIXES = ("PySide6", "shiboken6", "pyqtgraph", "superqt", "PyQt5", "PyQt6")

CORE_MODULES = sorted(m.name for m in pkgutil.walk_packages(lshdesk.core.__path__, "lshdesk.core."))


def test_core_modules_are_all_listed():
    # the list below is discovered, not typed: a new core module is checked automatically
    assert {
        "lshdesk.core.scan.pipeline",
        "lshdesk.core.minhash",
        "lshdesk.core.corpus",
        "lshdesk.core.persistence.export",
    } <= set(CORE_MODULES)


def test_core_and_cli_load_no_qt():
    modules = ["lshdesk.core", *CORE_MODULES, "lshdesk.cli"]
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        # what a scan touches lazily (charset detection, the compiled kernels) must not pull Qt in either
        "import lshdesk.core.corpus.decoding as c\n"
        "c.decode('caf\\u00e9 cr\\u00e8me br\\u00fbl\\u00e9e et voil\\u00e0'.encode('latin-1'))\n"
        "from lshdesk.core.minhash import sign_texts; from lshdesk.core.params import SignatureParams\n"
        "sign_texts(['a b c'], SignatureParams(k=4))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    loaded = json.loads(r.stdout.strip().splitlines()[-1])
    assert "lshdesk.cli" in loaded and "lshdesk.core.scan.pipeline" in loaded
    qt = [m for m in loaded if m.split(".")[0] in QT_PREFIXES]
    assert qt == [], f"Qt modules loaded by the core or the CLI: {qt}"
    assert not any(m.startswith("lshdesk.gui") for m in loaded)
