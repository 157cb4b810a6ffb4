// Blocking stream sockets for the rawtcp driver: TCP on the address of
// --bind and Unix domain sockets, behind one file descriptor type.
//
// send_all()/recv_all() are inline because they are the measured call: the
// client's lambda inlines them into the harness loop. They loop over partial
// transfers and EINTR; an error or a peer that closes mid-message throws
// (a broken connection ends the measurement; the happy path pays nothing).
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace rawtcp {

// Owns one file descriptor; closes it on destruction.
class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  Socket(Socket&& other) noexcept : fd_(other.release()) {}
  Socket& operator=(Socket&& other) noexcept;
  ~Socket();
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  int fd() const noexcept { return fd_; }
  int release() noexcept;

 private:
  int fd_ = -1;
};

[[noreturn]] void throw_errno(const std::string& what);

// Sends all `n` bytes. MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE.
inline void send_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t r = ::send(fd, p, n, MSG_NOSIGNAL);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw_errno("send");
    }
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

// Receives exactly `n` bytes. Returns false if the peer closed the connection
// before the first byte (a clean end between messages); throws if it closed in
// the middle of a message or on an error.
inline bool recv_all(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  const std::size_t wanted = n;
  while (n > 0) {
    const ssize_t r = ::recv(fd, p, n, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw_errno("recv");
    }
    if (r == 0) {
      if (n == wanted) return false;
      throw std::runtime_error("peer closed the connection in the middle of a message");
    }
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

// A listening socket, its published endpoint, and the directory to remove
// for a Unix socket (empty for TCP).
struct Listener {
  Socket socket;
  std::string endpoint;  // tcp://ADDRESS:PORT or uds:///dir/socket
  std::string uds_dir;

  Listener() = default;
  // Hand-written so that the moved-from listener forgets the directory.
  Listener(Listener&& other) noexcept
      : socket(std::move(other.socket)),
        endpoint(std::move(other.endpoint)),
        uds_dir(std::exchange(other.uds_dir, {})) {}
  Listener& operator=(Listener&&) = delete;
  ~Listener();  // unlinks the Unix socket and removes its directory
};

// transport "tcp": `ipv4_address` (--bind), port 0 (the kernel picks one).
// transport "uds": a socket in a fresh mkdtemp() directory (the address unused).
Listener listen_on(const std::string& transport, const std::string& ipv4_address);

// Connects to an endpoint that listen_on() produced.
Socket connect_to(const std::string& endpoint);

// TCP_NODELAY on a TCP socket; a no-op for Unix sockets.
void set_nodelay(int fd, bool on);

}  // namespace rawtcp
