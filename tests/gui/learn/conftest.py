"""Learn test fixtures: the Learn view on its own, shown offscreen, with no experiment thread left at teardown."""

from __future__ import annotations

import pytest

from lshdesk.gui.learn import LearnView


@pytest.fixture
def view(qtbot):
    """The Learn view at 1100 x 750 with no files loaded; at teardown every experiment thread must have ended."""
    v = LearnView()
    qtbot.addWidget(v)
    v.resize(1100, 750)
    v.show()
    qtbot.waitExposed(v)
    yield v
    assert v.shutdown(5000), "experiment threads still running at teardown"
