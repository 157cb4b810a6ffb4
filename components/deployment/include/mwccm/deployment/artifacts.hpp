// Finding a plan's artifacts on a node, only inside the directories the node
// trusts, and checking that a library exports an entry point without loading
// it (the ELF dynamic symbol table, read with libelf): what a node checks in
// preparePlan, before anything is created.
#pragma once

#include <string>
#include <vector>

namespace mwccm::deployment {

class TrustedDirectories {
 public:
  // Each directory is made canonical (symbolic links resolved); one that
  // does not exist is an error (std::runtime_error naming it).
  explicit TrustedDirectories(const std::vector<std::string>& directories);

  // The canonical path of the library `location` names: a relative location
  // is looked up in each trusted directory in order; an absolute one must be
  // inside one. std::runtime_error saying why not: not found (where it was
  // looked for), or outside every trusted directory (after resolving "..",
  // and symbolic links, so neither can leave them).
  std::string resolve(const std::string& location) const;

  const std::vector<std::string>& directories() const noexcept { return directories_; }

 private:
  bool contains(const std::string& canonical_path) const;
  std::vector<std::string> directories_;
};

// Whether the shared library at `path` defines `symbol` in its dynamic symbol
// table; std::runtime_error when it is not an ELF shared object.
bool library_exports(const std::string& path, const std::string& symbol);

}  // namespace mwccm::deployment
