"""Reading files that mwbench did not write, so that no file can hang or exhaust it.

Every file mwbench reads from a user or a driver (a spec, a result file, a
driver's description) is bounded before it is parsed: a regular file (never a
FIFO or a device such as /dev/zero), no larger than what that kind of file can
need, valid UTF-8. A YAML text is then walked once with libyaml's C parser
(PyYAML), which streams its events, and refused at the first syntax error, or
as soon as it nests deeper, or expands (through aliases) to more nodes, than
any spec needs, or uses a mapping or a list as a key. Only then does the
round-trip parser (ruamel.yaml, kept for its line numbers) see it: it is
exponential in nested flow mappings used as keys, quadratic in deep flow
nesting and slow on very many nodes, and all three are bounded by then.

Every refusal is an `InputError` naming the file and, where it can, the line.
"""

import os
import stat
from pathlib import Path

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

# Deeper than any spec: suite > experiments > experiment > options > values is 5.
MAX_YAML_DEPTH = 12
# 20 times the largest built-in suite's; aliases count every node they stand for.
MAX_YAML_NODES = 5000


class InputError(Exception):
    """A file refused before it was parsed; the message names it."""


def read_text(path: Path, max_bytes: int, what: str) -> str:
    """The text of `path`, refused unless a regular file of at most `max_bytes` of UTF-8."""
    data = read_bytes(path, max_bytes, what)
    return decode_utf8(data, path)


def read_bytes(path: Path, max_bytes: int, what: str) -> bytes:
    """At most `max_bytes` of the regular file `path`, or an InputError naming it."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise InputError(f"{path}: cannot read the {what}: {error.strerror}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: the {what} is not a regular file")
        if info.st_size > max_bytes:
            raise InputError(f"{path}: the {what} has {info.st_size:,} bytes; "
                             f"a {what} has at most {max_bytes:,}")
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            # Asking for no more than the file holds: a large bound must not become a large
            # buffer. It may grow while it is read, and is read on up to the bound then.
            data = stream.read(min(max_bytes, info.st_size) + 1)
            if len(data) > info.st_size:
                data += stream.read(max_bytes + 1 - len(data))
    except OSError as error:
        raise InputError(f"{path}: cannot read the {what}: {error.strerror}") from None
    finally:
        os.close(descriptor)
    if len(data) > max_bytes:
        raise InputError(f"{path}: the {what} has more than {max_bytes:,} bytes")
    return data


def decode_utf8(data: bytes, path: Path | str, first_line: int = 1) -> str:
    """`data` as text; an error names the line (`data` starting at `first_line`)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + first_line
        raise InputError(f"{path}:{line}: not UTF-8 text (byte {error.start} is "
                         f"0x{data[error.start]:02x})") from None


def check_yaml(text: str, path: Path | str) -> None:
    """Refuse text that is not YAML, or YAML that nests too deep, expands too far or has
    collection keys, in one streaming pass that stops at the first problem."""
    walker = _ShapeWalker(path)
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            walker.visit(event)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        what = ", ".join(part for part in (error.context, error.problem) if part)
        raise InputError(f"{where}: not valid YAML: {what}") from None
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None


def load_yaml(text: str, path: Path | str):
    """The document of a YAML text, loaded with ruamel.yaml's round-trip parser (which
    keeps line numbers) once check_yaml has let it through."""
    check_yaml(text, path)
    try:
        return YAML(typ="rt").load(text)
    except YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None


class _ShapeWalker:
    """Depth, node count (with aliases expanded) and key kinds of a YAML event stream."""

    def __init__(self, path: Path | str):
        self.path = path
        self.nodes = 0
        # One entry per open collection: [is_mapping, children so far, nodes at its start,
        # its anchor or None].
        self.open: list[list] = []
        self.anchored: dict[str, int] = {}  # anchor -> nodes it stands for

    def visit(self, event) -> None:
        if isinstance(event, yaml.AliasEvent):
            self._node(event, self.anchored.get(event.anchor, 1))
        elif isinstance(event, yaml.ScalarEvent):
            self._node(event, 1)
            if event.anchor:
                self.anchored[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            self._node(event, 1)
            self.open.append([isinstance(event, yaml.MappingStartEvent), 0, self.nodes,
                              event.anchor])
            if len(self.open) > MAX_YAML_DEPTH:
                self._refuse(event, f"nests deeper than {MAX_YAML_DEPTH} levels")
        elif isinstance(event, yaml.CollectionEndEvent):
            _, _, first, anchor = self.open.pop()
            if anchor:
                self.anchored[anchor] = self.nodes - first + 1

    def _node(self, event, weight: int) -> None:
        if self.open:
            is_mapping, children, _, _ = self.open[-1]
            self.open[-1][1] = children + 1
            if is_mapping and children % 2 == 0 and not isinstance(event, yaml.ScalarEvent):
                self._refuse(event, "has a key that is not a plain value (a mapping, a list "
                                    "or an alias as a key)")
        self.nodes += weight
        if self.nodes > MAX_YAML_NODES:
            self._refuse(event, f"has more than {MAX_YAML_NODES:,} values (counting what "
                                "its aliases repeat)")

    def _refuse(self, event, problem: str) -> None:
        raise InputError(f"{self.path}:{event.start_mark.line + 1}: the YAML {problem}; "
                         "no spec needs that")
