"""The command line's app-level parts, wired into ``cli/entry.py`` in a few lines: ``--version [--verbose]``, ``--debug``
and the log file, the exit codes, ``completion`` and ``install-desktop``."""

from __future__ import annotations

import argparse
import os
import sys

from lshdesk import __version__
from lshdesk.system import logs
from lshdesk.terminal import emit, fail

EXIT_CODES = (
    (0, "success (also when no pair is found, and when a reader stops early: `| head` ends lshdesk quietly)"),
    (
        1,
        "the output could not be written whole (full disk, file size limit, closed standard output), "
        "a file could not be read, memory ran out, or an unexpected error (its traceback is in the log file)",
    ),
    (2, "the command line or its input is wrong: an unknown option, a bad value, a missing folder"),
    (130, "interrupted (Ctrl+C) or cancelled"),
)
_debug = [False]  # --debug of the command being run (begin sets it; LSHDESK_DEBUG counts before that)


def _debugging() -> bool:
    return logs.debug_wanted(_debug[0])


def epilog() -> str:
    import textwrap  # only the whole parser's --help shows it

    codes = "\n".join(
        textwrap.fill(meaning, 100, initial_indent=f"  {code:<4} ", subsequent_indent=" " * 7)
        for code, meaning in EXIT_CODES
    )
    return (
        f"exit codes:\n{codes}\n\n"
        "--debug (or LSHDESK_DEBUG=1) shows tracebacks; crashes and warnings are logged to the file that\n"
        "lshdesk --version --verbose names. Shell completion: lshdesk completion bash|zsh (see its --help)."
    )


_DEBUG_HELP = "show tracebacks (or set LSHDESK_DEBUG=1)"


def add_global_options(parser: argparse.ArgumentParser, exit_codes: bool = True) -> None:
    """``--version``, ``--verbose``, ``--debug``, and (``exit_codes``) the exit codes at the end of ``--help``."""
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--verbose", action="store_true", help="with --version: also the versions used and where lshdesk keeps files"
    )
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    if exit_codes:  # a parser that never prints its --help (``cli.args.build_parser(only=...)``) need not
        parser.epilog = epilog()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def debug_anywhere(sub) -> None:
    """``--debug`` after a subcommand too (``lshdesk scan DIR --debug``); left out there, the one before it counts."""
    for p in sub.choices.values():
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)


def add_commands(sub) -> None:
    """The ``completion`` and ``install-desktop`` subcommands."""
    from lshdesk.system.completion import SHELLS

    c = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description="bash: lshdesk completion bash > ~/.local/share/bash-completion/completions/lshdesk\n"
        'zsh:  add  eval "$(lshdesk completion zsh)"  to ~/.zshrc',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("shell", choices=SHELLS)
    d = sub.add_parser(
        "install-desktop",
        help="add lshdesk to the desktop's application menu (a .desktop entry and icons, for this user)",
    )
    d.add_argument(
        "--uninstall", action="store_true", help="remove exactly the files install-desktop wrote, and its empty folders"
    )
    d.add_argument("--force", action="store_true", help="replace a desktop entry you edited (kept otherwise)")


def version_text(verbose: bool) -> str:
    """``lshdesk X``; verbose: the versions lshdesk runs with and where it keeps its files."""
    if not verbose:
        return f"lshdesk {__version__}"
    import platform
    from importlib import metadata  # ~20-45 ms: only --version --verbose reads installed versions

    from lshdesk.core.actions.log import default_path as action_log_path
    from lshdesk.core.scan.cache import default_path
    from lshdesk.system import bundled

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "not installed"

    lines = [
        f"lshdesk {__version__} ({os.path.dirname(os.path.dirname(os.path.abspath(__file__)))})",
        f"python {platform.python_version()} ({sys.executable}), {platform.platform()}",
        "numpy {}, PySide6 {}, pyqtgraph {}".format(
            *(version(n) for n in ("numpy", "PySide6-Essentials", "pyqtgraph"))
        ),
        f"log file: {logs.log_path()}",
        compiled_core(),
        f"signature cache: {default_path()}",
        f"settings: {settings_path()}",
        f"action log: {action_log_path()}",
        f"bundled files: {bundled.root()}",
    ]
    return "\n".join(lines)


