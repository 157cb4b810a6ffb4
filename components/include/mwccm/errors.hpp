// CCM errors with messages. Every Components exception carries a `message`
// (an mwccm addition); these helpers fill it so that every refusal names the
// port and the component involved, and ports, containers and glue all word
// their errors the same way.
#pragma once

#include <Components.hh>
#include <stdexcept>
#include <string>

namespace mwccm {

// Throws the CCM exception E (any Components exception) with `message`.
template <class E>
[[noreturn]] void raise(const std::string& message) {
  E error;
  error.message = message.c_str();
  throw error;
}

// "receptacle 'peer' of component 'sender'": how messages name a port.
std::string describe_port(const char* kind, const std::string& port, const std::string& component);

// An error of the C++ API that has no CCM exception (registration, loading).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mwccm

namespace mwccm {

// The exception being handled, in words: a CCM or deployment exception as
// "<name>: <message>", a system exception with its minor code, any other
// std::exception's what(). Call inside a catch block only.
std::string current_exception_message();

}  // namespace mwccm
