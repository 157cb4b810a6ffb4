// Parsing and validation of the contract arguments (internal).
#pragma once

#include <string>

#include "mwbench/driver.hpp"

namespace mwbench::detail {

struct Arguments {
  bool describe = false;  // --describe: print the description and exit
  bool help = false;      // --help: print `help_text` and exit
  std::string help_text;
  DriverOptions options;
};

// Parses argv and checks it against `description`. Throws UsageError with a
// message that names the argument and lists the allowed values.
Arguments parse_arguments(int argc, const char* const* argv, const Description& description);

}  // namespace mwbench::detail
