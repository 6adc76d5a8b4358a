"""Progress reports of long work: a stage, its own unit, done of a real total, and an optional warning."""

from __future__ import annotations

from dataclasses import dataclass

# Each stage's name for people, shared by the CLI and the GUI.
STAGE_WORDS = {
    "connecting": "Connecting to the cluster",
    "listing": "Listing files",
    "sampling": "Drawing a random sample of the rows",
    "reading": "Reading and hashing",
    "estimating": "Estimating the candidate pairs",
    "banding": "Banding",
    "verifying": "Verifying candidate pairs",
    "grouping": "Grouping",
    "done": "Done",
}

# What each stage counts, for people (a stage not listed counts nothing: its total is 0).
UNITS = {
    "listing": "files",
    "sampling": "rows",
    "reading": "files",
    "banding": "bands",
    "verifying": "candidate pairs",
    "grouping": "groups",
    "done": "documents",
}


@dataclass(frozen=True)
class Progress:
    """Where a scan is: a stage name, items done of total (total 0 = unknown yet), and seconds since start.

    ``unit`` says what ``done`` and ``total`` count (files, bands, candidate pairs, groups). A report with a
    ``warning`` asks whoever drives the scan to decide: go on (ask for the next report) or stop (set the cancel
    flag first); the CLI prints it, the GUI asks Continue / Stop.
    """

    stage: str
    done: int
    total: int
    elapsed: float = 0.0
    unit: str = ""
    warning: str = ""

    def __post_init__(self) -> None:
        if not self.unit and self.stage in UNITS:
            object.__setattr__(self, "unit", UNITS[self.stage])
