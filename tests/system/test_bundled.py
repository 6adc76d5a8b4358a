"""The bundled files: found where the package is installed, and every one of them named for the wheel."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from lshdesk.system import bundled

ROOT = Path(__file__).resolve().parents[2]


def test_the_files_the_window_uses_are_there():
    for view in ("results", "side_by_side", "signatures", "scurve", "learn"):
        assert bundled.path("help", f"{view}.html").is_file()
    for name in ("app", "open", "scan", "cancel", "export"):
        assert bundled.path("icons", f"{name}.svg").is_file()
    sample = bundled.sample_dir()
    assert sample is not None and len(list(sample.rglob("*.txt"))) >= 20


def test_every_resource_goes_into_the_wheel_but_the_screenshots_and_scripts():
    """A file added to resources/ and forgotten in [tool.setuptools.package-data] would be missing when installed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["lshdesk.resources"]
    resources = ROOT / "resources"
    for path in resources.rglob("*"):
        rel = path.relative_to(resources).as_posix()
        if not path.is_file() or rel.startswith("screenshots/") or "__pycache__" in rel or rel.endswith(".py"):
            continue
        assert any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns), rel
    assert not any(p.startswith("screenshots") for p in patterns)
