"""Each compiled module's type stub (.pyi) names what the module has: a kernel added, renamed or removed in the
.pyx without its stub fails here (mypy reads only the stub)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[3] / "lshdesk" / "core" / "kernels"


def _public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("pyx", sorted(KERNELS.glob("*.pyx")), ids=lambda p: p.stem)
def test_the_stub_names_every_public_function_and_constant_of_its_module(pyx):
    stub = pyx.with_suffix(".pyi")
    assert stub.exists(), f"{pyx.name} has no stub {stub.name}"
    tree = ast.parse(stub.read_text())
    in_stub = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    in_stub |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    module = importlib.import_module(f"lshdesk.core.kernels.{pyx.stem}")
    compiled = _public(n for n, v in vars(module).items() if callable(v) or n.isupper())
    compiled -= {"np"}  # the module's own imports
    assert _public(in_stub) == compiled
