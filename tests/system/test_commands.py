"""The command line's app-level parts: --version --verbose, --debug and the log file, exit codes in --help, no
first-run notice, shell completion that completes in a real bash."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import lshdesk.core.kernels
from lshdesk import __version__
from lshdesk.cli import entry as cli
from lshdesk.cli import launch
from lshdesk.core.actions import log as action_log
from lshdesk.core.scan import cache
from lshdesk.system import bundled, commands, logs

SUFFIX = EXTENSION_SUFFIXES[0]  # the interpreter's own, as the build names the extension modules


def _flush_log() -> str:
    for handler in logging.getLogger(logs.LOGGER).handlers:
        handler.flush()
    return logs.log_path().read_text(encoding="utf-8") if logs.log_path().exists() else ""


def test_version_and_where_lshdesk_keeps_its_files(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"lshdesk {__version__}\n"
    assert cli.main(["--version", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert f"log file: {logs.log_path()}" in out and "numba" not in out
    core = Path(lshdesk.core.kernels.__file__).parent
    (line,) = [x for x in out.splitlines() if x.startswith("compiled core: ")]
    assert line.startswith(f"compiled core: {core}/{{") and line.endswith(f"{SUFFIX} (compiled at install)")
    assert "minhash" in line.split("{")[1].split("}")[0].split(",")  # the first kernel ported, built in place
    assert f"bundled files: {bundled.root()}" in out and (bundled.root() / "sample").is_dir()
    assert f"action log: {action_log.default_path()}" in out and f"signature cache: {cache.default_path()}" in out


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="QSettings keeps a file there only on Linux and BSD")
def test_the_settings_line_names_the_file_qt_writes():
    from PySide6.QtCore import QSettings

    qt = QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, "lshdesk", "lshdesk").fileName()
    assert commands.settings_path() == qt and f"settings: {qt}" in commands.version_text(True).splitlines()


def test_a_tree_without_its_compiled_core_says_how_to_build_it(tmp_path, monkeypatch):
    monkeypatch.setattr(lshdesk.core.kernels, "__file__", str(tmp_path / "__init__.py"))
    assert commands.compiled_core() == f"compiled core: not built in {tmp_path} (pip install -e . builds it)"
    (tmp_path / f"minhash{SUFFIX}").touch()
    (tmp_path / f"banding{SUFFIX}").touch()
    assert commands.compiled_core() == f"compiled core: {tmp_path}/{{banding,minhash}}{SUFFIX} (compiled at install)"


def test_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit) as ended:
        cli.main(["--help"])
    assert ended.value.code == 0
    out = capsys.readouterr().out
    for code, _ in commands.EXIT_CODES:
        assert f"\n  {code} " in out
    assert "LSHDESK_DEBUG" in out and "completion bash|zsh" in out


def _crash(args):
    raise RuntimeError("the disk said no")


@pytest.mark.parametrize("how", ["plain", "--debug", "LSHDESK_DEBUG"])
def test_a_crash_is_one_line_the_traceback_in_the_log_and_with_debug(how, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(cli, "_signature", _crash)
    monkeypatch.delenv(logs.DEBUG_ENV, raising=False)
    if how == "LSHDESK_DEBUG":
        monkeypatch.setenv(logs.DEBUG_ENV, "1")
    doc = tmp_path / "a.txt"
    doc.write_text("some words", encoding="utf-8")
    assert cli.main([*(["--debug"] if how == "--debug" else []), "signature", str(doc)]) == 1
    err = capsys.readouterr().err
    assert "lshdesk: error: unexpected RuntimeError: the disk said no" in err and str(logs.log_path()) in err
    assert ("Traceback" in err) == (how != "plain")
    logged = _flush_log()
    assert "the disk said no" in logged and "Traceback" in logged and "in _crash" in logged


_WARN_DURING_A_COMMAND = """
import json, logging, sys, warnings
from lshdesk.cli import entry
from lshdesk.system import logs

signature = entry._signature

def warn_then_sign(args):
    warnings.warn("a library's own warning", UserWarning)
    return signature(args)

