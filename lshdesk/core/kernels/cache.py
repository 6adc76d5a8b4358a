"""Where the compiled kernels are cached, and whether they still have to be compiled (a cold cache: the first run).

numba compiles each kernel the first time it is called (~10 s for all of them) and keeps the machine code in
``NUMBA_CACHE_DIR``. lshdesk puts that in the user's cache folder (``platformdirs.user_cache_dir("lshdesk")/kernels``,
e.g. ``~/.cache/lshdesk/kernels``) rather than beside the sources, so an install in a read-only site-packages caches
too and every user has their own. numba keys each entry on the source file's path, size and modification time and
on its own version, so an upgrade of lshdesk or numba compiles again once, in new files beside the old ones;
deleting the folder is always safe.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from pathlib import Path

ENV = "NUMBA_CACHE_DIR"
# the kernels every scan calls; the S-curve explorer's (``explore``) are the GUI's
SCAN_KERNELS = ("tokens", "minhash", "banding", "pairs")


def default_dir() -> Path:
    """The user's kernel cache folder (whether or not ``NUMBA_CACHE_DIR`` overrides it)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("lshdesk", appauthor=False)) / "kernels"


def cache_dir() -> Path:
    """The folder numba caches lshdesk's kernels in: ``NUMBA_CACHE_DIR`` when set, else ``default_dir()``."""
    return Path(os.environ.get(ENV) or default_dir())


def use_user_cache() -> None:
    """Set ``NUMBA_CACHE_DIR`` to ``default_dir()`` unless the user set it (numba rereads it at every compile).

    The variable (not only numba's config) is set so worker processes (the Dask engine's) share the cache.
    """
    if not os.environ.get(ENV):
        os.environ[ENV] = str(default_dir())
        if "numba" in sys.modules:
            sys.modules["numba"].core.config.reload_config()


def is_cold(kernels: tuple[str, ...] = SCAN_KERNELS) -> bool:
    """True when no kernel of these modules (of ``lshdesk.core.kernels``) is in the cache: nothing compiled yet.

    (A warm cache may still lack a kernel a scan has not used, e.g. another hash family's: that one compiles in a
    second or two, not worth a notice.)

    Reads numba's index file name from each compiled function's cache object (``_cache._cache_file._index_path``,
    numba's internals): if numba changes them, the answer is False (no first-run notice), never an error.
    """
    from lshdesk.core.kernels.jit import Lazy

    indexes, names = [], set()
    for name in kernels:
        module = import_module(f"lshdesk.core.kernels.{name}")
        for value in vars(module).values():
            if isinstance(value, Lazy) and value.dispatcher is None:  # numba not imported yet: asked of no kernel
                names.add(_index_name(value.fn))
                continue
            index = getattr(getattr(getattr(value, "_cache", None), "_cache_file", None), "_index_path", None)
            if isinstance(index, str):
                indexes.append(index)
    if names:  # looked for by name in the cache folder, without importing numba (~0.3 s a start-up)
        found = {f for _, _, files in os.walk(cache_dir()) for f in files}
        return not (names & found) and not any(os.path.exists(i) for i in indexes)
    return bool(indexes) and not any(os.path.exists(i) for i in indexes)


def _index_name(fn) -> str:
    """The name numba gives a kernel's cache index: file stem, qualified name, first line, Python version."""
    stem = os.path.splitext(os.path.basename(fn.__code__.co_filename))[0]
    v = sys.version_info
    qual = fn.__qualname__.replace("<", "").replace(">", "")
    return f"{stem}.{qual}-{fn.__code__.co_firstlineno}.py{v[0]}{v[1]}{getattr(sys, 'abiflags', '')}.nbi"
