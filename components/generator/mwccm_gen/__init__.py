"""mwccm-gen: the code generator of the mwccm component middleware.

Reads a component description (`.idl3`, docs/components.md section 2) and
writes the files of section 3. The front end is parser.py (lark) and
checker.py; idl2.py writes the IDL2 for omniidl; cpp.py renders the C++ glue
from the signatures omniidl's own C++ mapping gives (mwccm_signatures).
"""

from .checker import check
from .parser import parse


def load(path: str):
    """Parse and check one description; raises DescriptionError."""
    return check(parse(path))
