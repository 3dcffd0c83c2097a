"""Reading the files a user hands to the tool: a byte limit that holds for every kind of file, and JSON
without silently dropped duplicate keys.

Every command that reads a user's file (randomizer matrices, rounds files, batch files, vector
directories, bound-function modules) goes through `read_limited` or `load_json_file` (a stream read
line by line, such as `eval --batch -` on stdin, through `read_lines_limited`), so that:

- the byte limit is enforced on the bytes actually read, never on `st_size` (which is 0 for `/dev/zero`,
  `/proc` files and pipes): at most `limit + 1` bytes are read, and one byte over is a refusal;
- a FIFO, a device, a socket or a directory is refused before it is opened (opening a FIFO blocks until
  a writer comes; reading `/dev/zero` never ends), also through a symbolic link (the link is followed
  and the target's kind is what counts);
- a JSON object with the same key twice is refused with the key and the file named (Python's `json`
  keeps the last one, so `"delta": 1e-6, "delta": 0.5` would be evaluated at 0.5 without a word).

Written by hand because the standard library has no bounded read of a path, and no JSON decoder
option to refuse repeated keys other than this `object_pairs_hook`.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from ..proofs_checks.bridge import UsageError

__all__ = ["MAX_INPUT_BYTES", "check_regular_file", "load_json_file", "loads_json", "read_limited", "read_lines_limited"]

# The largest file any command reads (a 250,000-entry matrix of 20-digit decimals is about 6 MB). The
# functions below read it when called (not when defined), so that lowering it lowers every default.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def _reason(failure: OSError | ValueError) -> str:
    if isinstance(failure, OSError):
        return failure.strerror or type(failure).__name__
    return str(failure)  # ValueError: "embedded null byte" in the path


def check_regular_file(path: str | Path, *, what: str) -> Path:
    """`path` as a `Path` if it names a regular file (after following symbolic links); otherwise a
    one-line `UsageError` naming `what` (e.g. "--rounds-file") and the kind of file found."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode  # follows links: the target's kind is what will be read
    except (OSError, ValueError) as failure:
        raise UsageError(f"{what} {path}: cannot read it ({_reason(failure)})") from None
    if not stat.S_ISREG(mode):
        kind = (
            "a directory" if stat.S_ISDIR(mode)
            else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a character device" if stat.S_ISCHR(mode)
            else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode)
            else "not a regular file"
        )
        raise UsageError(f"{what} {path}: is {kind}; expected a regular file")
    return path


def read_limited(path: str | Path, *, what: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them (default `MAX_INPUT_BYTES`): a
    longer file is refused (one line naming `what`, the path and the limit) after reading `limit + 1`
    bytes, never more."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    path = check_regular_file(path, what=what)
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO between the check and the open, the open
        # returns at once instead of waiting for a writer; the kind is checked again on the descriptor.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as failure:
        raise UsageError(f"{what} {path}: cannot read it ({_reason(failure)})") from None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise UsageError(f"{what} {path}: is not a regular file")
        try:
            data = handle.read(limit + 1)
        except OSError as failure:
            raise UsageError(f"{what} {path}: cannot read it ({failure.strerror or type(failure).__name__})") from None
    if len(data) > limit:
        raise UsageError(f"{what} {path}: larger than {limit} bytes; at most {limit} bytes are read")
    return data


def _refuse_duplicate_keys(where: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise UsageError(f"{where}: the key {key!r} appears twice in one JSON object; give each key once")
            out[key] = value
        return out

    return build


def loads_json(text: str, *, where: str, exact_numbers: bool = False) -> Any:
    """Parse JSON text, refusing repeated keys; `where` names the source in errors. With
    `exact_numbers`, numbers are kept as their decimal strings (no rounding to a double)."""
    keywords: dict[str, Any] = {"object_pairs_hook": _refuse_duplicate_keys(where)}
    if exact_numbers:
        keywords.update(parse_float=str, parse_int=str)
    try:
        return json.loads(text, **keywords)
    except json.JSONDecodeError as failure:
        raise UsageError(f"{where}: not JSON: {failure.msg} at line {failure.lineno} column {failure.colno}") from None
    except RecursionError:
        raise UsageError(f"{where}: JSON nested too deeply") from None
    except ValueError as failure:  # int('9' * 5000): Python's limit on integer digits
        if isinstance(failure, UsageError):
            raise
        raise UsageError(f"{where}: a number in the JSON cannot be read ({' '.join(str(failure).split())})") from None


def load_json_file(path: str | Path, *, what: str, limit: int | None = None, exact_numbers: bool = False) -> Any:
    """The JSON document in the regular file `path` (UTF-8, at most `limit` bytes, default
    `MAX_INPUT_BYTES`, no repeated keys). Every failure is a one-line `UsageError` naming `what` and
    the path."""
    raw = read_limited(path, what=what, limit=limit)
    where = f"{what} {path}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as failure:
        raise UsageError(f"{where}: not a UTF-8 text file (byte {failure.start}: {raw[failure.start:failure.start + 1]!r}); expected JSON") from None
    return loads_json(text, where=where, exact_numbers=exact_numbers)


def read_lines_limited(stream: IO[bytes], *, what: str, line_limit: int, limit: int | None = None) -> Iterator[bytes]:
    """The lines of the binary `stream` (each with its newline, the last one possibly without), read
    one at a time: a line longer than `line_limit` bytes (its newline not counted), or more than `limit`
    bytes in all (default `MAX_INPUT_BYTES`), is a one-line `UsageError` naming `what` and the line.

    For input that arrives as it is produced (stdin, `eval --batch -`): every line is handed on before
    the next is read, and at most `line_limit + 1` bytes of a line are held, so `/dev/zero` on stdin
    ends with an error after one line's worth instead of filling the memory."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    total = 0
    number = 0
    while True:
        try:
            line = stream.readline(line_limit + 1)
        except OSError as failure:
            raise UsageError(f"{what}: cannot read it ({_reason(failure)})") from None
        if not line:
            return
        number += 1
        total += len(line)
        if total > limit:
            raise UsageError(f"{what}: more than {limit} bytes; at most {limit} bytes are read (split the input)")
        if len(line) - line.endswith(b"\n") > line_limit:
            raise UsageError(f"{what}: line {number} is longer than {line_limit} bytes; at most {line_limit} bytes a line are read")
        yield line
