// mwbench-driver-rawtcp: blocking ping-pong over plain sockets, the baseline
// every middleware is compared with. It does what a middleware must do at
// least (send a request, wait for the reply) and nothing else. The wire
// format is in rawtcp_protocol.hpp, the serving side in rawtcp_server.*.
//
// With --threads N each client thread has a connection of its own, served by
// a server thread of its own. There are no servants: max_servants is 1.
//
// The operation fanout (docs/driver-contract-fanout.md) is the baseline
// "publisher writes N copies": rawtcp_publisher.* on the client,
// rawtcp_subscribers.* in each subscriber process.
#include <sys/utsname.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "mwbench/driver.hpp"
#include "rawtcp_open_loop.hpp"
#include "rawtcp_protocol.hpp"
#include "rawtcp_publisher.hpp"
#include "rawtcp_server.hpp"
#include "rawtcp_stall.hpp"
#include "rawtcp_subscribers.hpp"
#include "rawtcp_transport.hpp"

namespace {

using mwbench::DriverOptions;
using namespace rawtcp;

[[noreturn]] void throw_server_closed() {
  throw std::runtime_error("the server closed the connection");
}

std::string kernel_release() {
  utsname u{};
  return ::uname(&u) == 0 ? u.release : "unknown";
}

// A fan-out has one publisher: its thread is the one measured.
void check_fanout_threads(const DriverOptions& o) {
  if (o.threads != 1) {
    throw mwbench::UsageError("--threads " + std::to_string(o.threads) +
                              ": fanout has one publishing thread; use --subscribers");
  }
}

// A subscriber process: its subscribers serve until SIGTERM (or a wrong
// event, which stops it as SIGTERM would), then report what each received.
void serve_fanout(const DriverOptions& o, mwbench::ServerContext& context, bool nodelay,
                  bool verify) {
  check_fanout_threads(o);
  Subscribers subscribers(o, nodelay, verify, [&context] { context.request_stop(); });
  std::atomic<bool> stopping{false};
  const mwbench::ScopedStopCallback stop(context, [&] {
    subscribers.shut_down();
    stopping.store(true);
    stopping.notify_all();
  });
  subscribers.start();
  context.publish_endpoint(subscribers.endpoint());
  stopping.wait(false);
  context.record_events_received(subscribers.join());
}

void measure_fanout(const DriverOptions& o, mwbench::Measurement& m, bool nodelay) {
  check_fanout_threads(o);
  Publisher publisher(o, m.read_endpoints(), nodelay);
  m.run([&] { publisher.publish(m); });
  m.record_events_published(publisher.published());
}

// octets_out and octets_inout, on the client: the reply (its length, then its
// bytes) from `replies`. A length other than the one asked for breaks the
// protocol (the next reply would not line up), so it ends the measurement.
void recv_reply(int fd, MessageReader& replies, std::size_t expected) {
  std::size_t length = 0;
  if (!replies.next(fd, length)) throw_server_closed();
  if (length != expected) {
    throw std::runtime_error("reply of " + std::to_string(length) + " bytes, expected " +
                             std::to_string(expected));
  }
}

class RawTcpDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("rawtcp", "Linux sockets", kernel_release());
    d.operations = {{"roundtrip", false},   {"ping", false},
                    {"octets", true},       {"octets_out", true},
                    {"octets_inout", true}, {mwbench::kFanoutOperation, true}};
    d.modes = {{"remote", {"tcp", "uds"}}};
    d.host_local = {"uds"};
    d.options = {
        {"nodelay", "TCP_NODELAY on this end: 1 (default) or 0 to let Nagle batch; tcp only"},
        {"verify",
         "check every payload byte on both ends and fail on a mismatch: 0 (default) or 1"},
        {"stall_ms",
         "server: stop answering for this many ms once every stall_every_ms (the "
         "coordinated-omission demonstration); 0 (default): never"},
        {"stall_every_ms", "server: the period of stall_ms, in ms (default 1000)"},
        {kReceiveOption,
         "open loop: what reads the replies: reader (default), a thread of their own; sender, "
         "the sending thread between its sends"},
    };
    d.option_values[kReceiveOption].assign(std::begin(kReceiveValues), std::end(kReceiveValues));
    d.open_loop.assign(std::begin(kOpenLoopOperations), std::end(kOpenLoopOperations));
    d.max_servants = 1;
    // One thread, one listener and one connection per subscriber: 64 keeps a
    // subscriber process within 130 descriptors and the publisher's copies
    // within what a sweep (1, 4, 16, 64) asks; no limit of the kernel's.
    d.max_subscribers = 64;
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const bool nodelay = o.option_flag("nodelay", true);
    const bool verify = o.option_flag("verify", false);
    StallPlan stalls(o);
    if (o.operation == mwbench::kFanoutOperation) return serve_fanout(o, context, nodelay, verify);
    Listener listener = listen_on(o.transport, o.bind_address);
    // A wrong payload (verify=1) stops the server as SIGTERM would.
    ConnectionSet connections([&context] { context.request_stop(); });

