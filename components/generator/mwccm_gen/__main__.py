"""The command line of mwccm-gen. The build runs it twice around omniidl:

    mwccm-gen idl Sender.idl3 -o OUT            # OUT/Sender_ccm.idl
    omniidl -bcxx ... OUT/Sender_ccm.idl        # OUT/Sender_ccm.hh, Sender_ccmSK.cc
    omniidl -b mwccm_signatures ...             # OUT/Sender_ccm_signatures.json
    mwccm-gen cpp Sender.idl3 --signatures OUT/Sender_ccm_signatures.json -o OUT
                                                # Sender_ccm_glue.hpp/.cpp, Sender_ccm_executor.hpp
    mwccm-gen ccd Sender.idl3 --signatures OUT/Sender_ccm_signatures.json -o OUT/interfaces
                                                # <Module>_<Component>.ccd per component

The Java component layer (components/java/) takes the same IDL2, compiled by
JacORB's IDL compiler, and the Java glue, which needs no signatures:

    mwccm-gen java Sender.idl3 -o OUT/java      # OUT/java/<package>/<Class>.java,
                                                # listed in OUT/java/Sender_ccm_java.txt

`mwccm-gen check FILE` only checks. Errors print `FILE:LINE:COL: error: ...`
and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import load
from .errors import DescriptionError


def main(argv: list[str] | None = None) -> int:
    arguments = _arguments().parse_args(argv)
    try:
        description = load(arguments.description)
    except DescriptionError as error:
        print(error, file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{arguments.description}: error: {error.strerror}", file=sys.stderr)
        return 2
    stem = Path(arguments.description).stem
    if arguments.verb == "idl":
        from .idl2 import write_idl2

        _write(arguments.output / f"{stem}_ccm.idl", write_idl2(description))
    elif arguments.verb == "ccd":
        from .ccd import render_interfaces

        signatures = json.loads(arguments.signatures.read_text())
        files = render_interfaces(description, signatures)
        for name, text in files.items():
            _write(arguments.output / name, text)
        # The list of what was written: the build's record of this step.
        _write(arguments.output / f"{stem}_ccm_interfaces.txt", "".join(f"{n}\n" for n in files))
    elif arguments.verb == "java":
        from .java import render_java

        files = render_java(description)
        for name, text in files.items():
            _write(arguments.output / name, text)
        _write(arguments.output / f"{stem}_ccm_java.txt", "".join(f"{n}\n" for n in files))
    elif arguments.verb == "cpp":
        from .cpp import SignatureError, render_cpp

        signatures = json.loads(arguments.signatures.read_text())
        try:
            files = render_cpp(description, signatures, stem)
        except SignatureError as error:
            print(f"{arguments.signatures}: error: {error}", file=sys.stderr)
            return 2
        for name, text in files.items():
            _write(arguments.output / name, text)
    return 0


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mwccm-gen", description="mwccm component code generator (docs/components.md)"
    )
    verbs = parser.add_subparsers(dest="verb", required=True)
    check = verbs.add_parser("check", help="check a description and write nothing")
    check.add_argument("description")
    idl = verbs.add_parser("idl", help="write <name>_ccm.idl (the IDL2 mapping)")
    idl.add_argument("description")
    idl.add_argument("-o", "--output", type=Path, default=Path("."))
    ccd = verbs.add_parser("ccd", help="write each component's interface description (.ccd)")
    ccd.add_argument("description")
    ccd.add_argument("--signatures", type=Path, required=True,
                     help="<name>_ccm_signatures.json from omniidl -b mwccm_signatures")
    ccd.add_argument("-o", "--output", type=Path, default=Path("."))
    cpp = verbs.add_parser("cpp", help="write the C++ glue and executor base")
    cpp.add_argument("description")
    cpp.add_argument("--signatures", type=Path, required=True,
                     help="<name>_ccm_signatures.json from omniidl -b mwccm_signatures")
    cpp.add_argument("-o", "--output", type=Path, default=Path("."))
    java = verbs.add_parser("java", help="write the Java glue (components/java/README.md)")
    java.add_argument("description")
    java.add_argument("-o", "--output", type=Path, default=Path("."))
    return parser


if __name__ == "__main__":
    sys.exit(main())
