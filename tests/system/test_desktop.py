"""install-desktop: a valid desktop entry and the icons under XDG_DATA_HOME, an edited entry kept; --uninstall removes
exactly those and the folders they leave empty."""

from __future__ import annotations

import shutil
import struct
import subprocess

import pytest

from lshdesk.cli import main
from lshdesk.system import desktop


def _tree(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _folders(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir())


def test_install_then_uninstall_leaves_the_folder_as_it_was(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    mine = tmp_path / "icons" / "hicolor" / "48x48" / "apps" / "someone-else.png"  # another app's icon stays
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"not ours")
    before, folders_before = _tree(tmp_path), _folders(tmp_path)
    assert main(["install-desktop"]) == 0
    added = set(_tree(tmp_path)) - set(before)
    assert added == {
        "applications/lshdesk.desktop",
        "icons/hicolor/scalable/apps/lshdesk.svg",
        *(f"icons/hicolor/{n}x{n}/apps/lshdesk.png" for n in desktop.PNG_SIZES),
    }
    assert "installed 8 files" in capsys.readouterr().out
    for n in desktop.PNG_SIZES:  # each PNG is the size its folder says (width, height in the IHDR chunk)
        data = (tmp_path / f"icons/hicolor/{n}x{n}/apps/lshdesk.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (n, n)
    assert main(["install-desktop"]) == 0  # again: the same files, overwritten in place
    capsys.readouterr()
    assert main(["install-desktop", "--uninstall"]) == 0
    assert _tree(tmp_path) == before and mine.read_bytes() == b"not ours"
    # the 13 folders install made go (48x48/apps holds another app's icon: it and its parents stay), root stays
    assert _folders(tmp_path) == folders_before and tmp_path.is_dir()
    assert "removed 8 files and 13 empty folders" in capsys.readouterr().out
    assert main(["install-desktop", "--uninstall"]) == 0  # nothing left to remove is fine
    assert "removed 0 files and 0 empty folders" in capsys.readouterr().out


def test_uninstall_into_an_empty_data_folder_leaves_it_empty(tmp_path):
    desktop.install(tmp_path)
    files, folders = desktop.uninstall(tmp_path)
    assert len(files) == 8 and len(folders) == 17 and list(tmp_path.iterdir()) == []


def test_an_edited_entry_is_kept_unless_forced(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    entry = desktop.entry_path(tmp_path)
    assert main(["install-desktop"]) == 0
    written = entry.read_text(encoding="utf-8")
    assert main(["install-desktop"]) == 0  # unchanged: written again, nothing said
    assert "lshdesk: kept" not in capsys.readouterr().out
    edited = written.replace("Terminal=false", "Terminal=true")
    entry.write_text(edited, encoding="utf-8")
    assert main(["install-desktop"]) == 0
    out = capsys.readouterr().out
    assert "installed 7 files" in out and [l for l in out.splitlines() if l.startswith("lshdesk: kept")] == [
        f"lshdesk: kept {entry}: it differs from the entry lshdesk writes (edited?); --force replaces it"
    ]
    assert entry.read_text(encoding="utf-8") == edited
    assert main(["install-desktop", "--force"]) == 0
    assert "installed 8 files" in capsys.readouterr().out and entry.read_text(encoding="utf-8") == written


def test_the_entry_starts_this_installation_and_names_the_icon(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    desktop.install()
    entry = (tmp_path / "applications" / "lshdesk.desktop").read_text(encoding="utf-8")
    keys = dict(line.split("=", 1) for line in entry.splitlines()[1:] if line)
    assert entry.startswith("[Desktop Entry]\n") and keys["Icon"] == desktop.APP_ID == keys["StartupWMClass"]
    assert keys["Exec"].endswith(" %F") and keys["Terminal"] == "false"
    command = desktop.gui_command()
    assert keys["TryExec"] == command[0] or keys["TryExec"].strip('"') == command[0]


@pytest.mark.parametrize(
    "arg, quoted",
    [
        ("/usr/bin/lshdesk-gui", "/usr/bin/lshdesk-gui"),
        ("/home/a b/bin/lshdesk-gui", '"/home/a b/bin/lshdesk-gui"'),
        ('/x/"q"$`\\', '"/x/\\\\"q\\\\"\\\\$\\\\`\\\\\\\\"'),  # each of " $ ` \ escaped, then \ doubled
        ("/x/100%", '"/x/100%%"'),
    ],
)
def test_exec_arguments_are_quoted_as_the_spec_says(arg, quoted):
    assert desktop._exec_arg(arg) == quoted


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils is not installed")
def test_desktop_file_validate_finds_nothing_to_say(tmp_path):
    desktop.install(tmp_path)
    done = subprocess.run(
        ["desktop-file-validate", str(tmp_path / "applications" / "lshdesk.desktop")], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "" and done.stderr.strip() == ""
