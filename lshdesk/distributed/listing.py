"""Listing on the cluster: a URL's top-level prefixes are listed by the workers in parallel, not by the client alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Client


def on_workers(client: Client) -> Callable[[Callable, list], list]:
    """A ``remote.walk`` mapper: ``fn(*args)`` for each args tuple, as tasks on the workers; results in order."""

    def run(fn: Callable, items: list) -> list:
        if not items:
            return []
        futures = client.map(fn, *map(list, zip(*items)), pure=False)
        try:
            return client.gather(futures)
        finally:
            client.cancel(futures)

    return run
