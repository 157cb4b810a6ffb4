// What a cell of the ccmevents driver is (its layer, delivery, transport and
// addresses), read from the contract's arguments and checked before any ORB
// exists, so that a bad combination is exit status 2 naming it.
#pragma once

#include <string>

#include "ccmevents_fanout.hpp"
#include "mwbench/options.hpp"

namespace ccmevents {

struct Cell {
  std::string layer;
  FanoutSettings fanout;
  std::string address;  // --bind: where the process listens (ORB, replies, receivers)
};

// Throws mwbench::UsageError naming the argument or option that is wrong.
Cell read_cell(const mwbench::DriverOptions& o);

}  // namespace ccmevents
