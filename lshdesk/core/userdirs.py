"""The user's cache folder for lshdesk, as ``platformdirs`` names it, without importing it where the answer is plain.

Every scan opens the signature cache in that folder. ``platformdirs`` (and ``pathlib``, ``urllib.parse`` and
``ipaddress``, which it loads) cost a few milliseconds of every command's start (issue 29). On Linux with an absolute
``XDG_CACHE_HOME`` or ``HOME`` its answer is one join, made here the way it makes it (``platformdirs`` 4: an absolute
``XDG_CACHE_HOME``, else ``~/.cache`` expanded as ``os.path.expanduser`` does, then the app's name); anywhere else
(Windows, macOS, Android, a relative or missing ``HOME``) ``platformdirs`` answers. A test holds the two equal.
"""

from __future__ import annotations

import os
import sys

APP = "lshdesk"


def _plain_linux() -> bool:
    """A Linux that is not Android (whose app folders ``platformdirs`` looks up)."""
    return (
        sys.platform.startswith("linux") and not hasattr(sys, "getandroidapilevel") and "ANDROID_ROOT" not in os.environ
    )


def user_cache_dir() -> str:
    """``platformdirs.user_cache_dir("lshdesk", appauthor=False)``."""
    if _plain_linux():
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        if xdg.startswith("/"):
            return os.path.join(xdg, APP)
        if os.environ.get("HOME", "").startswith("/"):
            return os.path.join(os.path.expanduser("~/.cache"), APP)
    from platformdirs import user_cache_dir as theirs

    return theirs(APP, appauthor=False)
