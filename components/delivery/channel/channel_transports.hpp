// The transports a `channel` crosses processes by, the default first: its
// Delivery's transports() and the values its plan check takes for `gateway`.
#pragma once

namespace mwccm::channel_delivery {
inline constexpr const char* kTransports[] = {"iiop", "udp", "multicast"};
}  // namespace mwccm::channel_delivery
