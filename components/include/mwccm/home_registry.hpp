// Homes by entry-point name, for both assembly modes through one macro:
//
//   MWCCM_REGISTER_HOME(mwccm_home_Bench_SenderHome,
//                       [] { return new SenderHome_servant(new MySenderHome); });
//
// defines the extern "C" function `mwccm_home_Bench_SenderHome` (found by
// dlsym when the component is a shared library, dynamic assembly) and adds it
// to the static registry at start-up (the component is linked into the
// program, static assembly). install_home looks in the static registry first,
// then loads the library.
//
// Static assembly note: the linker drops an object file of a static archive
// that nothing references, registration included; link components as object
// files or shared libraries, or with --whole-archive.
#pragma once

#include <mwccm/errors.hpp>
#include <string>
#include <vector>

namespace mwccm {

class HomeServant;

// Returns a new home servant (reference count 1, passed to the caller).
using HomeEntryPoint = HomeServant* (*)();

class HomeRegistry {
 public:
  static void add(const char* entrypoint, HomeEntryPoint function);
  static HomeEntryPoint find(const std::string& entrypoint) noexcept;  // null if absent
  static std::vector<std::string> names();
};

// No such entry point: not linked in, and not in the library (if any).
class EntryPointNotFound : public Error {
 public:
  using Error::Error;
};

// The entry point: from the static registry, else dlopen(library) and
// dlsym(entrypoint). Libraries stay loaded for the life of the process (their
// code runs in servants the ORB may still call). Throws EntryPointNotFound,
// or mwccm::Error when the library does not load, naming the library, the
// entry point and dlerror(); `library` may be empty when the
// entry point is linked in.
HomeEntryPoint find_home_entry_point(const std::string& entrypoint, const std::string& library);

namespace detail {
struct StaticHomeRegistration {
  StaticHomeRegistration(const char* entrypoint, HomeEntryPoint function) {
    HomeRegistry::add(entrypoint, function);
  }
};
}  // namespace detail

}  // namespace mwccm

// `entrypoint` is a C identifier (or a macro naming one); the rest is an
// expression callable with no arguments that returns a new
// mwccm::HomeServant* (commas allowed).
#define MWCCM_REGISTER_HOME(entrypoint, ...) MWCCM_DETAIL_REGISTER_HOME(entrypoint, __VA_ARGS__)

// One level more, so that a macro given as `entrypoint` is expanded before # and ##.
#define MWCCM_DETAIL_REGISTER_HOME(entrypoint, ...)                                                \
  extern "C" __attribute__((visibility("default"))) ::mwccm::HomeServant* entrypoint() {           \
    return (__VA_ARGS__)();                                                                        \
  }                                                                                                \
  static const ::mwccm::detail::StaticHomeRegistration mwccm_static_home_##entrypoint(#entrypoint, \
                                                                                      &entrypoint)
