// mwbench-driver-rawtcp: blocking ping-pong over plain sockets, the baseline
// every middleware is compared with. It does what a middleware must do at
// least (send a request, wait for the reply) and nothing else.
//
// Wire format, per operation (one request, one reply):
//   roundtrip  8-byte send timestamp; the server echoes the 8 bytes.
//   ping       1 byte; the server echoes it.
//   octets     4-byte length (network order) + payload; the server replies
//              1 status byte (1 ok, 0 payload mismatch when verify=1).
#include <arpa/inet.h>
#include <sys/utsname.h>

#include <cstdint>
#include <iostream>
#include <mutex>
#include <vector>

#include "mwbench/driver.hpp"
#include "rawtcp_transport.hpp"

namespace {

using mwbench::DriverOptions;
using namespace rawtcp;

constexpr std::uint8_t kPingByte = 'p';
constexpr std::uint8_t kStatusOk = 1;
constexpr std::uint8_t kStatusMismatch = 0;
constexpr std::size_t kMaxPayload = std::size_t{1} << 30;  // refuse absurd lengths

// The octets payload: position modulo a prime, so a chunk delivered twice or
// in the wrong place does not still match.
inline std::uint8_t pattern_byte(std::size_t i) { return static_cast<std::uint8_t>(i % 251); }

[[noreturn]] void throw_server_closed() {
  throw std::runtime_error("the server closed the connection");
}

std::string kernel_release() {
  utsname u{};
  return ::uname(&u) == 0 ? u.release : "unknown";
}

// A wrong octets payload with verify=1: fatal, unlike a client going away.
class PayloadMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Serves one connection until the client closes it between two messages.
void serve_connection(int fd, const DriverOptions& o, bool verify, std::vector<std::uint8_t>& buf) {
  if (o.operation == "roundtrip") {
    std::uint64_t stamp;
    while (recv_all(fd, &stamp, sizeof stamp)) send_all(fd, &stamp, sizeof stamp);
  } else if (o.operation == "ping") {
    std::uint8_t byte;
    while (recv_all(fd, &byte, 1)) send_all(fd, &byte, 1);
  } else {  // octets
    std::uint32_t length_be;
    while (recv_all(fd, &length_be, sizeof length_be)) {
      const std::size_t length = ntohl(length_be);
      if (length > kMaxPayload) {
        throw std::runtime_error("octets: client announced " + std::to_string(length) + " bytes");
      }
      if (length > buf.size()) buf.resize(length);  // only if the client sends more than expected
      if (length > 0 && !recv_all(fd, buf.data(), length)) {
        throw std::runtime_error("peer closed the connection in the middle of a message");
      }
      std::size_t bad = length;
      if (verify) {
        for (bad = 0; bad < length && buf[bad] == pattern_byte(bad);) ++bad;
      }
      const std::uint8_t status = bad == length ? kStatusOk : kStatusMismatch;
      send_all(fd, &status, 1);
      if (status != kStatusOk) {
        throw PayloadMismatch("octets: payload mismatch at byte " + std::to_string(bad) +
                                 " of " + std::to_string(length) + " (verify=1): expected " +
                                 std::to_string(pattern_byte(bad)) + ", got " +
                                 std::to_string(buf[bad]));
      }
    }
  }
}

// Shows the open connection to the stop callback while it lives, so that
// the callback never shuts down a descriptor that was closed (and reused).
class ActiveConnection {
 public:
  ActiveConnection(std::mutex& mutex, int& slot, int fd) : mutex_(mutex), slot_(slot) {
    std::lock_guard lock(mutex_);
    slot_ = fd;
  }
  ~ActiveConnection() {
    std::lock_guard lock(mutex_);
    slot_ = -1;
  }
  ActiveConnection(const ActiveConnection&) = delete;
  ActiveConnection& operator=(const ActiveConnection&) = delete;