entry._signature = warn_then_sign
code = entry.main(["signature", sys.argv[1], "-q", "-o", sys.argv[2]])
for handler in logging.getLogger(logs.LOGGER).handlers:
    handler.flush()
print(json.dumps([code, str(logs.log_path())]))
"""


def test_a_warning_during_a_command_goes_to_the_log_set_up_only_then(tmp_path):
    # a fresh interpreter: the log is set up at its first record or warning, not at the command's start (logs.arm)
    doc = tmp_path / "a.txt"
    doc.write_text("some words", encoding="utf-8")
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    run = [sys.executable, "-c", _WARN_DURING_A_COMMAND, str(doc), str(tmp_path / "sig.json")]
    done = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    code, log = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0 and "warning" not in done.stderr.lower()  # not on the terminal
    assert "a library's own warning" in Path(log).read_text(encoding="utf-8")


def test_debug_env_values():
    for value, wanted in (("", False), ("0", False), ("no", False), ("False", False), ("1", True), ("yes", True)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv(logs.DEBUG_ENV, value)
            assert logs.debug_wanted() is wanted
    assert logs.debug_wanted(True)


def test_a_scan_on_a_terminal_says_nothing_of_compiling(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.txt").write_text("a few words to scan", encoding="utf-8")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert cli.main(["scan", str(tmp_path), "-o", str(tmp_path / "pairs.csv")]) == 0
    assert "compil" not in capsys.readouterr().err.lower()


BASH = shutil.which("bash")


def _complete(script: str, words: list[str]) -> list[str]:
    """COMPREPLY of the completion function for the command line ``words`` (the last one being typed)."""
    line = " ".join(f"'{w}'" for w in words)
    probe = f'{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _lshdesk; printf "%s\\n" "${{COMPREPLY[@]}}"'
    done = subprocess.run([BASH, "--norc", "-c", probe], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(BASH is None, reason="no bash here")
def test_bash_completion_completes_commands_options_and_choices(capsys):
    assert cli.main(["completion", "bash"]) == 0
    script = capsys.readouterr().out
    assert _complete(script, ["lshdesk", "s"]) == ["scan", "signature"]
    assert _complete(script, ["lshdesk", "scan", "--fam"]) == ["--family"]
    assert _complete(script, ["lshdesk", "scan", "--family", ""]) == ["fast", "article", "datasketch"]
    assert _complete(script, ["lshdesk", "scan", "--format", "j"]) == ["json"]
    assert _complete(script, ["lshdesk", "completion", ""]) == ["bash", "zsh"]
    assert "--uninstall" in _complete(script, ["lshdesk", "install-desktop", "--"])
    assert "--debug" in _complete(script, ["lshdesk", "--d"])


def test_zsh_completion_loads_the_same_through_bashcompinit(capsys):
    assert cli.main(["completion", "zsh"]) == 0
    script = capsys.readouterr().out
    assert "bashcompinit" in script and "complete -o filenames -o bashdefault -F _lshdesk lshdesk" in script
    if shutil.which("zsh"):
        done = subprocess.run(["zsh", "-f", "-c", script + "\n(( $+functions[_lshdesk] ))"], capture_output=True)
        assert done.returncode == 0, done.stderr


def test_lshdesk_gui_without_a_console_prints_to_nowhere(monkeypatch):
    """pythonw (the Windows lshdesk-gui) has no stdout or stderr: a print must not crash the app."""
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    commands.detach_streams()
    print("a word nobody reads")
    print("nor this", file=sys.stderr)
    assert sys.stdout is sys.stderr and sys.stdout.name == os.devnull
    sys.stdout.close()


def test_lshdesk_gui_opens_the_window_on_the_folders_given(monkeypatch, tmp_path):
    opened = []
    monkeypatch.setattr(sys, "argv", ["lshdesk-gui", str(tmp_path)])
    monkeypatch.setattr("lshdesk.gui.app.run_app", lambda paths: opened.append(paths) or 0)
    assert launch.gui_main() == 0 and opened == [[str(tmp_path)]]
