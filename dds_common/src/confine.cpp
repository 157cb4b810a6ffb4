// bind() and getifaddrs() for a program whose DDS sockets stay on one
// address (confine.hpp).
#include "mwbench/dds/confine.hpp"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

namespace {

std::atomic<in_addr_t> confined_ipv4{htonl(INADDR_LOOPBACK)};

int system_bind(int fd, const sockaddr* address, socklen_t length) {
  return static_cast<int>(::syscall(SYS_bind, fd, address, length));
}

// libc's getifaddrs(), which this program's own hides.
int system_getifaddrs(ifaddrs** list) {
  using Getifaddrs = int (*)(ifaddrs**);
  static const auto real = reinterpret_cast<Getifaddrs>(::dlsym(RTLD_NEXT, "getifaddrs"));
  return real(list);
}

in_addr_t ipv4_of(const ifaddrs& entry) {
  return reinterpret_cast<const sockaddr_in*>(entry.ifa_addr)->sin_addr.s_addr;
}

bool is_ipv4(const ifaddrs& entry) {
  return entry.ifa_addr != nullptr && entry.ifa_addr->sa_family == AF_INET;
}

bool is_loopback(in_addr_t address) { return (ntohl(address) >> 24) == 127; }

}  // namespace

namespace mwbench::dds {

void confine_to(const std::string& ipv4) {
  in_addr address{};
  if (inet_pton(AF_INET, ipv4.c_str(), &address) != 1)
    throw std::invalid_argument("'" + ipv4 + "' is not an IPv4 address");
  confined_ipv4.store(address.s_addr);
}

}  // namespace mwbench::dds

extern "C" int bind(int fd, const sockaddr* address, socklen_t length) {
  if (address != nullptr && address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
    sockaddr_in chosen{};
    std::memcpy(&chosen, address, sizeof chosen);
    if (chosen.sin_addr.s_addr == htonl(INADDR_ANY)) {
      chosen.sin_addr.s_addr = confined_ipv4.load();
      return system_bind(fd, reinterpret_cast<const sockaddr*>(&chosen), sizeof chosen);
    }
  }
  if (address != nullptr && address->sa_family == AF_INET6 && length >= sizeof(sockaddr_in6)) {
    sockaddr_in6 loopback{};
    std::memcpy(&loopback, address, sizeof loopback);
    if (std::memcmp(&loopback.sin6_addr, &in6addr_any, sizeof in6addr_any) == 0) {
      loopback.sin6_addr = in6addr_loopback;
      return system_bind(fd, reinterpret_cast<const sockaddr*>(&loopback), sizeof loopback);
    }
  }
  return system_bind(fd, address, length);
}

// The list is rewritten in place (libc's freeifaddrs() frees it as one
// block): the entry of 127.0.0.1 gets the confined address.
extern "C" int getifaddrs(ifaddrs** list) {
  const int status = system_getifaddrs(list);
  const in_addr_t confined = confined_ipv4.load();
  if (status != 0 || !is_loopback(confined)) return status;
  for (const ifaddrs* entry = *list; entry != nullptr; entry = entry->ifa_next) {
    if (is_ipv4(*entry) && ipv4_of(*entry) == confined) return status;  // listed already
  }
  for (ifaddrs* entry = *list; entry != nullptr; entry = entry->ifa_next) {
    if (is_ipv4(*entry) && ipv4_of(*entry) == htonl(INADDR_LOOPBACK)) {
      reinterpret_cast<sockaddr_in*>(entry->ifa_addr)->sin_addr.s_addr = confined;
    }
  }
  return status;
}
