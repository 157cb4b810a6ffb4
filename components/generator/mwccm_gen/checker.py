"""The semantic rules of a description (docs/components.md section 2).

Walks the definitions in source order, gives each its scoped name, and
resolves names the way IDL does: innermost scope first, and only what is
declared before the use. Names the description does not declare (the
interfaces of facets and receptacles, types of included IDL2 files) are left
for omniidl to resolve; everything mwccm itself must understand (events,
attribute types, managed components) has to resolve here.
"""

from __future__ import annotations

from .errors import DescriptionError
from .model import (
    Attribute,
    Component,
    Description,
    EventType,
    Home,
    Module,
    ScopedName,
    Typedef,
    TypeRef,
    idl_name,
)

# Attribute types set_configuration can carry in an Any and the glue can
# extract without generated helpers; plus enums of the description.
ATTRIBUTE_BASIC_TYPES = (
    "boolean", "char", "octet", "short", "unsigned short", "long",
    "unsigned long", "long long", "unsigned long long", "float", "double", "string",
)

_EVENT_PORTS = ("publishes", "emits", "consumes")


def check(description: Description) -> Description:
    _Checker(description).run()
    return description


class _Checker:
    def __init__(self, description: Description) -> None:
        self.description = description
        self.declared: dict[ScopedName, object] = {}

    def run(self) -> None:
        self._definitions(self.description.definitions, ())

    def _definitions(self, definitions: list, scope: ScopedName) -> None:
        for definition in definitions:
            if isinstance(definition, Module):
                self._definitions(definition.definitions, scope + (definition.name,))
                continue
            definition.scoped = scope + definition.scoped
            if isinstance(definition, EventType):
                for member in definition.members:
                    self._resolve_type(member.type, scope)
            elif isinstance(definition, Typedef):
                self._resolve_type(definition.type, scope)
            elif isinstance(definition, Component):
                self._component(definition, scope)
            elif isinstance(definition, Home):
                self._home(definition, scope)
            self._declare(definition)

    def _declare(self, definition) -> None:
        earlier = self.declared.get(definition.scoped)
        if earlier is not None:
            raise DescriptionError(
                definition.position,
                f"'{idl_name(definition.scoped)}' is already declared at "
                f"line {earlier.position.line}",
            )
        self.declared[definition.scoped] = definition

    def _lookup(self, spelling: str, scope: ScopedName):
        """The declaration `spelling` names from `scope`, or None."""
        parts = tuple(spelling.lstrip(":").split("::"))
        if spelling.startswith("::"):
            return self.declared.get(parts)
        for depth in range(len(scope), -1, -1):
            found = self.declared.get(scope[:depth] + parts)
            if found is not None:
                return found
        return None

    def _declared_as(self, kind: type, spelling: str, scope: ScopedName, position, problem: str):
        """The declaration of `kind` that `spelling` names; DescriptionError saying `problem`."""
        found = self._lookup(spelling, scope)
        if not isinstance(found, kind):
            raise DescriptionError(position, problem)
        return found

    def _resolve_type(self, type_ref: TypeRef, scope: ScopedName) -> None:
        if type_ref.basic is not None or type_ref.spelling.startswith(("sequence<", "string<")):
            return
        found = self._lookup(type_ref.spelling, scope)
        if found is None:
            return  # declared in an included IDL2 file: omniidl resolves it
        type_ref.declared = found.scoped
        type_ref.declared_kind = type(found).__name__.lower()
        if isinstance(found, (Component, Home)):
            message = f"'{type_ref.spelling}' is a {type_ref.declared_kind}, not a type"
            raise DescriptionError(type_ref.position, message)

    def _component(self, component: Component, scope: ScopedName) -> None:
        first_use: dict[str, object] = {}
        for feature in [*component.ports, *component.attributes]:
            earlier = first_use.get(feature.name)
            if earlier is not None:
                raise DescriptionError(
                    feature.position,
                    f"duplicate port name '{feature.name}' in component '{component.name}' "
                    f"(first declared at line {earlier.position.line})",
                )
            first_use[feature.name] = feature
        for port in component.ports:
            if port.kind in _EVENT_PORTS:
                port.event = self._declared_as(
                    EventType,
                    port.type_spelling,
                    scope,
                    port.position,
                    f"unknown event type '{port.type_spelling}' of port '{port.name}': "
                    "an event is an eventtype or struct declared earlier in this description",
                )
        for attribute in component.attributes:
            self._attribute(attribute, scope)

    def _attribute(self, attribute: Attribute, scope: ScopedName) -> None:
        self._resolve_type(attribute.type, scope)
        if attribute.type.basic in ATTRIBUTE_BASIC_TYPES or attribute.type.declared_kind == "enum":
            return
        raise DescriptionError(
            attribute.type.position,
            f"attribute '{attribute.name}' has type '{attribute.type.spelling}': attribute "
            "types are the IDL basic types, string, or an enum of this description",
        )

    def _home(self, home: Home, scope: ScopedName) -> None:
        home.component = self._declared_as(
            Component,
            home.manages_spelling,
            scope,
            home.position,
            f"home '{home.name}' manages unknown component '{home.manages_spelling}': "
            "a home manages a component declared earlier in this description",
        )

