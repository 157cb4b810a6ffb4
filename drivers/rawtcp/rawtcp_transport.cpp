// Listening, connecting and endpoint strings for the rawtcp driver.
#include "rawtcp_transport.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/un.h>

#include <cstdlib>

namespace rawtcp {

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

int Socket::release() noexcept {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void throw_errno(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

Listener::~Listener() {
  if (uds_dir.empty()) return;
  ::unlink((uds_dir + "/socket").c_str());
  ::rmdir(uds_dir.c_str());
}

namespace {

constexpr const char* kTcpScheme = "tcp://";
constexpr const char* kUdsScheme = "uds://";

sockaddr_un uds_address(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) {
    throw std::runtime_error("Unix socket path too long (" + std::to_string(path.size()) +
                             " bytes, at most " + std::to_string(sizeof addr.sun_path - 1) +
                             "): " + path);
  }
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

Socket new_socket(int family) {
  const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw_errno("socket");
  return Socket(fd);
}

}  // namespace

Listener listen_on(const std::string& transport, const std::string& ipv4_address) {
  Listener l;
  if (transport == "tcp") {
    l.socket = new_socket(AF_INET);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    if (::inet_pton(AF_INET, ipv4_address.c_str(), &addr.sin_addr) != 1) {
      throw std::invalid_argument("not an IPv4 address: " + ipv4_address);
    }
    if (::bind(l.socket.fd(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      throw_errno("bind " + ipv4_address + ":0");
    }
    socklen_t len = sizeof addr;
    if (::getsockname(l.socket.fd(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      throw_errno("getsockname");
    }
    l.endpoint = kTcpScheme + ipv4_address + ":" + std::to_string(ntohs(addr.sin_port));
  } else if (transport == "uds") {
    char dir[] = "/tmp/mwbench-rawtcp-XXXXXX";
    if (::mkdtemp(dir) == nullptr) throw_errno("mkdtemp /tmp/mwbench-rawtcp-XXXXXX");
    l.uds_dir = dir;
    const std::string path = l.uds_dir + "/socket";
    l.socket = new_socket(AF_UNIX);
    const sockaddr_un addr = uds_address(path);
    if (::bind(l.socket.fd(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      throw_errno("bind " + path);
    }
    l.endpoint = kUdsScheme + path;
  } else {
    throw std::logic_error("unknown transport " + transport);
  }
  if (::listen(l.socket.fd(), 8) != 0) throw_errno("listen");
  return l;
}

Socket connect_to(const std::string& endpoint) {
  if (endpoint.rfind(kTcpScheme, 0) == 0) {
    const std::string hostport = endpoint.substr(std::strlen(kTcpScheme));
    const auto colon = hostport.rfind(':');
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    if (colon == std::string::npos ||
        ::inet_pton(AF_INET, hostport.substr(0, colon).c_str(), &addr.sin_addr) != 1) {
      throw std::runtime_error("bad endpoint '" + endpoint + "': expected tcp://IPV4:PORT");
    }
    addr.sin_port = htons(static_cast<std::uint16_t>(std::atoi(hostport.c_str() + colon + 1)));
    Socket s = new_socket(AF_INET);
    if (::connect(s.fd(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      throw_errno("connect " + endpoint);
    }
    return s;
  }
  if (endpoint.rfind(kUdsScheme, 0) == 0) {
    const sockaddr_un addr = uds_address(endpoint.substr(std::strlen(kUdsScheme)));
    Socket s = new_socket(AF_UNIX);
    if (::connect(s.fd(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      throw_errno("connect " + endpoint);
    }
    return s;
  }
  throw std::runtime_error("bad endpoint '" + endpoint + "': expected tcp:// or uds://");
}

void set_nodelay(int fd, bool on) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) throw_errno("getsockname");
  if (addr.ss_family != AF_INET) return;
  const int value = on ? 1 : 0;
  if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, sizeof value) != 0) {
    throw_errno("setsockopt TCP_NODELAY");
  }
}

}  // namespace rawtcp
