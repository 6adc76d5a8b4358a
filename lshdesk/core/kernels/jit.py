"""numba on demand: kernels are compiled functions whose numba is imported at the first call, without SciPy or cffi.

Start-up pays nothing for kernels a run never calls: ``nb.njit`` here records the function, and its first call (or
any attribute asked of it) imports numba once and makes every recorded kernel a numba dispatcher, rebinding the
kernel modules' globals, so kernels calling kernels (``inline="always"`` helpers too) see dispatchers as numba
needs. A scan of an empty folder never imports numba (~0.2 s) nor loads a kernel (~0.3 s for the first).

numba probes for SciPy (``np.dot`` and ``np.linalg`` in compiled code) on import and for cffi when its typing
loads; SciPy alone pulls ``numpy.f2py`` and array-API shims (~0.15 s, half of numba's import), cffi a C parser
(~0.07 s). The kernels use neither, so both stay hidden from numba while it loads (a name imported before is left
visible; the hiding ends when numba is in). The price, on purpose: no ``np.dot``, ``np.linalg`` or cffi in a kernel.
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
from typing import Any

HIDDEN = ("scipy", "cffi")
_KERNEL_MODULES = "lshdesk.core.kernels."

_lock = threading.Lock()
_recorded: list[Lazy] = []
_numba: Any = None


class _Hide(importlib.abc.MetaPathFinder):
    """Refuses the hidden top-level packages (and their submodules) while numba loads."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"{fullname} is not offered to numba by lshdesk", name=fullname)
        return None


def _import_numba() -> Any:
    if "numba" in sys.modules:  # loaded already (by a host, a benchmark): nothing left to save
        return sys.modules["numba"]
    hide = _Hide(tuple(n for n in HIDDEN if n not in sys.modules))
    sys.meta_path.insert(0, hide)
    try:
        import numba
        from numba.core.registry import cpu_target

        cpu_target.typing_context.refresh()  # the registries a first kernel load would import (and probe with)
        cpu_target.target_context.refresh()
    finally:
        sys.meta_path.remove(hide)
    return numba


class Lazy:
    """A kernel before numba: called (or asked an attribute), it becomes a numba dispatcher and forwards to it."""

    def __init__(self, fn, options: dict) -> None:
        self.fn, self.options = fn, options
        self.dispatcher: Any = None
        self.__doc__, self.__name__, self.__module__ = fn.__doc__, fn.__name__, fn.__module__

    def __call__(self, *args):
        d = self.dispatcher
        return (d if d is not None else self.load())(*args)

    def __getattr__(self, name: str):  # only names not set in __init__ come here
        if name.startswith("__") or name in ("fn", "options", "dispatcher"):
            raise AttributeError(name)  # copy and pickle probe dunders: never import numba for them
        return getattr(self.load(), name)

    def __reduce__(self):  # by name, as a function pickles: another process records its own
        return (_by_name, (self.__module__, self.__name__))

    def load(self) -> Any:
        if self.dispatcher is None:
            load_all()
        return self.dispatcher


def _by_name(module: str, name: str) -> Any:
    import importlib

    return getattr(importlib.import_module(module), name)


def load_all() -> None:
    """Import numba and make every recorded kernel a dispatcher (compiled or loaded from the cache at its call)."""
    global _numba
    with _lock:
        if _numba is None:
            _numba = _import_numba()
        for lazy in _recorded:
            if lazy.dispatcher is None:
                lazy.dispatcher = _numba.njit(**lazy.options)(lazy.fn)
        _recorded.clear()
        for name, module in list(sys.modules.items()):  # kernels see kernels, not stand-ins
            if name.startswith(_KERNEL_MODULES) and module is not None:
                space = vars(module)
                for key, value in list(space.items()):
                    if isinstance(value, Lazy):
                        space[key] = value.dispatcher
                    elif isinstance(value, External):
                        space[key] = value.declare(_numba)


class External:
    """A C library function a kernel calls (``nb.external``), declared to numba once numba is in: numba links the
    symbol by name, from the libraries the process has loaded, so a kernel calling it is still cached."""

    def __init__(self, symbol: str, signature) -> None:
        self.symbol, self.signature = symbol, signature  # signature(numba.types) -> the C signature

    def declare(self, numba) -> Any:
        return numba.types.ExternalFunction(self.symbol, self.signature(numba.types))


class _Numba:
    """The ``nb`` the kernel modules use: ``njit`` and ``external``, deferred until numba is needed."""

    @staticmethod
    def external(symbol: str, signature) -> Any:
        ext = External(symbol, signature)
        return ext if _numba is None else ext.declare(_numba)

    @staticmethod
    def njit(**options):
        def record(fn):
            if _numba is not None:
                return _numba.njit(**options)(fn)
            lazy = Lazy(fn, options)
            with _lock:
                _recorded.append(lazy)
            return lazy

        return record


nb = _Numba()
