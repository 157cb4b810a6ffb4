// The refusals of typed ports, out of line so that templates stay small and
// every message has one wording: "<port> ...; <operation> refused".
#pragma once

#include <cstddef>
#include <string>

namespace mwccm {
class Port;
}

namespace mwccm::detail {

[[noreturn]] void already_connected(const Port& port, const char* operation);
[[noreturn]] void not_connected(const Port& port, const char* operation);
[[noreturn]] void bad_cookie(const Port& port, const char* operation);
[[noreturn]] void cookie_required(const Port& port, const char* operation);
[[noreturn]] void connection_limit(const Port& port, std::size_t limit, const char* operation);
[[noreturn]] void nil_reference(const Port& port, const char* operation);
// A plain C++ connection whose other end is not of this port's executor type
// (a facet of another interface, a sink of another event, or the same one
// from another component description): InvalidConnection.
[[noreturn]] void not_plain(const Port& port, const std::string& other, const char* wanted);
// A source subscribed through one container's channel, then another's.
[[noreturn]] void another_channel(const Port& port, const std::string& first,
                                  const std::string& second);
// subscribe on an emitter, connect_consumer on a publisher: InvalidName, as CCM says.
[[noreturn]] void wrong_source_kind(const Port& port, const char* operation);

}  // namespace mwccm::detail
