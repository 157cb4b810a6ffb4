// The wording of Assembly's steps (assembly.cpp, assembly_teardown.cpp): a
// CCM exception a step raised comes out as the same exception with the step
// before its message, so that an error from another process still says
// which two ports were being connected.
#pragma once

#include <Components.hh>
#include <mwccm/assembly.hpp>
#include <mwccm/errors.hpp>
#include <string>

namespace mwccm::detail {

template <class E>
[[noreturn]] void reraise_with_step(const E& error, const std::string& step) {
  raise<E>(step + ": " + error.message.in());
}

// Runs `body`; a CCM exception of the listed types comes out as the same
// exception with `step` before its message (one try per type, the body in
// the innermost). System exceptions (a server gone) pass unchanged.
template <class F, class E, class... Rest>
auto run_worded(const std::string& step, F& body) -> decltype(body()) {
  try {
    if constexpr (sizeof...(Rest) == 0) {
      return body();
    } else {
      return run_worded<F, Rest...>(step, body);
    }
  } catch (const E& e) {
    reraise_with_step(e, step);
  }
}

template <class F>
auto run_step(const std::string& step, F&& body) -> decltype(body()) {
  namespace C = Components;
  namespace D = Components::Deployment;
  return run_worded<F, C::InvalidName, C::InvalidConnection, C::AlreadyConnected, C::NoConnection,
                    C::ExceededConnectionLimit, C::CookieRequired, C::BadEventType,
                    C::InvalidConfiguration, C::CreateFailure, C::RemoveFailure, C::IllegalState,
                    C::CCMException, D::InstallationFailure, D::ImplEntryPointNotFound,
                    D::InvalidConfiguration, D::RegistrationFailure>(step, body);
}

inline std::string quoted(const std::string& name) { return "'" + name + "'"; }

inline std::string describe(const char* kind, const PortEnd& end) {
  return std::string(kind) + " " + quoted(end.port) + " of " + quoted(end.component);
}

}  // namespace mwccm::detail

namespace mwccm {

template <class T>
const T& Assembly::find(const std::map<std::string, T>& in, const std::string& name,
                        const char* what) const {
  auto it = in.find(name);
  if (it == in.end()) {
    raise<Components::InvalidName>(std::string("the assembly has no ") + what + " " +
                                   detail::quoted(name));
  }
  return it->second;
}

}  // namespace mwccm
