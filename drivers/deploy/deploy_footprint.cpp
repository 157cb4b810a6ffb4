// Reading a process's footprint from /proc and its files' ELF headers
// (deploy_footprint.hpp).
#include "deploy_footprint.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

namespace deploy {
namespace {

namespace fs = std::filesystem;

long peak_rss_kb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// The regular files the process has mapped: its program and its libraries.
std::set<std::string> mapped_files(pid_t pid) {
  std::set<std::string> files;
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  for (std::string line; std::getline(maps, line);) {
    const auto path = line.find(" /");
    if (path == std::string::npos) continue;
    const std::string file = line.substr(path + 1);
    std::error_code error;
    if (fs::is_regular_file(file, error)) files.insert(file);
  }
  return files;
}

std::uintmax_t disk_bytes(const std::string& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  return error ? 0 : size;
}

// text + data + bss as `size` (Berkeley format) counts them: every section
// that is loaded, whether code, read-only data, data or zero-filled. A file
// that is not ELF (a locale archive, say) counts 0.
std::uintmax_t loaded_bytes(const std::string& file) {
  if (elf_version(EV_CURRENT) == EV_NONE) return 0;
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  std::uintmax_t bytes = 0;
  {
    std::unique_ptr<Elf, int (*)(Elf*)> elf(elf_begin(fd, ELF_C_READ, nullptr), elf_end);
    if (elf && elf_kind(elf.get()) == ELF_K_ELF) {
      for (Elf_Scn* section = elf_nextscn(elf.get(), nullptr); section != nullptr;
           section = elf_nextscn(elf.get(), section)) {
        GElf_Shdr header;
        if (gelf_getshdr(section, &header) != nullptr && (header.sh_flags & SHF_ALLOC) != 0)
          bytes += header.sh_size;
      }
    }
  }
  close(fd);
  return bytes;
}

}  // namespace

nlohmann::json process_footprint(const HostProcess& process) {
  const std::set<std::string> files = mapped_files(process.pid);
  std::uintmax_t size = 0, disk = 0;
  for (const auto& file : files) {
    size += loaded_bytes(file);
    disk += disk_bytes(file);
  }
  std::error_code error;
  const auto program = fs::read_symlink("/proc/" + std::to_string(process.pid) + "/exe", error);
  return {{"role", process.role}, {"program", program.filename().string()},
          {"files", files},       {"size_bytes", size},
          {"disk_bytes", disk},   {"peak_rss_kb", peak_rss_kb(process.pid)}};
}

nlohmann::json footprint_of(const std::vector<nlohmann::json>& processes) {
  std::set<std::string> files;
  long rss = 0;
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& process : processes) {
    for (const auto& file : process["files"]) files.insert(file.get<std::string>());
    rss += process["peak_rss_kb"].get<long>();
    nlohmann::json brief = process;
    brief.erase("files");
    listed.push_back(brief);
  }
  std::uintmax_t size = 0, disk = 0;
  for (const auto& file : files) {
    size += loaded_bytes(file);
    disk += disk_bytes(file);
  }
  return {{"processes", listed},
          {"files", files.size()},
          {"size_bytes", size},
          {"disk_bytes", disk},
          {"peak_rss_kb", rss}};
}

std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> children;
  std::error_code error;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    std::ifstream list(task.path() / "children");
    for (pid_t child; list >> child;) children.push_back(child);
  }
  return children;
}

}  // namespace deploy
