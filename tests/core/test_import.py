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


# What a command must not load before it needs it (issue 29: the start-up every command pays). Each was loaded by
# an empty folder's scan before: logging (+ handlers, socket) by the log file set up at every start and by
# concurrent.futures' thread pools; multiprocessing (~14 ms) by the extraction pool's pipe; numpy.random (~12 ms)
# by the hash family drawn before any file was found (it loads hashlib too, else only the datasketch family's
# SHA-1 needs it); numpy.polynomial by the S-curve's quadrature nodes (now computed in scurve). Then: pathlib (with
# urllib.parse and ipaddress, ~5 ms) by the signature cache's path and platformdirs (~3 ms; core.userdirs names the
# folder) and by the ignore list's module (loaded for --ignore-list only); tempfile and random by the atomic
# writer's temporary name; json by the CSV writer's module and by the command line itself; base64 by path names;
# shlex by the completion subcommand's parser (a scan builds scan's parser alone); the dataset outputs' module;
# the modules of datasets (a folder is told from a dataset by names: corpus.dataset_names), of the folders' overlap
# (JSON only) and of the automatic scheme (two documents or more): dataclasses each, ~0.5 ms apiece to build.
NOT_FOR_AN_EMPTY_FOLDER = (
    "logging",
    "logging.handlers",
    "socket",
    "concurrent.futures",
    "multiprocessing",
    "numpy.random",
    "numpy.polynomial",
    "hashlib",
    "pathlib",
    "urllib.parse",
    "ipaddress",
    "platformdirs",
    "tempfile",
    "random",
    "json",
    "base64",
    "shlex",
    "lshdesk.core.ignore",
    "lshdesk.system.completion",
    "lshdesk.core.persistence.rows",
    "lshdesk.core.corpus.datasets",
    "lshdesk.core.overlap",
    "lshdesk.core.pcg64",  # the hash family is drawn at the first file signed
    "lshdesk.core.scan.scheme",
)
# numpy.random (~12 ms, with secrets, hmac and hashlib) by the fast family's parameters (core.pcg64 draws them)
NOT_FOR_A_SMALL_TEXT = (
    "logging",  # concurrent.futures' thread pools: the scan's are core.threads.Workers
    "concurrent.futures",
    "shutil",  # argparse's help width (cli.args asks the terminal itself)
    "logging.handlers",
    "socket",
    "multiprocessing",
    "charset_normalizer",
    "numpy.random",
    "hashlib",
    "lshdesk.core.scan.scheme",
)
NEVER_ON_A_LOCAL_SCAN = ("dask", "distributed", "pypdf", "docx", "odf", "ebooklib", "bs4", "PySide6", "lshdesk.gui")


def _modules_after(argv: list[str]) -> set[str]:
    """The modules ``lshdesk ARGV`` loaded in a fresh interpreter (through the command line's main): not those the
    interpreter held before (an editable install's finder, run by ``site``, loads pathlib, urllib.parse, ...)."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "from lshdesk.cli.entry import main\n"
        "try:\n"
        f"    code = main({argv!r})\n"
        "except SystemExit as e:  # --help\n"
        "    code = e.code\n"
        "loaded = sorted(set(sys.modules) - before)\n"
        "import json  # after the list: the command itself need not load it\n"
        "print(json.dumps([code, loaded]))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    code, loaded = json.loads(r.stdout.strip().splitlines()[-1])
    assert code == 0
    return set(loaded)


def _top(loaded: set[str]) -> set[str]:
    return loaded | {m.split(".")[0] for m in loaded}


def test_an_empty_folders_scan_loads_no_thread_pool_log_or_random_numbers(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    loaded = _modules_after(["scan", str(empty), "-q", "-o", str(tmp_path / "pairs.csv")])
    assert "lshdesk.core.scan.pipeline" in loaded  # it did scan
    assert [m for m in NOT_FOR_AN_EMPTY_FOLDER if m in loaded] == []
    assert [m for m in NEVER_ON_A_LOCAL_SCAN if m in _top(loaded)] == []


def test_a_small_texts_scan_loads_no_extraction_processes_and_no_log_file(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "note.txt").write_text("a few plain words to scan, as a first try", encoding="utf-8")
    loaded = _modules_after(["scan", str(tmp_path / "docs"), "-q", "-o", str(tmp_path / "pairs.csv")])
    assert "lshdesk.core.pcg64" in loaded  # the hash family was drawn: the file was signed
    assert [m for m in NOT_FOR_A_SMALL_TEXT if m in loaded] == []
    assert [m for m in NEVER_ON_A_LOCAL_SCAN if m in _top(loaded)] == []


def test_a_scan_that_samples_its_documents_loads_no_numpy_random(tmp_path):
    # more documents than the estimate's and the automatic scheme's samples: both draw them (core.pcg64)
    from lshdesk.core.scan.estimate import SAMPLE_DOCS

    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(SAMPLE_DOCS + 100):
        (docs / f"{i}.txt").write_text(f"note {i} of a folder, words {i % 7} and {i % 11} to scan", encoding="utf-8")
    loaded = _modules_after(["scan", str(docs), "-q", "-o", str(tmp_path / "pairs.csv")])
    assert "lshdesk.core.scan.scheme" in loaded  # the scheme was chosen on a sample
    assert [m for m in ("numpy.random", "hashlib", "secrets", "logging", "concurrent.futures") if m in loaded] == []


def test_version_and_help_load_neither_numpy_nor_the_log():
    for argv in (["--version"], ["--help"], ["scan", "--help"]):
        loaded = _modules_after(argv)
        assert [m for m in ("numpy", "logging", "sqlite3", "lshdesk.core.scan.pipeline") if m in loaded] == [], argv
