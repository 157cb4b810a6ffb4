// Cyclone DDS 0.10 binds its unicast receive sockets to the wildcard address
// whatever interface its configuration names (ddsi_udp.c: a socket for
// DDSI_TRAN_QOS_RECV_UC is bound "to any"; no setting changes that before
// 0.11). With cyclonedds-loopback.xml nothing is sent beyond 127.0.0.1, but the
// ports would still accept datagrams from every interface of the machine, and
// mwbench's drivers listen on loopback only (docs/driver-contract.md).
//
// So this program defines bind() itself: the dynamic linker resolves
// libddsc's calls to it before libc's, and a wildcard address (0.0.0.0 or ::)
// becomes the loopback address (127.0.0.1 or ::1). Every other bind passes
// unchanged. A bind happens when Cyclone creates a participant, never on the
// measured path.
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

namespace {

int system_bind(int fd, const sockaddr* address, socklen_t length) {
  return static_cast<int>(::syscall(SYS_bind, fd, address, length));
}

}  // namespace

extern "C" int bind(int fd, const sockaddr* address, socklen_t length) {
  if (address != nullptr && address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
    sockaddr_in loopback{};
    std::memcpy(&loopback, address, sizeof loopback);
    if (loopback.sin_addr.s_addr == htonl(INADDR_ANY)) {
      loopback.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      return system_bind(fd, reinterpret_cast<const sockaddr*>(&loopback), sizeof loopback);
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