 private:
  std::mutex& mutex_;
  int& slot_;
};

class RawTcpDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d;
    d.driver = "rawtcp";
    d.middleware = "Linux sockets";
    d.middleware_version = kernel_release();
    d.operations = {{"roundtrip", false}, {"ping", false}, {"octets", true}};
    d.modes = {{"remote", {"tcp", "uds"}}};
    d.options = {
        {"nodelay", "TCP_NODELAY on this end: 1 (default) or 0 to let Nagle batch; tcp only"},
        {"verify", "server checks each octets payload byte, fails on mismatch: 0 (default) or 1"},
    };
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const bool nodelay = o.option_flag("nodelay", true);
    const bool verify = o.option_flag("verify", false);
    Listener listener = listen_on(o.transport);
    std::vector<std::uint8_t> buf(o.payload_bytes);

    // The stop callback shuts the sockets down, which wakes a blocked accept()
    // or recv(); the mutex keeps it from touching a descriptor being closed.
    std::mutex mutex;
    int connection = -1;
    const mwbench::ScopedStopCallback stop(context, [&] {
      std::lock_guard lock(mutex);
      ::shutdown(listener.socket.fd(), SHUT_RDWR);
      if (connection >= 0) ::shutdown(connection, SHUT_RDWR);
    });
    context.publish_endpoint(listener.endpoint);

    while (!context.stop_requested()) {
      const int fd = ::accept4(listener.socket.fd(), nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (context.stop_requested()) break;
        if (errno == EINTR || errno == ECONNABORTED) continue;
        throw_errno("accept");
      }
      const Socket conn(fd);
      const ActiveConnection active(mutex, connection, fd);  // cleared before conn closes
      if (context.stop_requested()) break;  // the callback may have missed this socket
      set_nodelay(fd, nodelay);
      try {
        serve_connection(fd, o, verify, buf);
      } catch (const PayloadMismatch&) {
        throw;  // verify=1 asked for a loud failure
      } catch (const std::exception& e) {
        // A client that dies mid-call must not take the server down.
        if (context.stop_requested()) break;
        std::cerr << "mwbench-driver-rawtcp: warning: connection ended: " << e.what() << '\n';
      }
    }
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const bool nodelay = o.option_flag("nodelay", true);
    (void)o.option_flag("verify", false);  // a server setting; checked here for its value only
    Socket sock = connect_to(m.read_endpoint());
    set_nodelay(sock.fd(), nodelay);
    const int fd = sock.fd();

    if (o.operation == "roundtrip") {
      m.run([&] {
        const std::uint64_t sent = mwbench::now_ns();
        send_all(fd, &sent, sizeof sent);
        std::uint64_t echo;
        if (!recv_all(fd, &echo, sizeof echo)) throw_server_closed();
        if (echo != sent) m.fail("roundtrip: server echoed a different timestamp");
      });
    } else if (o.operation == "ping") {
      m.run([&] {
        const std::uint8_t sent = kPingByte;
        send_all(fd, &sent, 1);
        std::uint8_t echo;
        if (!recv_all(fd, &echo, 1)) throw_server_closed();
        if (echo != sent) m.fail("ping: server echoed a different byte");
      });
    } else {  // octets
      // Length and payload in one buffer, built once: one send() per call,
      // as a middleware would marshal into one message.
      std::vector<std::uint8_t> message(sizeof(std::uint32_t) + o.payload_bytes);
      const std::uint32_t length_be = htonl(static_cast<std::uint32_t>(o.payload_bytes));
      std::memcpy(message.data(), &length_be, sizeof length_be);
      for (std::size_t i = 0; i < o.payload_bytes; ++i) {
        message[sizeof length_be + i] = pattern_byte(i);
      }

      m.run([&] {
        send_all(fd, message.data(), message.size());
        std::uint8_t status;
        if (!recv_all(fd, &status, 1)) throw_server_closed();
        if (status != kStatusOk) m.fail("octets: the server found a payload mismatch (verify=1)");
      });
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  RawTcpDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
