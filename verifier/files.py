"""Writing files so that nothing is lost: every file regcheck writes goes through `write_file`.

A file is written whole to a temporary file in the same folder, flushed to the disk and renamed
over the target, so that the target holds either its old content or the new one, never a part,
whatever happens to the process meanwhile (a kill, a full disk, a file size limit). When the
write fails, the temporary file is removed, the target is left as it was, and the error says
which file and why.

A target that is a symbolic link is written through: the file the link points to is replaced,
and the link is kept. A target that is not a regular file (a device such as /dev/full, a FIFO)
is refused.

A file that regcheck reads, changes and writes back (the lock, the accepted findings) is
written with `expected` set to the `FileState` taken before it was read: under an advisory
lock on its folder, the file is compared with that state, and if it changed meanwhile (someone
edited it) nothing is written and the error says so.
"""

from __future__ import annotations

__all__ = ["cached", "display_path", "WriteError", "FileState", "file_state", "write_file", "ignore_file_size_signal",
           "irregular", "cache_dir"]

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import secrets
import signal
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import RegcheckError

CHUNK = 64 * 1024


def display_path(path: Path) -> str:
    """`path` relative to the current folder when it lies inside it; a link is named where it is, not where it leads."""
    try:
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


class WriteError(RegcheckError):
    """A file regcheck was asked to write could not be written; the file is left as it was."""


@dataclass(frozen=True)
class FileState:
    """What a file held when it was read: None when it did not exist, else a hash of its bytes."""

    digest: str | None


def file_state(path: Path) -> FileState:
    """The state of `path` now (a file that cannot be read counts as its error, so that any change shows)."""
    why = irregular(path)
    if why == "no such file":
        return FileState(None)
    if why:
        return FileState(why)  # never opened: a FIFO would block
    try:
        with open(path, "rb") as f:
            return FileState(hashlib.sha256(f.read()).hexdigest())
    except FileNotFoundError:
        return FileState(None)
    except OSError as exc:
        return FileState(f"unreadable: {exc.errno}")


def ignore_file_size_signal() -> None:
    """Make a write past the file size limit (`ulimit -f`) fail with EFBIG instead of killing the process."""
    if hasattr(signal, "SIGXFSZ"):
        with contextlib.suppress(ValueError):  # not the main thread: leave it to the program
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _problem(exc: OSError) -> str:
    if exc.errno == errno.EFBIG:
        return "the file would exceed the file size limit"
    return exc.strerror or str(exc)


def _target(path: Path) -> Path:
    """The file to replace: `path`, or the file its symbolic links lead to; refused unless a regular file or absent."""
    real = Path(os.path.realpath(path))
    if not os.path.exists(real):
        if path.is_symlink() and not real.parent.is_dir():
            raise WriteError(f"cannot write {display_path(path)}: it is a symbolic link to {real}, "
                             "whose folder does not exist") from None
        return real
    why = irregular(real)
    if why:
        shown = f"{display_path(path)} (a link to {real})" if real != Path(os.path.abspath(path)) else display_path(path)
        raise WriteError(f"cannot write {shown}: it is {why}; nothing written")
    return real


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        done = os.write(fd, view[:CHUNK])
        view = view[done:]


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is done all the same
    finally:
        os.close(fd)


def _replace(path: Path, target: Path, data: bytes, shown: str, expected: FileState | None) -> None:
    folder = target.parent
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    temporary = folder / f".{target.name}.{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {_problem(exc)}; it is left as it was") from None
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if expected is not None and file_state(path) != expected:
            raise WriteError(f"{shown} changed while regcheck was running (edited meanwhile?); nothing written, "
                             "so that the change is kept: run the command again")
        os.replace(temporary, target)
    except OSError as exc:
        _remove(temporary)
        raise WriteError(f"cannot write {shown}: {_problem(exc)}; it is left as it was") from None
    except BaseException:
        _remove(temporary)
        raise
    _fsync_folder(folder)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def write_file(path: Path, text: str, expected: FileState | None = None) -> None:
    """Replace `path` with `text` (UTF-8) atomically; with `expected`, only if the file is still as it was read.

    Raises WriteError, naming the file and the problem, when it cannot be written; the file is
    then left as it was.
    """
    shown = display_path(path)
    target = _target(path)
    data = text.encode("utf-8")
    if expected is None:
        _replace(path, target, data, shown, None)
        return
    # The advisory lock is taken on the folder, so that no lock file is left beside the target.
    try:
        folder_fd = os.open(target.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {_problem(exc)}; it is left as it was") from None
    try:
        fcntl.flock(folder_fd, fcntl.LOCK_EX)
        _replace(path, target, data, shown, expected)
    finally:
        os.close(folder_fd)  # closing releases the lock


def irregular(path: Path) -> str | None:
    """Why `path` cannot be read as an input file (a dangling link, a FIFO, a device, a folder), or None.

    Only the file's status is looked at: a FIFO is never opened, so this never blocks.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            return f"a symbolic link to {os.readlink(path)}, which does not exist"
        return "no such file"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    return "not a regular file"


def cache_dir() -> Path | None:
    """Where regcheck keeps its caches (JSON, never code): `$REGCHECK_CACHE_DIR`, else
    `$XDG_CACHE_HOME/regcheck`, else `~/.cache/regcheck`; None when `REGCHECK_CACHE_DIR=off`."""
    chosen = os.environ.get("REGCHECK_CACHE_DIR")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "regcheck"


T = TypeVar("T")


def cached(path: Path | None, decode: Callable[[Any], T], compute: Callable[[], T],
           encode: Callable[[T], Any], exclusive: bool = False) -> T:
    """`decode` of the JSON at `path` in the cache folder, else `compute()`, written there as `encode`
    gives it. A file that is missing, unreadable or of another shape (`decode` raises ValueError,
    TypeError, KeyError or IndexError) is computed afresh and rewritten; one that cannot be written
    only makes the next run slower. With no `path` (the cache is off), `compute()`. With `exclusive`
    (an entry that takes long to compute), runs that miss it at once compute it once: each waits for the
    one computing it (a lock file beside the entry), then reads what it wrote."""
    if path is None:
        return compute()
    found = _read_entry(path, decode)
    if found is not None:
        return found[0]
    with _computing(path) if exclusive else contextlib.nullcontext():
        found = _read_entry(path, decode) if exclusive else None
        if found is not None:
            return found[0]
        value = compute()
        with contextlib.suppress(WriteError, OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, json.dumps(encode(value), separators=(",", ":")))
    return value


def _read_entry(path: Path, decode: Callable[[Any], T]) -> tuple[T] | None:
    try:
        return (decode(json.loads(path.read_text("utf-8"))),)
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return None


@contextlib.contextmanager
def _computing(path: Path) -> Iterator[None]:
    """Hold the lock of the cache entry at `path` (where the folder allows one: else go on without it)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_name(path.name + ".lock"), "a")  # noqa: SIM115  # closed below, releasing the lock
    except OSError:
        yield
        return
    with lock:
        with contextlib.suppress(OSError):
            fcntl.lockf(lock, fcntl.LOCK_EX)  # a record lock: a process forked meanwhile does not hold it
        yield
