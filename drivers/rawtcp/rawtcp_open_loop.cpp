#include "rawtcp_open_loop.hpp"

#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#include "rawtcp_protocol.hpp"

namespace rawtcp {

namespace {

// Reads replies of `reply_bytes` each until `calls` have come or the socket
// is shut down (`closing`: by measure_open(), after the run). A reply
// announces its call as soon as it is read; several that one recv() brings
// were all there by then.
void read_replies(int fd, mwbench::Measurement& m, std::size_t reply_bytes, std::uint64_t calls,
                  const std::atomic<bool>& closing) {
  alignas(8) std::uint8_t buf[4096];  // a whole number of replies of 1 or 8 bytes
  std::size_t have = 0;
  std::uint64_t next = 0;
  while (next < calls) {
    const ssize_t r = ::recv(fd, buf + have, sizeof buf - have, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (!closing.load()) {
        m.fail(r == 0
                   ? "the server closed the connection after " + std::to_string(next) + " replies"
                   : std::string("recv: ") + std::strerror(errno));
      }
      return;
    }
    have += static_cast<std::size_t>(r);
    std::size_t at = 0;
    for (; at + reply_bytes <= have; at += reply_bytes, ++next) {
      if (reply_bytes == sizeof(std::uint64_t)) {
        std::uint64_t echo;
        std::memcpy(&echo, buf + at, sizeof echo);
        if (echo != next) {
          m.fail("roundtrip: reply " + std::to_string(next) + " echoes call " +
                 std::to_string(echo) + " (replies come in order)");
          return;
        }
      } else if (buf[at] != kPingByte) {
        m.fail("ping: server echoed a different byte");
        return;
      }
      m.completed(next);
    }
    std::memmove(buf, buf + at, have - at);
    have -= at;
  }
}

}  // namespace

void measure_open(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket) {
  const int fd = socket.fd();
  const bool roundtrip = o.operation == "roundtrip";
  std::atomic<bool> closing{false};
  std::thread reader([&] {
    read_replies(fd, m, roundtrip ? sizeof(std::uint64_t) : 1, o.warmup + o.samples, closing);
  });
  // However the run ends: the reader is woken (its recv() returns 0) and
  // joined before the socket and the measurement go.
  struct Join {
    std::thread& reader;
    std::atomic<bool>& closing;
    int fd;
    ~Join() {
      closing.store(true);
      ::shutdown(fd, SHUT_RDWR);
      reader.join();
    }
  } join{reader, closing, fd};
  if (roundtrip) {
    m.run_open([fd](std::uint64_t call) { send_all(fd, &call, sizeof call); });
  } else {
    m.run_open([fd](std::uint64_t) {
      const std::uint8_t byte = kPingByte;
      send_all(fd, &byte, 1);
    });
  }
}

}  // namespace rawtcp
