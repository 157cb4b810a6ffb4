// The static home registry and the dlopen path.
#include <dlfcn.h>

#include <map>
#include <mutex>
#include <mwccm/home_registry.hpp>
#include <mwccm/step_observer.hpp>

namespace mwccm {

namespace {

// A function-local static: registrations run from other objects' static
// initialisers, in an order we do not control.
struct Registry {
  std::mutex mutex;
  std::map<std::string, HomeEntryPoint> entries;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

void HomeRegistry::add(const char* entrypoint, HomeEntryPoint function) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.entries[entrypoint] = function;
}

HomeEntryPoint HomeRegistry::find(const std::string& entrypoint) noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.entries.find(entrypoint);
  return it == r.entries.end() ? nullptr : it->second;
}

std::vector<std::string> HomeRegistry::names() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::string> out;
  for (const auto& [name, function] : r.entries) out.push_back(name);
  return out;
}

HomeEntryPoint find_home_entry_point(const std::string& entrypoint, const std::string& library) {
  if (HomeEntryPoint linked = HomeRegistry::find(entrypoint)) return linked;
  if (library.empty()) {
    throw EntryPointNotFound("home entry point '" + entrypoint +
                             "' is not linked into this program and no \"library\" was given");
  }
  ObservedStep observed(Step::LibraryLoad, library);
  // Never closed: servants from the library may outlive any one caller.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw Error("cannot load library '" + library + "' for home entry point '" + entrypoint +
                "': " + (why ? why : "unknown error"));
  }
  dlerror();
  void* symbol = dlsym(handle, entrypoint.c_str());
  if (symbol == nullptr) {
    const char* why = dlerror();
    throw EntryPointNotFound("library '" + library + "' has no home entry point '" + entrypoint +
                             "': " + (why ? why : "null symbol"));
  }
  return reinterpret_cast<HomeEntryPoint>(symbol);
}

}  // namespace mwccm
