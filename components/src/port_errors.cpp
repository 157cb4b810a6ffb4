// The wording of every port refusal, in one place (detail/port_errors.hpp).
#include <mwccm/detail/port_errors.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/port.hpp>
#include <string>

namespace mwccm {

std::string describe_port(const char* kind, const std::string& port, const std::string& component) {
  return std::string(kind) + " '" + port + "' of component '" + component + "'";
}

}  // namespace mwccm

namespace mwccm::detail {

namespace {
std::string refused(const char* operation) { return std::string("; ") + operation + " refused"; }
}  // namespace

void already_connected(const Port& port, const char* operation) {
  raise<Components::AlreadyConnected>(port.describe() + " already connected" + refused(operation));
}

void not_plain(const Port& port, const std::string& other, const char* wanted) {
  raise<Components::InvalidConnection>(port.describe() + " takes " + wanted + " as plain C++; " +
                                       other + " is not one (connect them through CORBA)" +
                                       refused("connect_plain"));
}

void another_channel(const Port& port, const std::string& first, const std::string& second) {
  raise<Components::InvalidConnection>(port.describe() + " publishes through the channel of '" +
                                       first + "', not '" + second + "'" +
                                       refused("subscribe_channel"));
}

void not_connected(const Port& port, const char* operation) {
  raise<Components::NoConnection>(port.describe() + " is not connected" + refused(operation));
}

void bad_cookie(const Port& port, const char* operation) {
  raise<Components::InvalidConnection>(port.describe() + " has no connection with this cookie" +
                                       refused(operation));
}

void cookie_required(const Port& port, const char* operation) {
  raise<Components::CookieRequired>(port.describe() + " needs a cookie" + refused(operation));
}

void connection_limit(const Port& port, std::size_t limit, const char* operation) {
  raise<Components::ExceededConnectionLimit>(port.describe() + " already has " +
                                             std::to_string(limit) + " connections" +
                                             refused(operation));
}

void nil_reference(const Port& port, const char* operation) {
  raise<Components::InvalidConnection>(port.describe() + " got a nil reference" +
                                       refused(operation));
}

void wrong_source_kind(const Port& port, const char* operation) {
  const char* is = port.kind() == Components::PUBLISHER ? "a publisher" : "an emitter";
  raise<Components::InvalidName>(port.describe() + " is " + is + refused(operation));
}

}  // namespace mwccm::detail
