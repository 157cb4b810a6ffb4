"""Renders the C++ glue and executor base from the model and omniidl's signatures.

Every C++ type in the output comes from `<name>_ccm_signatures.json` (the
mwccm_signatures omniidl back end), never from a table here: this module only
decides which operation forwards to what. The only C++ spellings it owns are
the Any extractors of set_configuration (`to_boolean` and friends), which
belong to the Any API, not to the IDL mapping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from .model import Component, Description, EventType, Home

# Any extraction of the basic types that need a wrapper (CORBA C++ mapping
# 1.16.3: boolean, char and octet are not distinguishable C++ types).
_ANY_WRAPPERS = {"boolean": "to_boolean", "char": "to_char", "octet": "to_octet"}


class SignatureError(Exception):
    """The signatures file does not match the description (a stale build)."""


@dataclass
class Operation:
    name: str
    returns: str
    parameters: list[tuple[str, str]]  # (C++ type, name)
    void: bool

    @property
    def signature(self) -> str:
        params = ", ".join(f"{ctype} {name}" for ctype, name in self.parameters)
        return f"{self.returns} {self.name}({params})"

    @property
    def arguments(self) -> str:
        return ", ".join(name for _, name in self.parameters)


@dataclass
class ComponentView:
    component: Component
    namespace: str
    poa: str
    interface: dict
    operations: dict[str, Operation]
    facets: list[dict] = field(default_factory=list)
    receptacles: list[dict] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    sinks: list[dict] = field(default_factory=list)
    attributes: list[dict] = field(default_factory=list)
    context_operations: dict[str, Operation] = field(default_factory=dict)
    push_event: Operation | None = None

    @property
    def name(self) -> str:
        return self.component.name


class _Signatures:
    def __init__(self, document: dict) -> None:
        self.interfaces = document["interfaces"]

    def interface(self, scoped: str) -> dict:
        try:
            return self.interfaces[scoped]
        except KeyError:
            raise SignatureError(f"the signatures have no interface {scoped}: "
                                 "regenerate them from this description") from None

    def operations(self, scoped: str, inherited: bool = False) -> list[Operation]:
        """The interface's operations (and attributes as accessor pairs), in
        IDL order; with `inherited`, its bases' too, each name once."""
        seen: set[str] = set()
        result: list[Operation] = []
        pending = [scoped]
        while pending:
            interface = self.interface(pending.pop(0))
            for op in interface["operations"]:
                if op["cxx_name"] not in seen:
                    seen.add(op["cxx_name"])
                    params = [(p["type"], p["name"]) for p in op["parameters"]]
                    result.append(Operation(op["cxx_name"], op["returns"], params, op["void"]))
            for attribute in interface["attributes"]:
                if attribute["cxx_name"] in seen:
                    continue
                seen.add(attribute["cxx_name"])
                result.append(Operation(attribute["cxx_name"], attribute["returns"], [], False))
                if not attribute["readonly"]:
                    result.append(Operation(attribute["cxx_name"], "void",
                                            [(attribute["in"], "value")], True))
            if inherited:
                pending += interface["bases"]
        return result


def _scoped(names: tuple[str, ...]) -> str:
    return "::" + "::".join(names)


def _component_view(component: Component, signatures: _Signatures) -> ComponentView:
    scope = component.scoped[:-1]
    scoped = _scoped(component.scoped)
    interface = signatures.interface(scoped)
    operations = {op.name: op for op in signatures.operations(scoped)}
    raw = {op["cxx_name"]: op for op in interface["operations"]}
    view = ComponentView(
        component, "::".join(scope), "POA_" + scoped[2:], interface, operations,
        context_operations={
            op.name: op
            for op in signatures.operations(_scoped(scope + (f"CCM_{component.name}_Context",)))
        },
        push_event=signatures.operations("::Components::EventConsumerBase")[0],
    )
    executor_operations = {
        op.name: op for op in signatures.operations(_scoped(scope + (f"CCM_{component.name}",)))}
    for port in component.ports:
        if port.kind == "provides":
            iface = raw[f"provide_{port.name}"]["returns_interface"]
            view.facets.append({
                "name": port.name, "interface": iface, "poa": "POA_" + iface[2:],
                "executor": _executor_of(scope, iface),
                "operations": signatures.operations(iface, inherited=True),
            })
        elif port.kind in ("uses", "uses_multiple"):
            iface = raw[f"connect_{port.name}"]["parameters"][0]["interface"]
            executor = _executor_of(scope, iface)
            view.receptacles.append({
                "name": port.name, "interface": iface, "multiple": port.kind == "uses_multiple",
                "connections": f"{scoped}::{port.name}Connections", "executor": executor,
                "forward": _forward_name(executor),
                "operations": signatures.operations(iface, inherited=True),
            })
        else:
            event = port.event
            consumer = _scoped(event.scoped[:-1] + (event.name + "Consumer",))
            push = signatures.operations(consumer)[0]
            entry = {"name": port.name, "consumer": consumer, "push": push,
                     "event": _scoped(event.scoped), "valuetype": event.is_valuetype,
                     "poa": "POA_" + consumer[2:], "kind": port.kind}
            if port.kind == "consumes":
                # The event as the executor's push_<sink>() takes it.
                entry["arg"] = executor_operations[f"push_{port.name}"].parameters[0][0]
                view.sinks.append(entry)
            else:
                context_push = view.context_operations[f"push_{port.name}"]
                entry["arg"] = context_push.parameters[0][0]
                view.sources.append(entry)
    for attribute, signature in zip(component.attributes, interface["attributes"], strict=True):
        basic = attribute.type.basic
        view.attributes.append({
            "name": signature["cxx_name"], "returns": signature["returns"], "in": signature["in"],
            "readonly": signature["readonly"], "idl_type": attribute.type.spelling,
            "any_wrapper": _ANY_WRAPPERS.get(basic or ""),
            "variable": "const char*" if basic == "string" else signature["in"],
        })
    return view


