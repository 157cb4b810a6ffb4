// The messages of ReplyTally: built only when something went wrong.
#include "mwbench/fanout.hpp"

#include <stdexcept>

namespace mwbench {

ReplyTally::ReplyTally(int subscribers) {
  if (subscribers < 1) throw std::invalid_argument("a fan-out needs at least one subscriber");
  replied_.assign(static_cast<std::size_t>(subscribers), 0);
}

std::string ReplyTally::describe(int subscriber, std::uint64_t event) const {
  const std::string who = "subscriber " + std::to_string(subscriber);
  if (subscriber < 0 || subscriber >= subscribers()) {
    return "a reply from " + who + ", but the fan-out has subscribers 0-" +
           std::to_string(subscribers() - 1);
  }
  if (event != event_) {
    return who + " replied to event " + std::to_string(event) + " while event " +
           std::to_string(event_) + " was in flight";
  }
  return who + " replied twice to event " + std::to_string(event);
}

std::string ReplyTally::describe_missing() const {
  std::string list;
  int shown = 0;
  for (int s = 0; s < subscribers(); ++s) {
    if (replied_[static_cast<std::size_t>(s)] == generation_) continue;
    if (++shown > 8) {
      list += ", ...";
      break;
    }
    list += (list.empty() ? "" : ", ") + std::to_string(s);
  }
  return std::to_string(missing_) + " of " + std::to_string(subscribers()) +
         " subscribers have not replied to event " + std::to_string(event_) + " (" + list + ")";
}

}  // namespace mwbench
