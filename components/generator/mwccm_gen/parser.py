"""Reads a `.idl3` description into an unchecked model (see checker.py).

lark parses with the grammar in idl3.lark (LALR, so errors are found at the
first token that cannot continue a declaration); a Transformer turns the
parse tree into model objects that carry the position of their name.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import lark
from lark import Token, Transformer

from .errors import DescriptionError, Position
from .model import (
    Attribute,
    Component,
    Description,
    Enum,
    EventType,
    Home,
    Member,
    Module,
    Port,
    Typedef,
    TypeRef,
)

# Words of full IDL that the subset leaves out, with what to do instead.
_OUTSIDE_SUBSET = {
    "interface": "interfaces belong in an included IDL2 file",
    "valuetype": "use an eventtype, or declare the valuetype in an included IDL2 file",
    "exception": "declare exceptions in an included IDL2 file",
    "union": "declare unions in an included IDL2 file",
    "const": "declare constants in an included IDL2 file",
    "abstract": "abstract declarations are not in the subset",
    "local": "local interfaces are written by the generator, not by hand",
    "factory": "homes have only the implicit create()",
    "finder": "homes have only the implicit create()",
    "primarykey": "keyed homes are not in the subset",
    "import": "use #include",
}

# IDL keywords, which omniidl refuses as names (compared case-insensitively,
# as IDL does).
_IDL_KEYWORDS = set("""
abstract any attribute boolean case char component const consumes context custom default
double emits enum eventtype exception factory false finder fixed float getraises home import
in inout interface local long manages module multiple native object octet oneway out
primarykey private provides public publishes raises readonly setraises sequence short string
struct supports switch true truncatable typedef typeid typeprefix unsigned union uses
valuebase valuetype void wchar wstring
""".split())

# The spellings of basic types the grammar's keyword words may form.
_BASIC_TYPES = {
    "short", "long", "long long", "unsigned short", "unsigned long",
    "unsigned long long", "float", "double", "long double", "char", "wchar",
    "boolean", "octet", "any",
}


@cache
def _parser() -> lark.Lark:
    grammar = (Path(__file__).parent / "idl3.lark").read_text()
    return lark.Lark(grammar, parser="lalr", propagate_positions=True)


def parse(path: str, text: str | None = None) -> Description:
    """Parse the file at `path` (or `text`, reported as `path`)."""
    if text is None:
        text = Path(path).read_text()
    try:
        tree = _parser().parse(text)
    except lark.exceptions.UnexpectedInput as error:
        raise _syntax_error(path, text, error) from None
    try:
        return _ToModel(path).transform(tree)
    except lark.exceptions.VisitError as error:
        # lark wraps what a Transformer raises; our own errors go out as they are.
        if isinstance(error.orig_exc, DescriptionError):
            raise error.orig_exc from None
        raise


def _syntax_error(path: str, text: str, error: lark.exceptions.UnexpectedInput):
    at_end = isinstance(error, lark.exceptions.UnexpectedEOF) or (
        isinstance(error, lark.exceptions.UnexpectedToken) and error.token.type == "$END"
    )
    if at_end or error.line < 1:
        position = Position(path, text.count("\n") + 1, len(text) - text.rfind("\n"))
        return DescriptionError(position, "unexpected end of file")
    position = Position(path, error.line, error.column)
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        character = text[error.pos_in_stream]
        if character == "#":
            return DescriptionError(position, "only #include is supported of the preprocessor")
        return DescriptionError(position, f"unexpected character '{character}'")
    token = error.token
    if token.value in _OUTSIDE_SUBSET:
        reason = _OUTSIDE_SUBSET[token.value]
        return DescriptionError(position, f"'{token.value}' is not in the mwccm subset: {reason}")
    expected = sorted(_readable_terminal(name) for name in error.expected)
    return DescriptionError(
        position, f"unexpected '{token.value}', expected {', '.join(expected)}"
    )


def _readable_terminal(name: str) -> str:
    for terminal in _parser().terminals:
        if terminal.name == name and terminal.pattern.type == "str":
            return f"'{terminal.pattern.value}'"
    return {"IDENT": "a name", "INT": "a number", "INCLUDE_LINE": "#include"}.get(
        name, name.lower()
    )


def _position_of(path: str, token: Token) -> Position:
    return Position(path, token.line, token.column)


class _ToModel(Transformer):
    """Bottom-up: each method gets its rule's children already transformed.
    Declarations get their simple name as `scoped`; the checker prefixes the
    module path, since modules are transformed after their contents."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def _at(self, token: Token) -> Position:
        return _position_of(self.path, token)

    def _name(self, token: Token) -> str:
        """A declared name, refused when it is an IDL keyword."""
        if token.value.lower() in _IDL_KEYWORDS:
            raise DescriptionError(
                self._at(token), f"'{token.value}' is an IDL keyword and cannot be a name"
            )
        return token.value

    def start(self, children):
        includes = [c for c in children if isinstance(c, _Include)]
        definitions = [c for c in children if not isinstance(c, _Include)]
        return Description(self.path, [i.directive for i in includes], definitions)

    def include(self, children):
        (line,) = children
        target = line.value.split("include", 1)[1].strip()
        return _Include(f"#include {target}", self._at(line))

    def module(self, children):
        name, *definitions = children
        for definition in definitions:
            if isinstance(definition, _Include):
                raise DescriptionError(definition.position, "#include belongs at file level")
        return Module(self._name(name), definitions)

    def eventtype(self, children):
        name, *members = children
        return EventType((self._name(name),), members, self._at(name), is_valuetype=True)

    def struct(self, children):
        name, *members = children
        return EventType((self._name(name),), members, self._at(name), is_valuetype=False)

    def state_member(self, children):
        return self.member(children)

    def member(self, children):
        type_ref, name = children
        return Member(self._name(name), type_ref, self._at(name))

    def enum(self, children):
        name, *enumerators = children
        return Enum((self._name(name),), [self._name(e) for e in enumerators], self._at(name))

    def typedef(self, children):
        type_ref, name = children
        return Typedef((self._name(name),), type_ref, self._at(name))

    def component(self, children):
        name, inheritance, supports, *ports = children
        if inheritance is not None:
            raise DescriptionError(
                inheritance.position, "component inheritance is not in the mwccm subset"
            )
        if supports is not None:
            raise DescriptionError(supports, "'supports' is not in the mwccm subset")
        attributes = [p for p in ports if isinstance(p, Attribute)]
        port_list = [p for p in ports if isinstance(p, Port)]
        return Component((self._name(name),), port_list, attributes, self._at(name))

    def inheritance(self, children):
        (base,) = children
        return base

    def supports(self, children):
        return self._at(children[0])

    def _port(self, kind, children):
        type_ref, name = children
        return Port(kind, self._name(name), type_ref.spelling, self._at(name))

    def provides(self, children):
        return self._port("provides", children)

    def uses(self, children):
        multiple, *rest = children
        return self._port("uses_multiple" if multiple else "uses", rest)

    def publishes(self, children):
        return self._port("publishes", children)

    def emits(self, children):
        return self._port("emits", children)

    def consumes(self, children):
        return self._port("consumes", children)

    def attribute(self, children):
        readonly, type_ref, name = children
        return Attribute(self._name(name), type_ref, readonly is not None, self._at(name))

    def home(self, children):
        name, supports, manages = children
        if supports is not None:
            raise DescriptionError(supports, "'supports' is not in the mwccm subset")
        return Home((self._name(name),), manages.spelling, self._at(name))

    def type_spec(self, children):
        (inner,) = children
        return inner

    def sequence_type(self, children):
        element, bound = children
        spelling = f"sequence<{element.spelling}" + (f", {bound}>" if bound else ">")
        return TypeRef(spelling, element.position)

    def string_type(self, children):
        keyword, bound = children
        spelling = keyword.value + (f"<{bound}>" if bound else "")
        return TypeRef(spelling, self._at(keyword), basic=None if bound else keyword.value)

    def base_type(self, children):
        spelling = " ".join(word.value for word in children)
        position = self._at(children[0])
        if spelling not in _BASIC_TYPES:
            raise DescriptionError(position, f"'{spelling}' is not an IDL type")
        return TypeRef(spelling, position, basic=spelling)

    def scoped_name(self, children):
        spelling = "".join(token.value for token in children)
        return TypeRef(spelling, self._at(children[0]))


class _Include:
    def __init__(self, directive: str, position: Position) -> None:
        self.directive = directive
        self.position = position
