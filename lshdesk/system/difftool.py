"""The external diff tool Side by side opens two files in: the user's command, or the first one found on the machine."""

from __future__ import annotations

import re
import shlex
import shutil

# Graphical diff tools, best first; each takes the two files as its last two arguments.
KNOWN = ("meld", "kdiff3", "kompare", "diffuse", "tkdiff", "opendiff", "winmergeu", "bcompare")


def found() -> str:
    """The first known diff tool on PATH, or ''."""
    return next((name for name in KNOWN if shutil.which(name)), "")


def command(template: str, left: str, right: str) -> list[str]:
    """The argv to run: ``template`` (e.g. ``meld``, or ``kdiff3 --L1 A {left} {right}``) split as a shell would, with
    ``{left}`` / ``{right}`` replaced by the paths (appended when the template names neither); [] when it is empty or
    its program is not found. The paths are never shell-parsed: a name with spaces or quotes stays one argument."""
    try:
        words = shlex.split(template.strip() or found())
    except ValueError:  # an unclosed quote
        return []
    if not words or not shutil.which(words[0]):
        return []
    if not any("{left}" in w or "{right}" in w for w in words):
        return [*words, left, right]
    paths = {"{left}": left, "{right}": right}
    return [
        re.sub(r"\{left\}|\{right\}", lambda m: paths[m.group()], w) for w in words
    ]  # one pass: a path may hold "{right}"
