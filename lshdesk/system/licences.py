"""The packages that come with lshdesk and their licences, read from the installed metadata (never a hand list).

``bundled()`` walks lshdesk's requirements, then theirs, recursively (extras named in a requirement, such as
``pypdf[crypto]``, included; lshdesk's own extras, such as ``cluster``, not), keeping the installed ones.
A licence is the package's SPDX ``License-Expression``, else its short ``License`` field, else its licence
classifiers, else "see the package".
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from importlib import metadata

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
# the classifier's words -> SPDX, for packages that only say it with a classifier
_CLASSIFIERS = {
    "MIT License": "MIT",
    "BSD License": "BSD",
    "Apache Software License": "Apache-2.0",
    "ISC License (ISCL)": "ISC",
    "Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
    "Python Software Foundation License": "PSF-2.0",
    "GNU Lesser General Public License v3 (LGPLv3)": "LGPL-3.0",
    "GNU Library or Lesser General Public License (LGPL)": "LGPL",
    "The Unlicense (Unlicense)": "Unlicense",
}


@dataclass(frozen=True)
class Package:
    """One installed distribution lshdesk depends on, directly or through ``needed_by``."""

    name: str
    version: str
    licence: str
    needed_by: str  # "lshdesk" for a direct requirement, else the first package found requiring it
    summary: str


def normalise(name: str) -> str:
    """A distribution name compared as PEP 503 does (``Foo_Bar`` and ``foo-bar`` are one)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _marker_holds(marker: str, extras: set[str]) -> bool:
    """Whether a requirement's marker applies: extras by name; the rest by ``packaging`` when it is installed,
    else yes (a requirement that does not apply here is usually not installed either, and is skipped then)."""
    wanted = set(_EXTRA.findall(marker))
    if wanted and not wanted & extras:
        return False
    try:
        from packaging.markers import Marker
    except ImportError:
        return True
    try:
        return any(Marker(marker).evaluate({"extra": e}) for e in (extras or {""}))
    except Exception:  # noqa: BLE001 - a marker this packaging cannot read: keep the requirement
        return True


def requirements(name: str, extras: AbstractSet[str] = frozenset()) -> list[tuple[str, set[str]]]:
    """The (name, extras) a distribution requires here (its ``Requires-Dist``, markers applied)."""
    found = []
    for line in metadata.requires(name) or []:
        spec, _, marker = line.partition(";")
        match = _NAME.match(spec)
        if match is None or (marker.strip() and not _marker_holds(marker.strip(), set(extras))):
            continue
        found.append((match.group(1), {e.strip() for e in (match.group(2) or "").split(",") if e.strip()}))
    return found


def licence_of(meta) -> str:
    """The licence a distribution declares (see the module docstring for the order)."""
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 60:
        return _CLASSIFIERS.get(text, text)
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    names = [_CLASSIFIERS.get(c, c) for c in classifiers if c != "OSI Approved"]
    return " OR ".join(names) if names else "see the package"


def bundled(root: str = "lshdesk") -> list[Package]:
    """Every installed package ``root`` needs, directly or not, breadth first (direct requirements first)."""
    seen: dict[str, Package] = {}
    try:
        queue: list[tuple[str, set[str], str]] = [(n, e, root) for n, e in requirements(root)]
    except metadata.PackageNotFoundError:  # a source tree on sys.path, never installed: no metadata to read
        return []
    done_extras: dict[str, set[str]] = {}
    while queue:
        name, extras, parent = queue.pop(0)
        key = normalise(name)
        if key in done_extras and extras <= done_extras[key]:
            continue
        try:
            meta = metadata.metadata(name)
        except metadata.PackageNotFoundError:
            continue
        done_extras[key] = done_extras.get(key, set()) | extras
        if key not in seen:
            summary = meta["Summary"] if "Summary" in meta else ""  # noqa: SIM401 (no .get to the types)
            seen[key] = Package(meta["Name"], meta["Version"], licence_of(meta), parent, summary or "")
        queue.extend((n, e, meta["Name"]) for n, e in requirements(name, extras))
    return list(seen.values())
