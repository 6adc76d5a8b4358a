"""The house rules that hold the layout together: no import cycle (function-level imports count), small files."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "lshdesk"
MAX_LINES = 300
MAX_MAINWINDOW_LINES = 250


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("lshdesk")  # every import statement, at module level or inside a function


def _cycles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Pairs (a, b) where a imports b directly and b leads back to a."""
    found = []
    for module in sorted(graph.modules):
        if not module.startswith("lshdesk"):
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported.startswith("lshdesk") and graph.chain_exists(importer=imported, imported=module):
                found.append((module, imported))
    return found


def test_no_import_cycle(graph):
    assert _cycles(graph) == []


def test_the_cycle_check_sees_function_level_imports(graph):
    # the CLI opens the window through an import inside a function: grimp must count it, or cycles could hide there
    assert "lshdesk.gui.app" in graph.find_modules_directly_imported_by("lshdesk.cli")


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_files_stay_small(path):
    limit = MAX_MAINWINDOW_LINES if path.name == "mainwindow.py" else MAX_LINES
    assert len(path.read_text(encoding="utf-8").splitlines()) <= limit


def test_every_module_says_its_job():
    missing = [
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if not p.read_text().lstrip().startswith('"""')
    ]
    assert missing == []