def _executor_of(scope: tuple[str, ...], interface: str) -> str:
    """`::Test::RoundTrip` used in module `Bench` → `::Bench::CCM_RoundTrip`."""
    return _scoped(scope + ("CCM_" + interface.split("::")[-1],))


def _forward_name(executor: str) -> str:
    """The glue's forwarder of an executor interface: `CCM_RoundTrip` → `RoundTrip_forward`."""
    return executor.rpartition("::")[2].removeprefix("CCM_") + "_forward"


def _forwarders(views: list[ComponentView]) -> list[dict]:
    """One forwarder per receptacle executor interface: a CORBA connection's executor side."""
    forwarders: dict[str, dict] = {}
    for view in views:
        for receptacle in view.receptacles:
            forwarders.setdefault(receptacle["executor"], {
                "name": receptacle["forward"], "namespace": view.namespace,
                "executor": receptacle["executor"], "interface": receptacle["interface"],
                "operations": receptacle["operations"],
            })
    return list(forwarders.values())


def _home_view(home: Home) -> dict:
    scope = home.scoped[:-1]
    component = home.component
    return {
        "name": home.name, "namespace": "::".join(scope), "scoped": _scoped(home.scoped),
        "poa": "POA_" + _scoped(home.scoped)[2:],
        "component": _scoped(component.scoped),
        "component_servant": _scoped(component.scoped[:-1] + (component.name + "_servant",)),
        "executor": _scoped(component.scoped[:-1] + ("CCM_" + component.name,)),
        "home_executor": _scoped(scope + ("CCM_" + home.name,)),
        "entrypoint": "mwccm_home_" + "_".join(home.scoped),
        "macro": "MWCCM_REGISTER_" + "_".join(home.scoped),
    }


def _facet_bases(views: list[ComponentView]) -> list[dict]:
    """One `<Interface>_exec_base` per facet executor interface (and module)."""
    bases: dict[str, dict] = {}
    for view in views:
        for facet in view.facets:
            executor = facet["executor"]
            scope, _, local = executor[2:].rpartition("::")
            bases.setdefault(executor, {
                "namespace": scope, "executor": local, "interface": facet["interface"],
                "name": local.removeprefix("CCM_") + "_exec_base",
            })
    return list(bases.values())


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_cpp(description: Description, signatures: dict, stem: str) -> dict[str, str]:
    """The three C++ files of `stem`, by file name."""
    table = _Signatures(signatures)
    context = {
        "source": Path(description.path).name,
        "stem": stem,
        "namespace": re.sub(r"\W", "_", stem) + "_ccm",
        "components": [_component_view(c, table) for c in description.of_type(Component)],
        "homes": [_home_view(h) for h in description.of_type(Home)],
        "events": [
            {"name": e.name, "namespace": "::".join(e.scoped[:-1]), "scoped": _scoped(e.scoped),
             "obv": "OBV_" + _scoped(e.scoped)[2:]}
            for e in description.of_type(EventType) if e.is_valuetype
        ],
    }
    context["facet_bases"] = _facet_bases(context["components"])
    context["forwarders"] = _forwarders(context["components"])
    environment = _environment()
    return {
        f"{stem}_ccm_glue.hpp": environment.get_template("glue.hpp.j2").render(context),
        f"{stem}_ccm_glue.cpp": environment.get_template("glue.cpp.j2").render(context),
        f"{stem}_ccm_executor.hpp": environment.get_template("executor.hpp.j2").render(context),
    }
