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

import functools  # noqa: E402

import pytest  # noqa: E402

# qtbot's waits are for an event, not a speed: what a test waits for comes the moment it is ready, so a passing test
# takes as long with any limit, while a limit of 5 s for what takes 1 s on a quiet machine failed at load 10-12
# (issue 32). Every wait gets at least WAIT_FLOOR_MS; speed is measured by tests/benchmarks.
WAIT_FLOOR_MS = 60_000


def _generous_waits() -> None:
    try:
        from pytestqt.qtbot import QtBot
    except ImportError:  # no Qt: the GUI tests are not collected
        return

    def floor(wait):
        @functools.wraps(wait)
        def waiting(self, *args, timeout=5000, **kwargs):
            return wait(self, *args, timeout=timeout if timeout < 0 else max(timeout, WAIT_FLOOR_MS), **kwargs)

        return waiting

    for name in ("waitUntil", "waitSignal", "waitSignals", "waitExposed", "waitActive", "waitCallback"):
        setattr(QtBot, name, floor(getattr(QtBot, name)))


_generous_waits()

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
