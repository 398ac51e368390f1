"""The atomic writer: a file holds its old content or the new one, never a part, and nothing is lost."""

from __future__ import annotations

import errno
import json
import os
import random
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from verifier.files import FileState, WriteError, cached, file_state, irregular, write_file

OLD = "old content\n" * 10
NEW = "".join(f"new line {i}\n" for i in range(20_000))  # about 280 kB: many chunks
MAKE_NEW = 'NEW = "".join(f"new line {i}\\n" for i in range(20_000))'  # the same, in a program of its own


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "rules.lock"
    target.write_text(OLD, encoding="utf-8")
    target.chmod(0o640)
    write_file(target, NEW)
    assert target.read_text(encoding="utf-8") == NEW
    assert target.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_write_makes_a_new_file(tmp_path: Path) -> None:
    write_file(tmp_path / "gate.xml", "<x/>\n")
    assert (tmp_path / "gate.xml").read_text(encoding="utf-8") == "<x/>\n"


def test_a_symbolic_link_is_written_through_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.lock"
    real.write_text(OLD, encoding="utf-8")
    link = tmp_path / "rules.lock"
    link.symlink_to("real.lock")
    write_file(link, NEW)
    assert link.is_symlink() and os.readlink(link) == "real.lock"
    assert real.read_text(encoding="utf-8") == NEW


def test_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "rules.lock"
    link.symlink_to("/dev/full")
    with pytest.raises(WriteError, match="rules.lock.*a device, not a regular file"):
        write_file(link, NEW)
    assert os.readlink(link) == "/dev/full"


def test_a_full_disk_leaves_the_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "accepted-findings.yaml"
    target.write_text(OLD, encoding="utf-8")
    real_write = os.write
    calls = []

    def full(fd: int, data: bytes) -> int:
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(WriteError) as caught:
        write_file(target, NEW)
    assert str(caught.value).endswith("accepted-findings.yaml: No space left on device; it is left as it was")
    assert "\n" not in str(caught.value)
    assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_a_change_since_reading_is_refused_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "accepted-findings.yaml"
    target.write_text(OLD, encoding="utf-8")
    state = file_state(target)
    target.write_text(OLD + "# a note added meanwhile\n", encoding="utf-8")
    with pytest.raises(WriteError, match="changed while regcheck was running"):
        write_file(target, NEW, state)
    assert target.read_text(encoding="utf-8") == OLD + "# a note added meanwhile\n"
    assert leftovers(tmp_path) == []
    write_file(target, NEW, file_state(target))  # unchanged since read: written
    assert target.read_text(encoding="utf-8") == NEW


def test_a_file_created_since_reading_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "rules.lock"
    state = file_state(target)
    assert state == FileState(None)
    target.write_text(OLD, encoding="utf-8")
    with pytest.raises(WriteError, match="changed while"):
        write_file(target, NEW, state)
    assert target.read_text(encoding="utf-8") == OLD


def test_irregular_names_what_is_wrong_without_opening(tmp_path: Path) -> None:
    (tmp_path / "case.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "dangling.yaml").symlink_to("nowhere.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    assert irregular(tmp_path / "case.yaml") is None
    assert irregular(tmp_path / "dangling.yaml") == "a symbolic link to nowhere.yaml, which does not exist"
    assert irregular(tmp_path / "pipe.yaml") == "a FIFO (named pipe), not a regular file"
    assert irregular(Path("/dev/null")) == "a device, not a regular file"
    assert file_state(tmp_path / "pipe.yaml").digest == "a FIFO (named pipe), not a regular file"  # did not block


# A program that writes NEW over the target slowly: every chunk of at most 4 kB waits 5 ms.
SLOW_WRITER = MAKE_NEW + "\n" + textwrap.dedent("""\
    import os, sys, time
    import verifier.files as files
    real_write = os.write
    def slow(fd, data):
        time.sleep(0.005)
        return real_write(fd, bytes(data[:4096]))
    os.write = slow
    print("writing", flush=True)
    files.write_file(files.Path(sys.argv[1]), NEW)
    print("done", flush=True)
""")


def test_sigkill_during_a_write_leaves_the_old_or_the_new_content(tmp_path: Path) -> None:
    target = tmp_path / "accepted-findings.yaml"
    rng = random.Random(10)
    seen = set()
    for _ in range(6):
        target.write_text(OLD, encoding="utf-8")
        process = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target)], stdout=subprocess.PIPE,
                                   text=True)
        assert process.stdout is not None and process.stdout.readline() == "writing\n"
        time.sleep(rng.uniform(0.0, 0.6))  # the write takes about 0.4 s, plus the sync and the rename
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        text = target.read_text(encoding="utf-8")
        assert text in (OLD, NEW), f"partial content: {len(text)} characters"
        seen.add(text == NEW)
    assert False in seen  # some kills did land in the middle of the write


def test_file_size_limit_gives_a_message_and_leaves_the_file(tmp_path: Path) -> None:
    target = tmp_path / "rules.lock"
    target.write_text(OLD, encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    program = (MAKE_NEW + "\nimport sys; from verifier.files import Path, WriteError, ignore_file_size_signal, write_file\n"
               "ignore_file_size_signal()\n"
               "try: write_file(Path(sys.argv[1]), NEW)\n"
               "except WriteError as err: print(err); sys.exit(2)\n")
    done = subprocess.run([sys.executable, "-c", program, str(target)], capture_output=True, text=True,
                          preexec_fn=limit, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout.endswith("rules.lock: the file would exceed the file size limit; it is left as it was\n")
    assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_a_cached_value_is_computed_once_and_a_damaged_entry_afresh(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "entry.json"
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"n": len(calls)}

    def decode(data: object) -> dict[str, int]:
        if not isinstance(data, dict) or not isinstance(data.get("n"), int):
            raise ValueError("not an entry")
        return data

    assert cached(path, decode, compute, lambda v: v) == {"n": 1}
    assert cached(path, decode, compute, lambda v: v) == {"n": 1}  # read back, not computed
    assert len(calls) == 1
    path.write_text('["of another shape"]', encoding="utf-8")
    assert cached(path, decode, compute, lambda v: v) == {"n": 2}
    path.write_text("{not json", encoding="utf-8")
    assert cached(path, decode, compute, lambda v: v) == {"n": 3}
    assert json.loads(path.read_text("utf-8")) == {"n": 3}  # rewritten
    assert cached(None, decode, compute, lambda v: v) == {"n": 4}  # the cache is off


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    value = cached(blocked / "entry.json", lambda data: data, lambda: [1, 2], lambda v: v)
    assert value == [1, 2]
