#include "signals.hpp"

namespace mwbench::detail {

const char* signal_name(int signo) noexcept {
  switch (signo) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    default:
      return "a signal";
  }
}

}  // namespace mwbench::detail
