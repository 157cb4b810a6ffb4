// Artifacts on a node: trusted directories and ELF entry points.
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <mwccm/deployment/artifacts.hpp>
#include <mwccm/user_input.hpp>
#include <stdexcept>

namespace mwccm::deployment {
namespace fs = std::filesystem;

TrustedDirectories::TrustedDirectories(const std::vector<std::string>& directories) {
  for (const auto& directory : directories) {
    std::error_code error;
    fs::path canonical = fs::canonical(directory, error);
    if (error || !fs::is_directory(canonical)) {
      throw std::runtime_error("artifact directory '" + directory + "' does not exist");
    }
    directories_.push_back(canonical.string());
  }
}

bool TrustedDirectories::contains(const std::string& canonical_path) const {
  for (const auto& directory : directories_) {
    if (canonical_path.size() > directory.size() &&
        canonical_path.compare(0, directory.size(), directory) == 0 &&
        (directory.back() == '/' || canonical_path[directory.size()] == '/')) {
      return true;
    }
  }
  return false;
}

std::string TrustedDirectories::resolve(const std::string& location) const {
  if (directories_.empty()) {
    throw std::runtime_error("artifact " + quote(location) +
                             ": the node trusts no artifact directory");
  }
  std::vector<fs::path> candidates;
  if (fs::path(location).is_absolute()) {
    candidates.emplace_back(location);
  } else {
    for (const auto& directory : directories_) candidates.push_back(fs::path(directory) / location);
  }
  std::string looked;
  for (const auto& candidate : candidates) {
    std::error_code error;
    fs::path canonical = fs::canonical(candidate, error);
    looked += (looked.empty() ? "" : ", ") + shortened(candidate.string());
    if (error) continue;
    if (!contains(canonical.string())) {
      std::string trusted;
      for (const auto& d : directories_) trusted += (trusted.empty() ? "" : ", ") + d;
      throw std::runtime_error("artifact " + quote(location) + " is " + canonical.string() +
                               ", outside the trusted artifact directories (" + trusted + ")");
    }
    if (!fs::is_regular_file(canonical)) {
      throw std::runtime_error("artifact " + quote(location) + " is not a file");
    }
    return canonical.string();
  }
  throw std::runtime_error("artifact " + quote(location) + " not found (looked for " + looked +
                           ")");
}

bool library_exports(const std::string& path, const std::string& symbol) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw std::runtime_error("libelf is not usable");
  struct File {
    int fd;
    ~File() {
      if (fd >= 0) close(fd);
    }
  } file{open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};  // never waits on a FIFO
  if (file.fd < 0) throw std::runtime_error("cannot open '" + path + "'");
  std::unique_ptr<Elf, int (*)(Elf*)> elf(elf_begin(file.fd, ELF_C_READ, nullptr), elf_end);
  GElf_Ehdr header;
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF || gelf_getehdr(elf.get(), &header) == nullptr ||
      header.e_type != ET_DYN) {
    throw std::runtime_error("'" + path + "' is not an ELF shared library");
  }
  for (Elf_Scn* section = elf_nextscn(elf.get(), nullptr); section != nullptr;
       section = elf_nextscn(elf.get(), section)) {
    GElf_Shdr section_header;
    if (gelf_getshdr(section, &section_header) == nullptr || section_header.sh_type != SHT_DYNSYM ||
        section_header.sh_entsize == 0) {
      continue;
    }
    Elf_Data* data = elf_getdata(section, nullptr);
    const std::size_t count = section_header.sh_size / section_header.sh_entsize;
    for (std::size_t i = 0; data != nullptr && i < count; ++i) {
      GElf_Sym entry;
      if (gelf_getsym(data, static_cast<int>(i), &entry) == nullptr) continue;
      if (entry.st_shndx == SHN_UNDEF || GELF_ST_TYPE(entry.st_info) != STT_FUNC) continue;
      const char* name = elf_strptr(elf.get(), section_header.sh_link, entry.st_name);
      if (name != nullptr && symbol == name) return true;
    }
  }
  return false;
}

}  // namespace mwccm::deployment
