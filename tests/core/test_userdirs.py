"""The user's cache folder named without platformdirs is platformdirs' own, whatever the environment holds."""

from __future__ import annotations

import sys

import platformdirs
import pytest

from lshdesk.core import userdirs

ENVIRONMENTS = [
    {"XDG_CACHE_HOME": "/srv/cache", "HOME": "/home/ann"},
    {"XDG_CACHE_HOME": "/srv/cache/", "HOME": "/home/ann"},  # a trailing separator is kept as it is
    {"XDG_CACHE_HOME": "//two/leading", "HOME": "/home/ann"},
    {"XDG_CACHE_HOME": "relative/cache", "HOME": "/home/ann"},  # not absolute: ignored, as XDG says
    {"XDG_CACHE_HOME": "", "HOME": "/home/ann/"},
    {"XDG_CACHE_HOME": " ", "HOME": "/home/ann"},
    {"XDG_CACHE_HOME": None, "HOME": "/"},
    {"XDG_CACHE_HOME": None, "HOME": "/home/caf\u00e9 cr\u00e8me"},
    {"XDG_CACHE_HOME": None, "HOME": "relative/home"},  # platformdirs asks the password database
    {"XDG_CACHE_HOME": None, "HOME": None},
    {"XDG_CACHE_HOME": "/srv/cache", "HOME": None},
]


@pytest.mark.parametrize("env", ENVIRONMENTS, ids=repr)
def test_the_cache_folder_is_platformdirs_own(env, monkeypatch):
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert userdirs.user_cache_dir() == platformdirs.user_cache_dir("lshdesk", appauthor=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the plain answer is Linux's")
def test_on_linux_platformdirs_is_not_loaded_to_name_it(monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "/srv/cache")
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # importing it now fails
    assert userdirs.user_cache_dir() == "/srv/cache/lshdesk"
    monkeypatch.setenv("HOME", "relative")
    monkeypatch.delenv("XDG_CACHE_HOME")
    with pytest.raises(ImportError):  # a home that is not plain is platformdirs' to answer
        userdirs.user_cache_dir()
