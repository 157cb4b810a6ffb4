"""Renders the Java glue of the Java component layer (components/java/) from the model.

The IDL2 that `idl2.py` writes is compiled by JacORB's IDL compiler into the
standard Java mapping (stubs, POA skeletons and ties, the executor mapping's
local interfaces); this module writes what sits between that and the runtime
`org.mwccm`, per component, home and eventtype, in the Java package of the
IDL module:

- `<C>Component`: the component (ComponentBase + `<C>Operations`): its port
  members, typed port operations, attributes, set_configuration by name; its
  servant is the IDL compiler's `<C>POATie` over it;
- `<C>Context`: the executor's way to its receptacles and sources;
- `<C>ExecutorBase`: what the user's executor extends (lifecycle defaults);
- `<C><Sink>Sink`: a consumer servant per sink;
- `<H>Servant`: the home (HomeBase + `<H>Operations`);
- `<E>Impl`, `<E>DefaultFactory`: a concrete eventtype and the value factory
  an ORB finds by its name (IDL-to-Java mapping 1.13.8).

Unlike the C++ back end it needs no signatures: a tie forwards a facet's
operations, so the glue only names types, which follow the IDL-to-Java
mapping's rules (modules are packages, `A::B` is `A.B`).
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from .model import Component, Description, EventType, Home

# IDL basic type → (Java type, the org.omg.CORBA.Any extractor).
_ANY_EXTRACTORS = {
    "boolean": ("boolean", "extract_boolean"),
    "char": ("char", "extract_char"),
    "octet": ("byte", "extract_octet"),
    "short": ("short", "extract_short"),
    "unsigned short": ("short", "extract_ushort"),
    "long": ("int", "extract_long"),
    "unsigned long": ("int", "extract_ulong"),
    "long long": ("long", "extract_longlong"),
    "unsigned long long": ("long", "extract_ulonglong"),
    "float": ("float", "extract_float"),
    "double": ("double", "extract_double"),
    "string": ("String", "extract_string"),
}


def java_name(scoped: tuple[str, ...]) -> str:
    return ".".join(scoped)


def interface_name(spelling: str, scope: tuple[str, ...]) -> str:
    """An interface as written in the description, in Java: a scoped name
    (`Test::RoundTrip`, `::Test::RoundTrip`) from the root; a bare one
    (`RoundTrip`) in the component's own module."""
    parts = tuple(part for part in spelling.split("::") if part)
    return java_name(parts if len(parts) > 1 or spelling.startswith("::") else scope + parts)


def render_java(description: Description) -> dict[str, str]:
    """Every generated file by its path under the output folder (`CcmPerf/Foo.java`)."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates" / "java"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    source = Path(description.path).name
    files: dict[str, str] = {}

    def render(template: str, package: str, name: str, **values) -> None:
        text = environment.get_template(template).render(
            source=source, package=package, name=name, **values)
        files[f"{package.replace('.', '/')}/{name}.java"] = text

    for component in description.of_type(Component):
        view = _component_view(component)
        package = view["package"]
        render("component.java.j2", package, component.name + "Component", view=view)
        render("context.java.j2", package, component.name + "Context", view=view)
        render("executor_base.java.j2", package, component.name + "ExecutorBase", view=view)
        for sink in view["sinks"]:
            render("sink.java.j2", package, sink["class"], view=view, sink=sink)
    for home in description.of_type(Home):
        package = java_name(home.scoped[:-1])
        render("home.java.j2", package, home.name + "Servant", home=home.name,
               component=home.component.name,
               component_idl="::".join(home.component.scoped))
    for event in _valuetype_events(description):
        package = java_name(event.scoped[:-1])
        render("event_impl.java.j2", package, event.name + "Impl", event=event.name)
        render("event_factory.java.j2", package, event.name + "DefaultFactory", event=event.name)
    return files


def _valuetype_events(description: Description) -> list[EventType]:
    return [event for event in description.of_type(EventType) if event.is_valuetype]


def _component_view(component: Component) -> dict:
    scope = component.scoped[:-1]
    package = java_name(scope)
    view: dict = {
        "name": component.name,
        "package": package,
        "idl": "::".join(component.scoped),
        "facets": [],
        "receptacles": [],
        "multiplex": [],
        "sources": [],
        "sinks": [],
        "attributes": [],
    }
    for port in component.ports:
        if port.event is None:
            interface = interface_name(port.type_spelling, scope)
            entry = {"name": port.name, "interface": interface}
            if port.kind == "provides":
                entry["executor"] = "CCM_" + port.type_spelling.split("::")[-1]
                view["facets"].append(entry)
            elif port.kind == "uses":
                view["receptacles"].append(entry)
            else:
                entry["connection"] = java_name(
                    component.scoped[:-1] + (component.name + "Package", port.name + "Connection"))
                view["multiplex"].append(entry)
            continue
        event = java_name(port.event.scoped)
        consumer = java_name(port.event.scoped[:-1] + (port.event.name + "Consumer",))
        entry = {"name": port.name, "event": event, "event_name": port.event.name,
                 "consumer": consumer, "valuetype": port.event.is_valuetype}
        if port.kind == "consumes":
            entry["class"] = component.name + port.name[0].upper() + port.name[1:] + "Sink"
            view["sinks"].append(entry)
        else:
            entry["publisher"] = port.kind == "publishes"
            view["sources"].append(entry)
    for attribute in component.attributes:
        if attribute.type.basic is not None:
            java_type, extractor = _ANY_EXTRACTORS[attribute.type.basic]
            enum = None
        else:  # an enum of the description (the checker allows nothing else)
            java_type, extractor = java_name(attribute.type.declared), None
            enum = java_type
        view["attributes"].append({
            "name": attribute.name, "type": java_type, "extractor": extractor, "enum": enum,
            "idl_type": attribute.type.spelling, "readonly": attribute.readonly,
        })
    return view
