"""Shared test set-up: Qt offscreen before any QApplication, and where the shared dev corpus lives."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the helper modules (core_helpers, format_samples, actions_corpus, gui_helpers) import by name from any test folder
for _helpers in ("core", "core/corpus", "core/actions", "gui"):
    sys.path.insert(0, str(Path(__file__).resolve().parent / _helpers))
# the signature cache (platformdirs) goes to a throwaway folder, never the user's cache
os.environ["XDG_CACHE_HOME"] = __import__("tempfile").mkdtemp(prefix="lshdesk-test-cache-")
# the action log (platformdirs) and the freedesktop trash (send2trash reads this at import) go to a throwaway folder
os.environ["XDG_DATA_HOME"] = __import__("tempfile").mkdtemp(prefix="lshdesk-test-data-")

import pytest  # noqa: E402

pytest_plugins = ("s3_server",)  # the `s3` fixture: a local S3-compatible server (tests/core/corpus/s3_server.py)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DEV_CORPUS = ROOT.parent / "shared" / "corpora" / "dev"


@pytest.fixture
def dev_corpus() -> Path:
    """The shared development corpus (docs/ + truth.csv); skipped where it is absent, as in a user's clone."""
    if not (DEV_CORPUS / "truth.csv").is_file():
        pytest.skip("the shared dev corpus (../shared/corpora/dev) is not here")
    return DEV_CORPUS