def settings_path() -> str:
    """Where the window's QSettings (organisation and application "lshdesk", the native format) live; no Qt import."""
    from pathlib import Path

    if sys.platform == "win32":
        return r"HKEY_CURRENT_USER\Software\lshdesk\lshdesk (the registry)"
    if sys.platform == "darwin":
        return str(Path.home() / "Library" / "Preferences" / "com.lshdesk.lshdesk.plist")
    from platformdirs import user_config_dir

    return str(Path(user_config_dir("lshdesk", appauthor=False)) / "lshdesk.conf")


def compiled_core() -> str:
    """Where the compiled core is: the kernels' extension modules, which pip builds when it installs lshdesk."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    from lshdesk.core import kernels

    folder = Path(kernels.__file__).parent
    suffix = next((s for s in EXTENSION_SUFFIXES if any(folder.glob(f"*{s}"))), None)
    if suffix is None:
        return f"compiled core: not built in {folder} (pip install -e . builds it)"
    names = sorted(p.name[: -len(suffix)] for p in folder.glob(f"*{suffix}"))
    return f"compiled core: {folder}/{{{','.join(names)}}}{suffix} (compiled at install)"


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int | None:
    """Carry out ``--version``, ``completion`` or ``install-desktop``; None when the command is another's."""
    if args.version:
        print(version_text(args.verbose))
        return 0
    if args.command == "completion":
        from lshdesk.system.completion import script

        return emit(script(args.shell, parser), None)  # checked: a closed or full output is exit 1
    if args.command == "install-desktop":
        from lshdesk.system import desktop

        if args.uninstall:
            files, folders = desktop.uninstall()
            print(f"lshdesk: removed {len(files)} files and {len(folders)} empty folders", *files, *folders, sep="\n  ")
            return 0
        written, kept = desktop.install(force=args.force)
        print(f"lshdesk: installed {len(written)} files", *written, sep="\n  ")
        if kept is not None:
            print(f"lshdesk: kept {kept}: it differs from the entry lshdesk writes (edited?); --force replaces it")
        print("lshdesk is in the application menu (log out and in if it does not show yet).")
        return 0
    return None


def begin(parser: argparse.ArgumentParser, argv: list[str] | None) -> tuple[argparse.Namespace, int | None]:
    """Parse the command line, start the log (``--debug``), carry out this module's commands (then the exit code is
    returned beside the arguments, else None)."""
    _debug[0] = False
    args = parser.parse_args(argv)
    _debug[0] = logs.debug_wanted(args.debug)
    window = args.command in (None, "gui") and not args.version
    if window or getattr(args, "engine", None) == "dask" or getattr(args, "scheduler", None):
        logs.setup(_debug[0])  # the window's and Dask's records go to loggers of their own: the file at once
    else:
        logs.arm(_debug[0])  # the file set up at the first record or warning (not paid by every command)
    return args, run(args, parser)


def refused(exc: Exception) -> int:
    """An error lshdesk expects (bad input, an unreadable file): its one line; its traceback too with --debug."""
    if _debugging() and sys.stderr is not None:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    return fail(str(exc), getattr(exc, "exit_code", 2))  # an error may carry its own code (an OutputError: 1)


def crashed(exc: BaseException) -> int:
    """An unexpected error: logged with its traceback; one line on the terminal (the traceback too with --debug)."""
    import traceback

    logs.logger().error("unexpected error", exc_info=exc)
    debug = _debugging()
    if debug and sys.stderr is not None:
        traceback.print_exception(exc, file=sys.stderr)
    hint = "" if debug else "; --debug shows the traceback"
    return fail(f"unexpected {type(exc).__name__}: {exc} (details in {logs.log_path()}{hint})", 1)


def detach_streams() -> None:
    """Under ``pythonw`` (the Windows ``lshdesk-gui``) there is no console: send prints to nowhere, not to a crash."""
    if sys.stdout is None or sys.stderr is None:
        null = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the life of the process
        sys.stdout = sys.stdout or null
        sys.stderr = sys.stderr or null


def no_display() -> str | None:
    """Why the window cannot open here (a Unix desktop with neither X nor Wayland), or None: Qt's own answer is an
    abort (exit 134) saying a library is missing, even when it is installed."""
    if sys.platform in ("win32", "darwin") or os.environ.get("QT_QPA_PLATFORM"):
        return None  # their own window systems, or a platform chosen on purpose (offscreen, vnc, ...)
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run lshdesk in a desktop "
        "session, over ssh -X, or use the command line (lshdesk scan DIR; lshdesk --help)"
    )
