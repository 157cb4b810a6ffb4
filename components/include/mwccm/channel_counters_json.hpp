// A channel's counters as JSON, for whoever reports them with nlohmann::json
// (the ccmevents driver's results, mwccm-inspect --channels): the same keys
// from an EventChannel's Counters and from MwccmDeployment's ChannelCounters,
// which name their fields alike.
#pragma once

#include <nlohmann/json.hpp>
#include <utility>

namespace mwccm {

// One supplier's: received, duplicates, out_of_order, lost.
template <class Supplier>
nlohmann::json supplier_counters_json(const Supplier& from) {
  return {{"received", from.received},
          {"duplicates", from.duplicates},
          {"out_of_order", from.out_of_order},
          {"lost", from.lost}};
}

// The channel's, with `suppliers` (supplier name → supplier_counters_json).
template <class Counters>
nlohmann::json channel_counters_json(const Counters& c, nlohmann::json suppliers) {
  return {{"published", c.published},         {"delivered", c.delivered},
          {"filtered", c.filtered},           {"sent", c.sent},
          {"undeliverable", c.undeliverable}, {"received", c.received},
          {"unreadable", c.unreadable},       {"duplicates", c.duplicates},
          {"out_of_order", c.out_of_order},   {"lost", c.lost},
          {"suppliers", std::move(suppliers)}};
}

}  // namespace mwccm
