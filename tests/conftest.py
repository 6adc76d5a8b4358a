"""Shared test set-up: Qt offscreen before any QApplication, and where the shared dev corpus lives."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the helper modules (core_helpers, format_samples, actions_corpus, gui_helpers) import by name from any test folder
for _helpers in ("core", "core/corpus", "core/actions", "gui"):
    sys.path.insert(0, str(Path(__file__).resolve().parent / _helpers))
# the signature cache (platformdirs), lshdesk's log file (XDG_STATE_HOME), the action log, the freedesktop trash
# (send2trash reads XDG_DATA_HOME at import) and the desktop entries of install-desktop go to one throwaway folder,
# never the user's; it is removed when the session's process exits
from tests.scratch_home import make_scratch_home  # noqa: E402

SCRATCH_HOME = make_scratch_home()

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
