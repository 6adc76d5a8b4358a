"""The command line's terminal: messages on standard error (never into standard output), checked output, exits."""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import logging

T = TypeVar("T")
POLL_SECONDS = 0.1  # the main thread's wait, in steps (a Ctrl+C is seen between them at the latest)
GRACE_SECONDS = (
    2.0  # after Ctrl+C, how long the work may take to stop at its next cancel check (a Dask scan: its cluster)
)


def early_interrupts(signum, frame) -> None:  # Ctrl+C while the command starts: one line, no traceback
    os.write(2, b"lshdesk: error: interrupted\n")
    os._exit(130)


if os.path.basename(sys.argv[0] if sys.argv else "").startswith("lshdesk"):  # the console script, not an import
    signal.signal(signal.SIGINT, early_interrupts)


_collector_paused = [False]


def collector_paused() -> None:
    """``__main__`` turned the cycle collector off before loading anything (loading numpy and lshdesk allocates
    much and frees little: its collections were ~15 % of an empty folder's scan's CPU, issue 29):
    ``resume_collector`` turns it on again once the command's modules are loaded."""
    _collector_paused[0] = True


def resume_collector() -> None:
    """The command's modules are loaded: keep what they hold out of later collections (``gc.freeze``: the first one
    would otherwise walk all of it) and collect again; nothing unless ``collector_paused`` was said."""
    if _collector_paused[0]:
        import gc

        _collector_paused[0] = False
        gc.freeze()
        gc.enable()


_progress_shown = [False]  # a progress line is on the terminal, not yet ended: the next message starts below it


def say(text: str, end: str = "\n") -> None:
    """Write to standard error, on a line of its own below a progress line; when it is closed, say nothing (never
    into standard output). ``end=""`` draws a progress line."""
    err = sys.stderr
    if err is None:
        return
    if _progress_shown[0] and end:  # 'lshdesk: error: interrupted' went on at the end of the progress line
        text = "\n" + text
    _progress_shown[0] = not end
    try:
        err.write(text + end)
        err.flush()
    except (OSError, ValueError):
        pass


def fail(message: str, code: int = 2) -> int:
    say(f"lshdesk: error: {message}")
    return code


def not_a_file(path: str, folder_hint: str = "give a text file") -> str | None:
    """Why ``path`` cannot be read as a document ("no such file", a folder, a device...), or None for a file;
    a folder's message ends with ``folder_hint`` (what to do with it)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"no such file: {path}"
    except OSError as e:
        return f"cannot read {path}: {e.strerror or e}"
    kinds: tuple[tuple[Callable[[int], bool], str], ...] = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device (a disk)"),
        (stat.S_ISFIFO, "a FIFO (a named pipe)"),
        (stat.S_ISSOCK, "a socket"),
    )
    what = next((word for test, word in kinds if test(mode)), None if stat.S_ISREG(mode) else "not a regular file")
    if what == "a folder":
        return f"{path} is a folder, not a file: {folder_hint}"
    return f"{path} is {what}, not a file: give a text file" if what else None


def emit(text: str, output: str | None) -> int:
    """Write the output (atomically to a file, or to standard output when ``output`` is None or ``-``, checked);
    0, or 1 with a one-line message."""
    from lshdesk.core.persistence.atomic import OutputError, ReaderGone, write_atomic, write_stream

    output = None if output == "-" else output
    try:
        if output:
            write_atomic(output, text)
        elif sys.stdout is None:
            raise OutputError("standard output is closed: give a file with -o FILE")
        else:
            buffer = getattr(sys.stdout, "buffer", None)
            write_stream(buffer or sys.stdout, text.encode("utf-8") if buffer else text)  # type: ignore[arg-type]
    except ReaderGone:  # `| head` wanted no more: cli.main ends the command quietly with exit 0
        raise
    except OutputError as e:
        if not output and sys.stdout is not None:
            _silence_stdout()
        return fail(str(e), 1)
    return 0


def _silence_stdout() -> None:
    """After a failed write, point standard output at the null device: exiting must not try (and fail) again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


OUT_OF_MEMORY = "out of memory: scan fewer or smaller files (--max-size), or free memory and try again"


