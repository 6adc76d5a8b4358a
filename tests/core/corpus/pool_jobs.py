"""Jobs for the extraction pool's tests, importable by its spawned workers: one that hangs on a name, one that dies."""

from __future__ import annotations

import os
import time

from lshdesk.core.corpus.pool import extract_job


def slow_on_hang(data: bytes, name: str, formats, tokens: bool):
    """The real job, except that a file named ``*hang*`` never finishes."""
    if "hang" in os.path.basename(name):
        time.sleep(3600)
    return extract_job(data, name, formats, tokens)


def dies_on_crash(data: bytes, name: str, formats, tokens: bool):
    """The real job, except that a file named ``*crash*`` ends the worker process at once."""
    if "crash" in os.path.basename(name):
        os._exit(3)
    return extract_job(data, name, formats, tokens)
