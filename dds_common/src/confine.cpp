// bind() for a program whose wildcard binds go to one address
// (wildcard_bind.hpp).
#include "mwbench/dds/wildcard_bind.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

namespace {

std::atomic<in_addr_t> wildcard_ipv4{htonl(INADDR_LOOPBACK)};

int system_bind(int fd, const sockaddr* address, socklen_t length) {
  return static_cast<int>(::syscall(SYS_bind, fd, address, length));
}

}  // namespace

namespace mwbench::dds {

void bind_wildcard_to(const std::string& ipv4) {
  in_addr address{};
  if (inet_pton(AF_INET, ipv4.c_str(), &address) != 1)
    throw std::invalid_argument("'" + ipv4 + "' is not an IPv4 address");
  wildcard_ipv4.store(address.s_addr);
}

}  // namespace mwbench::dds

extern "C" int bind(int fd, const sockaddr* address, socklen_t length) {
  if (address != nullptr && address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
    sockaddr_in chosen{};
    std::memcpy(&chosen, address, sizeof chosen);
    if (chosen.sin_addr.s_addr == htonl(INADDR_ANY)) {
      chosen.sin_addr.s_addr = wildcard_ipv4.load();
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
