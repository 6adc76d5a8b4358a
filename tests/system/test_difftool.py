"""difftool: the user's command or the first known tool found, the paths always whole arguments."""

from __future__ import annotations

import stat

import pytest

from lshdesk.system import difftool


@pytest.fixture
def tools(tmp_path, monkeypatch):
    """A PATH holding only the fake programs the test writes."""
    monkeypatch.setenv("PATH", str(tmp_path))

    def make(name: str) -> None:
        p = tmp_path / name
        p.write_text("#!/bin/sh\n")
        p.chmod(p.stat().st_mode | stat.S_IXUSR)

    return make


def test_the_first_known_tool_on_the_machine_is_the_default(tools):
    assert difftool.found() == "" and difftool.command("", "a", "b") == []
    tools("kompare")
    tools("kdiff3")
    assert difftool.found() == "kdiff3"
    assert difftool.command("", "/x/a b.txt", "/y/c'd.txt") == ["kdiff3", "/x/a b.txt", "/y/c'd.txt"]


def test_a_template_places_the_paths_and_keeps_them_whole(tools):
    tools("mydiff")
    argv = difftool.command("mydiff --left={left} -R {right}", "/a/{right}.txt", "/b/$(rm -rf x).txt")
    assert argv == ["mydiff", "--left=/a/{right}.txt", "-R", "/b/$(rm -rf x).txt"]
    assert difftool.command('"mydiff" --two', "a", "b") == ["mydiff", "--two", "a", "b"]


def test_a_command_that_cannot_run_gives_nothing(tools):
    assert difftool.command("not-installed {left} {right}", "a", "b") == []
    assert difftool.command('mydiff "unclosed', "a", "b") == []
