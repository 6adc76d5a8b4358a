"""``lshdesk install-desktop``: a freedesktop menu entry and the app icon (SVG and PNGs, hicolor) for this user.

Files go under ``$XDG_DATA_HOME`` (default ``~/.local/share``): ``applications/lshdesk.desktop``,
``icons/hicolor/scalable/apps/lshdesk.svg`` and ``icons/hicolor/NxN/apps/lshdesk.png``. ``--uninstall`` removes
exactly those files, then those files' folders that are left empty (a folder holding anything else stays, and so does
``$XDG_DATA_HOME``). A desktop entry the user edited is kept unless ``force``. The entry starts the ``lshdesk-gui``
script of this installation by its full path, so it works when the scripts folder (e.g. pipx's ``~/.local/bin``) is
not on the desktop session's PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path

from lshdesk import __version__
from lshdesk.system import bundled

APP_ID = "lshdesk"  # the desktop file's name, the icon's name, and the window's desktop file name (Wayland app id)
PNG_SIZES = (16, 32, 48, 64, 128, 256)
_SAFE = re.compile(r"[A-Za-z0-9_./:=+,@-]+")


def data_home() -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` when it is unset or not absolute (as the spec says)."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if os.path.isabs(value) else Path.home() / ".local" / "share"


def gui_command() -> list[str]:
    """The command that opens the window: this installation's ``lshdesk-gui``, else ``python -m lshdesk gui``."""
    name = "lshdesk-gui.exe" if os.name == "nt" else "lshdesk-gui"
    beside = Path(sysconfig.get_path("scripts")) / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    return [found] if found else [sys.executable, "-m", "lshdesk", "gui"]


def _exec_arg(arg: str) -> str:
    """One argument of an ``Exec`` key: quoted and escaped as the Desktop Entry spec asks (then as a string)."""
    if _SAFE.fullmatch(arg):
        return arg
    quoted = '"' + re.sub(r'(["`$\\])', r"\\\1", arg) + '"'
    return quoted.replace("\\", "\\\\").replace("%", "%%")


def desktop_entry(command: list[str]) -> str:
    """The ``lshdesk.desktop`` text for ``command`` (it takes folders: ``%F``)."""
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.4",  # the newest the validators of Debian 12 know (1.5 adds nothing used here)
            "Name=lshdesk",
            "GenericName=Near-duplicate finder",
            "Comment=Find near-duplicate text documents with MinHash + LSH, and see how it works",
            f"Exec={' '.join(_exec_arg(a) for a in command)} %F",
            f"TryExec={_exec_arg(command[0])}",
            f"Icon={APP_ID}",
            "Terminal=false",
            "StartupNotify=true",
            f"StartupWMClass={APP_ID}",
            "Categories=Utility;TextTools;",
            "Keywords=duplicate;near-duplicate;plagiarism;similarity;MinHash;LSH;",
            "MimeType=inode/directory;",
            f"X-lshdesk-Version={__version__}",
            "",
        ]
    )


def entry_path(root: Path) -> Path:
    """The desktop entry under ``root`` (an XDG data folder)."""
    return root / "applications" / f"{APP_ID}.desktop"


def planned(root: Path) -> dict[Path, Path | str]:
    """Every file ``install`` writes under ``root`` (an XDG data folder) -> its source file, or its text."""
    hicolor = root / "icons" / "hicolor"
    files: dict[Path, Path | str] = {
        entry_path(root): desktop_entry(gui_command()),
        hicolor / "scalable" / "apps" / f"{APP_ID}.svg": bundled.path("icons", "app.svg"),
    }
    for size in PNG_SIZES:
        files[hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = bundled.path("icons", f"app-{size}.png")
    return files


def install(root: Path | None = None, force: bool = False) -> tuple[list[Path], Path | None]:
    """Write the desktop entry and the icons under ``root`` (default ``data_home()``); return the files written, and
    the desktop entry when it was kept: it differs from what lshdesk writes (the user edited it) and not ``force``."""
    from lshdesk.core.persistence.atomic import write_atomic

    root = root or data_home()
    files = planned(root)
    entry, kept = entry_path(root), None
    if not force and entry.is_file() and entry.read_bytes() != str(files[entry]).encode("utf-8"):
        kept = entry
        del files[entry]
    for target, source in files.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, source if isinstance(source, str) else source.read_bytes())
    return list(files), kept


def uninstall(root: Path | None = None) -> tuple[list[Path], list[Path]]:
    """Remove the files ``install`` writes (those present), then their folders left empty, deepest first, up to (not
    including) ``root``; return the files and the folders removed."""
    root = root or data_home()
    files = [target for target in planned(root) if target.is_file()]
    for target in files:
        target.unlink()
    folders: list[Path] = []
    candidates = {parent for target in planned(root) for parent in target.parents if root in parent.parents}
    for folder in sorted(candidates, key=lambda p: len(p.parts), reverse=True):
        try:
            folder.rmdir()  # only an empty folder: one holding anything (another app's icon) raises and stays
        except OSError:
            continue
        folders.append(folder)
    return files, folders