    // The stop callback shuts the sockets down, which wakes a blocked
    // accept() and every recv().
    const mwbench::ScopedStopCallback stop(context, [&] {
      ::shutdown(listener.socket.fd(), SHUT_RDWR);
      connections.shut_down();
    });
    context.publish_endpoint(listener.endpoint);

    while (!context.stop_requested()) {
      const int fd = ::accept4(listener.socket.fd(), nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (context.stop_requested()) break;
        if (errno == EINTR || errno == ECONNABORTED) continue;
        throw_errno("accept");
      }
      Socket conn(fd);
      set_nodelay(fd, nodelay);
      connections.serve(std::move(conn),
                        [&o, verify, &stalls](int c) { serve_connection(c, o, verify, stalls); });
    }
    connections.join();
    if (stalls.stall_ms != 0) context.record_middleware_config(stalls.config());
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const bool nodelay = o.option_flag("nodelay", true);
    const bool verify = o.option_flag("verify", false);
    if (o.operation == mwbench::kFanoutOperation) return measure_fanout(o, m, nodelay);
    const std::string endpoint = m.read_endpoint();
    // Each thread's connection, opened by that thread before the barrier.
    auto connect = [&] {
      Socket sock = connect_to(endpoint);
      set_nodelay(sock.fd(), nodelay);
      return sock;
    };

    if (m.open_loop()) {
      measure_open(o, m, connect(), verify);
    } else if (o.operation == "roundtrip") {
      m.run_threads([&](int) {
        return [&m, sock = connect()] {
          const int fd = sock.fd();
          const std::uint64_t sent = mwbench::now_ns();
          send_all(fd, &sent, sizeof sent);
          std::uint64_t echo;
          if (!recv_all(fd, &echo, sizeof echo)) throw_server_closed();
          if (echo != sent) m.fail("roundtrip: server echoed a different timestamp");
        };
      });
    } else if (o.operation == "ping") {
      m.run_threads([&](int) {
        return [&m, sock = connect()] {
          const int fd = sock.fd();
          const std::uint8_t sent = kPingByte;
          send_all(fd, &sent, 1);
          std::uint8_t echo;
          if (!recv_all(fd, &echo, 1)) throw_server_closed();
          if (echo != sent) m.fail("ping: server echoed a different byte");
        };
      });
    } else if (o.operation == "octets") {
      m.run_threads([&](int) {
        return [&m, sock = connect(), message = octets_request(o.operation, o.payload_bytes)] {
          send_all(sock.fd(), message.data(), message.size());
          std::uint8_t status;
          if (!recv_all(sock.fd(), &status, 1)) throw_server_closed();
          if (status != kStatusOk) m.fail("octets: the server found a payload mismatch (verify=1)");
        };
      });
    } else {  // octets_out, octets_inout
      const std::size_t size = o.payload_bytes;
      m.run_threads([&](int) {
        return [&m, &o, verify, size, sock = connect(), request = octets_request(o.operation, size),
                replies = MessageReader()]() mutable {
          send_all(sock.fd(), request.data(), request.size());
          recv_reply(sock.fd(), replies, size);
          if (!verify) return;
          if (auto wrong = reply_mismatch(o.operation, replies.payload(), size); !wrong.empty()) {
            m.fail(wrong);
          }
        };
      });
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  RawTcpDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
