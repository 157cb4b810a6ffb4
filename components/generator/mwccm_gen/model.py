"""The checked model of one component description.

The parser builds it and the checker has resolved every name in it, so the
IDL2 writer and the C++ renderer never look anything up by themselves. Names
are kept as scoped-name tuples (`("Bench", "Tick")`); `idl()` and `cxx()`
spell them for each output.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Position

ScopedName = tuple[str, ...]


def idl_name(name: ScopedName) -> str:
    return "::".join(name)


def cxx_name(name: ScopedName) -> str:
    return "::" + "::".join(name)


@dataclass
class TypeRef:
    """A type as written (`spelling`), with the declaration it names if any."""

    spelling: str
    position: Position
    # For a basic type or string: its canonical IDL spelling ("unsigned long").
    basic: str | None = None
    # For a name declared in this description: its kind and scoped name.
    declared_kind: str | None = None
    declared: ScopedName | None = None


@dataclass
class Member:
    name: str
    type: TypeRef
    position: Position


class Named:
    """What a scoped declaration is called: the last part of its scoped name."""

    scoped: ScopedName

    @property
    def name(self) -> str:
        return self.scoped[-1]


@dataclass
class EventType(Named):
    """An `eventtype` (a valuetype) or a `struct`; either may be an event."""

    scoped: ScopedName
    members: list[Member]
    position: Position
    is_valuetype: bool


@dataclass
class Enum:
    scoped: ScopedName
    enumerators: list[str]
    position: Position


@dataclass
class Typedef:
    scoped: ScopedName
    type: TypeRef
    position: Position


@dataclass
class Port:
    """One port of a component. `kind` is provides, uses, uses_multiple,
    publishes, emits, consumes. `type` is the interface (facets, receptacles,
    as written, resolved by omniidl) or the event's scoped name."""

    kind: str
    name: str
    type_spelling: str
    position: Position
    event: EventType | None = None


@dataclass
class Attribute:
    name: str
    type: TypeRef
    readonly: bool
    position: Position


@dataclass
class Component(Named):
    scoped: ScopedName
    ports: list[Port]
    attributes: list[Attribute]
    position: Position

    def ports_of(self, *kinds: str) -> list[Port]:
        return [port for port in self.ports if port.kind in kinds]


@dataclass
class Home(Named):
    scoped: ScopedName
    manages_spelling: str
    position: Position
    component: Component | None = None


@dataclass
class Module:
    name: str
    definitions: list = field(default_factory=list)


@dataclass
class Description:
    """A whole `.idl3` file: its includes and its top-level definitions
    (modules nest further definitions), in source order."""

    path: str
    includes: list[str]
    definitions: list

    def walk(self, definitions: list | None = None):
        """Every definition, depth first, in source order."""
        for definition in self.definitions if definitions is None else definitions:
            yield definition
            if isinstance(definition, Module):
                yield from self.walk(definition.definitions)

    def of_type(self, kind: type) -> list:
        return [d for d in self.walk() if isinstance(d, kind)]
