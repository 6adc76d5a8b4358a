"""The ``lshdesk`` command line: ``entry.main`` parses (``args``) and runs scan, query and signature on the core."""

from lshdesk.cli.entry import main

__all__ = ["main"]
