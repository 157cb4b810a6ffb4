"""mwccm_signatures: an omniidl back end that writes C++ signatures as JSON.

    omniidl -p components/generator -b mwccm_signatures -I... Sender_ccm.idl

writes Sender_ccm_signatures.json in the current directory (omniidl -C DIR
changes it; -Wbout=FILE names the file). For every interface in the IDL and
everything it includes: its repository id, whether it is local, its bases,
and each operation and attribute with the C++ types omniidl's own C++ back end
uses in skeletons and local interfaces (`omniidl_be.cxx.types`, servant side,
no `_out` aliases for variable-length types: what a POA_ class's pure
virtuals look like). mwccm-gen renders the glue from this file, so the glue
matches omniidl's mapping exactly instead of re-implementing it.

It runs under omniidl's own Python, so it uses the standard library only.
"""

import json
import os

from omniidl import idlast, idltype, idlvisitor
from omniidl_be.cxx import ast, call, config, id, iface, types

_DIRECTIONS = {0: "in", 1: "out", 2: "inout"}

usage_string = """\
  -Wbout=<file>     Write the JSON to <file> (default: <basename>_signatures.json)"""


def run(tree, args):
    output = None
    for arg in args:
        if arg.startswith("out="):
            output = arg[len("out="):]
    basename = os.path.splitext(os.path.basename(tree.file()))[0]
    _prepare_cxx_back_end(tree, basename)
    collector = _Collector()
    for declaration in tree.declarations():
        declaration.accept(collector)
    document = {
        "generator": "mwccm_signatures (omniidl back end)",
        "source": os.path.basename(tree.file()),
        "interfaces": collector.interfaces,
    }
    with open(output or basename + "_signatures.json", "w") as stream:
        json.dump(document, stream, indent=1, sort_keys=True)
        stream.write("\n")


def _prepare_cxx_back_end(tree, basename):
    """The set-up omniidl's C++ back end does before it names any type."""
    call.init()
    iface.init()
    config.state["Basename"] = basename
    config.state["Directory"] = ""
    ast.__init__(tree)
    tree.accept(id.WalkTree())


def _scoped(declaration):
    return "::" + "::".join(declaration.scopedName())


def _interface_of(idl_type):
    """The scoped name of the interface an IDL type names, through typedefs."""
    cxx_type = types.Type(idl_type).deref()
    if cxx_type.objref() and isinstance(cxx_type.type(), idltype.Declared):
        return _scoped(cxx_type.type().decl())
    return None


class _Collector(idlvisitor.AstVisitor):
    def __init__(self):
        self.interfaces = {}

    def visitModule(self, node):
        for definition in node.definitions():
            definition.accept(self)

    def visitInterface(self, node):
        operations = []
        attributes = []
        for callable_ in node.callables():
            if isinstance(callable_, idlast.Operation):
                operations.append(self._operation(callable_))
            elif isinstance(callable_, idlast.Attribute):
                attributes.extend(self._attributes(callable_))
        self.interfaces[_scoped(node)] = {
            "repository_id": node.repoId(),
            "local": bool(node.local()),
            "bases": [_scoped(ast.remove_ast_typedefs(base)) for base in node.inherits()],
            "operations": operations,
            "attributes": attributes,
        }

    def _operation(self, node):
        result = types.Type(node.returnType())
        return {
            "name": node.identifier(),
            "cxx_name": id.mapID(node.identifier()),
            "returns": result.op(types.RET),
            "returns_interface": _interface_of(node.returnType()),
            "void": bool(result.void()),
            "parameters": [
                {
                    "name": id.mapID(parameter.identifier()),
                    "direction": _DIRECTIONS[parameter.direction()],
                    "type": types.Type(parameter.paramType()).op(
                        types.direction(parameter), use_out=0
                    ),
                    "interface": _interface_of(parameter.paramType()),
                }
                for parameter in node.parameters()
            ],
            "raises": [_scoped(exception) for exception in node.raises()],
            "oneway": bool(node.oneway()),
        }

    def _attributes(self, node):
        attr_type = types.Type(node.attrType())
        return [
            {
                "name": identifier,
                "cxx_name": id.mapID(identifier),
                "readonly": bool(node.readonly()),
                "returns": attr_type.op(types.RET),
                "in": attr_type.op(types.IN),
                "interface": _interface_of(node.attrType()),
            }
            for identifier in node.identifiers()
        ]