def out_of_memory(exc: BaseException | None) -> bool:
    """True if ``exc`` (or what led to it) is memory running out: a MemoryError, no memory for a new thread's stack,
    or a library that could not be mapped (``ulimit -v``: a loader says only "Could not find/load shared object")."""
    seen = 0
    while exc is not None and seen < 8:
        text = str(exc)
        if isinstance(exc, MemoryError) or (isinstance(exc, RuntimeError) and "can't start new thread" in text):
            return True
        if isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
            return True
        if isinstance(exc, (OSError, ImportError)) and "failed to map segment" in text:  # dlopen's words for it
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def log_thread_memory_errors(log: Callable[[], logging.Logger]) -> None:
    """A helper thread that runs out of memory goes to the log (``log()``, set up when first called), not as a
    traceback on the terminal: the command ends with its one line (``OUT_OF_MEMORY``), or, when its work could do
    without the thread, succeeds."""
    default = threading.excepthook
    if getattr(default, "lshdesk", False):  # once per process (tests call main many times)
        return

    def hook(args: threading.ExceptHookArgs) -> None:
        if not out_of_memory(args.exc_value):
            default(args)
            return
        name = args.thread.name if args.thread is not None else "?"
        log().error("out of memory in thread %s", name, exc_info=args.exc_value)

    hook.lshdesk = True  # type: ignore[attr-defined]
    threading.excepthook = hook


def end_now(code: int, argv: list[str] | None) -> int:
    """On Ctrl+C or out of memory from the command line: exit at once, not after helper threads still at work."""
    if argv is None and any(
        t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()
    ):
        os._exit(code)
    return code


def drive(gen: Generator[Any, Any, T], quiet: bool, cancel: threading.Event | None) -> T:
    """Run a scan generator to its result, closed after (a Dask scan's cluster shut down), with its warnings on
    standard error unless ``quiet`` and on a terminal one progress line, redrawn at most ten times a second. Once
    ``cancel`` is set (Ctrl+C) nothing more is said, and the result is refused (``ScanCancelled``)."""
    from lshdesk.core.errors import check_cancel
    from lshdesk.core.scan.pipeline import run
    from lshdesk.core.scan.progress import STAGE_WORDS

    show = not quiet and sys.stderr is not None and sys.stderr.isatty()
    last = [0.0]

    def progress(p) -> None:
        if cancel is not None and cancel.is_set():
            return
        if p.warning and not quiet:
            say(f"lshdesk: warning: {p.warning}")
        now = time.monotonic()
        if show and (now - last[0] > 0.1 or p.stage == "done"):
            last[0] = now
            count = f"{p.done:,}/{p.total:,} {p.unit}" if p.total else (f"{p.done:,} {p.unit}" if p.unit else "")
            line = f"{STAGE_WORDS.get(p.stage, p.stage)}: {count}" if count else STAGE_WORDS.get(p.stage, p.stage)
            say(f"\r{line}  {p.elapsed:6.1f} s\033[K", end="")

    try:
        result = run(gen, progress)
    finally:
        gen.close()
    check_cancel(cancel)
    if _progress_shown[0]:
        _progress_shown[0] = False
        say("")  # ends the progress line
    return result


def off_main(work: Callable[[], T], cancel: threading.Event) -> T:
    """Run a command's ``work`` on a helper thread while the main thread only waits; return its value or raise its error.

    Python runs the Ctrl+C handler on the main thread at its next bytecode, wherever the work is: between a compiled
    call and the use of its results, or in a library's cleanup, where a KeyboardInterrupt leaves things half done
    (a compiled call's wrapper boxing its results lost it, and the call ended in ``SystemError``). Here the interrupt lands in the wait
    instead: ``cancel`` is set, the work gets ``GRACE_SECONDS`` to stop at its next
    check, and the KeyboardInterrupt goes on (``end_now`` then ends a process whose work still runs; a second
    Ctrl+C ends the grace at once).
    """
    out: dict[str, object] = {}
    done = threading.Event()  # waited on, not the thread: an interrupted Thread.join marks the thread stopped (3.11)

    def target() -> None:
        if hasattr(signal, "pthread_sigmask"):  # so the kernel hands Ctrl+C to the waiting main thread, woken at once
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # (the work's own threads inherit the mask)
        try:
            out["value"] = work()
        except BaseException as e:  # handed to the main thread, raised there
            out["error"] = e
        finally:
            done.set()

    threading.Thread(target=target, name="lshdesk-command").start()
    try:
        while not done.wait(POLL_SECONDS):
            pass
    except KeyboardInterrupt:
        cancel.set()
        done.wait(GRACE_SECONDS)
        raise
    error = out.pop("error", None)
    if isinstance(error, BaseException):
        raise error
    return out["value"]  # type: ignore[return-value]
