// Who answered the fan-out's handshake.
#include "common/fanout_handshake.hpp"

#include <stdexcept>

namespace mwbench::common {

Handshake::Handshake(int subscribers)
    : answered_(static_cast<std::size_t>(subscribers), false), missing_(subscribers) {}

void Handshake::answered(int subscriber) {
  if (subscriber < 0 || subscriber >= subscribers()) {
    throw std::runtime_error("a handshake answer from subscriber " + std::to_string(subscriber) +
                             ", but the fan-out has subscribers 0-" +
                             std::to_string(subscribers() - 1));
  }
  if (!answered_[static_cast<std::size_t>(subscriber)]) {
    answered_[static_cast<std::size_t>(subscriber)] = true;
    --missing_;
  }
}

std::string Handshake::describe_missing() const {
  std::string list;
  int shown = 0;
  for (int s = 0; s < subscribers(); ++s) {
    if (answered_[static_cast<std::size_t>(s)]) continue;
    if (++shown > 8) {
      list += ", ...";
      break;
    }
    list += (list.empty() ? "" : ", ") + std::to_string(s);
  }
  return std::to_string(missing_) + " of " + std::to_string(subscribers()) + " subscribers (" +
         list + ") did not answer the fan-out handshake";
}

}  // namespace mwbench::common
