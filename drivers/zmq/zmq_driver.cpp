// mwbench-driver-zmq: REQ/REP over ZeroMQ (libzmq through cppzmq), remote
// over tcp and uds (ipc://), collocated over inproc (REQ and REP in one process and
// one context, the REP side on a thread of its own).
//
// With --threads N each client thread has a REQ socket of its own, connected
// to a REP socket of its own on the server (zmq_replier.*): N pairs, nothing
// shared but the context. The messages and the wait (wait=block|spin) are in
// zmq_messages.hpp. There are no servants: max_servants is 1.
//
// An open-loop --load sends from a DEALER to the same REP sockets, the call
// number in the request's envelope (zmq_open_loop.*).
//
// The operation fanout (docs/driver-contract-fanout.md) is PUB/SUB for the
// events and PUSH/PULL for the replies: zmq_publisher.* in the client (or the
// collocated process), zmq_subscribers.* in each subscriber process (or
// beside the publisher, over inproc).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "mwbench/driver.hpp"
#include "zmq_messages.hpp"
#include "zmq_open_loop.hpp"
#include "zmq_publisher.hpp"
#include "zmq_replier.hpp"
#include "zmq_subscribers.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace zmq_driver;

std::string libzmq_version() {
  const auto [major, minor, patch] = zmq::version();
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// The sockets of a cell: the server's REP answers the closed loop's REQ and
// the open loop's DEALER alike.
const char* zmq_pattern(const DriverOptions& o) {
  if (o.operation == mwbench::kFanoutOperation) return "PUB/SUB, replies PUSH/PULL";
  if (o.role == Role::server || !o.load.open()) return "REQ/REP";
  return "DEALER/REP, the call number in the envelope; the DEALER on a reader thread, fed by "
         "the sending thread over an inproc PAIR";
}

nlohmann::json zmq_config(const DriverOptions& o, const std::vector<std::string>& endpoints) {
  return {{"pattern", zmq_pattern(o)},
          {"api", "cppzmq " + std::to_string(CPPZMQ_VERSION_MAJOR) + "." +
                      std::to_string(CPPZMQ_VERSION_MINOR) + "." +
                      std::to_string(CPPZMQ_VERSION_PATCH)},
          {"wait", to_string(wait_option(o))},
          {"io_threads", ZMQ_IO_THREADS_DFLT},
          {"linger_ms", 0},
          {"endpoints", endpoints}};
}

// A fan-out has one publishing thread, and with wait=spin every subscriber
// and the publisher spin: more of them than CPUs would measure the
// scheduler's time slices, not ZeroMQ.
void check_fanout(const DriverOptions& o, Wait wait) {
  if (o.threads != 1) {
    throw mwbench::UsageError("--threads " + std::to_string(o.threads) +
                              ": fanout has one publishing thread; use --subscribers");
  }
  const unsigned cpus = std::thread::hardware_concurrency();
  if (wait == Wait::spin && cpus != 0 && static_cast<unsigned>(o.subscribers) + 1 > cpus) {
    throw mwbench::UsageError(
        "--option wait=spin: fanout with --subscribers " + std::to_string(o.subscribers) +
        " keeps " + std::to_string(o.subscribers + 1) + " threads busy (the subscribers and " +
        "the publisher), more than the " + std::to_string(cpus) +
        " CPUs of this machine; use wait=block");
  }
}

// The endpoints of every subscriber, from every subscriber process's line.
std::vector<std::string> subscriber_endpoints(const std::vector<std::string>& lines) {
  std::vector<std::string> endpoints;
  for (const auto& line : lines) {
    for (auto& endpoint : split_endpoints(line)) endpoints.push_back(std::move(endpoint));
  }
  return endpoints;
}

// A subscriber process: serves until SIGTERM shuts the context down, then
// reports what each subscriber received.
void serve_fanout(const DriverOptions& o, mwbench::ServerContext& context) {
  check_fanout(o, wait_option(o));
  std::optional<PrivateDir> dir;  // destroyed after the context: libzmq unlinks first
  if (o.transport == "uds") dir.emplace();
  zmq::context_t zmq_context;
  Subscribers subscribers(zmq_context, o, o.subscribers, o.first_subscriber, dir ? &*dir : nullptr,
                          [&context](const std::string&) { context.request_stop(); });
  const mwbench::ScopedStopCallback stop(context, [&zmq_context] { zmq_context.shutdown(); });
  context.record_middleware_config(zmq_config(o, subscribers.endpoints()));
  subscribers.start();
  context.publish_endpoint(join_endpoints(subscribers.endpoints()));
  context.record_events_received(subscribers.join());
}

// The publisher; collocated, its subscribers too, in one context over inproc.
void measure_fanout(const DriverOptions& o, mwbench::Measurement& m) {
  const Wait wait = wait_option(o);
  check_fanout(o, wait);
  o.option_flag("verify", false);  // checked by the subscribers; refused here if malformed
  zmq::context_t zmq_context;
  std::optional<Subscribers> local;
  std::vector<std::string> endpoints;
  if (o.role == Role::collocated) {
    local.emplace(zmq_context, o, o.subscribers, 0, nullptr,
                  [&m](const std::string& message) { m.fail(message); });
    local->start();
    endpoints = local->endpoints();
  } else {
    endpoints = subscriber_endpoints(m.read_endpoints());
  }
  m.record_middleware_config(zmq_config(o, endpoints));
  {
    Publisher publisher(zmq_context, o, endpoints, wait);
    m.run([&] { publisher.publish(m); });
    m.record_events_published(publisher.published());
  }
  if (local) {  // every reply is in: stop the subscribers, collect their counts
    zmq_context.shutdown();
    m.record_events_received(local->join());
  }
}

// The REQ/REP loop: each thread's REQ socket, opened by that thread before
// anything is timed, calls the REP socket of its own.
void measure_closed_loop(zmq::context_t& zmq_context, const DriverOptions& o,
                         const std::vector<std::string>& endpoints, Wait wait,
                         mwbench::Measurement& m) {
  auto connect = [&](int thread) {
    zmq::socket_t socket(zmq_context, zmq::socket_type::req);
    socket.set(zmq::sockopt::linger, 0);
    socket.connect(endpoints[static_cast<std::size_t>(thread)]);
    return socket;
  };

  if (o.operation == "roundtrip") {
    m.run_threads([&](int thread) {
      return [&m, wait, socket = connect(thread)]() mutable {
        const std::uint64_t sent = mwbench::now_ns();
        socket.send(zmq::buffer(&sent, sizeof sent), zmq::send_flags::none);
        std::uint64_t echo = 0;
        const std::size_t n = receive(socket, zmq::buffer(&echo, sizeof echo), wait);
        if (n != sizeof echo || echo != sent)
          m.fail("roundtrip: the echo differs from the timestamp sent");
      };
    });
  } else if (o.operation == "ping") {
    m.run_threads([&](int thread) {
      return [&m, wait, socket = connect(thread)]() mutable {
        const std::uint8_t sent = kPingByte;
        socket.send(zmq::buffer(&sent, 1), zmq::send_flags::none);
        std::uint8_t echo = 0;
        const std::size_t n = receive(socket, zmq::buffer(&echo, 1), wait);
        if (n != 1 || echo != sent) m.fail("ping: the echo differs from the byte sent");
      };
    });
  } else {  // octets
    m.run_threads([&](int thread) {
      return [&m, wait, socket = connect(thread),
              request = octets_request(o.payload_bytes)]() mutable {
        socket.send(zmq::buffer(request.data(), request.size()), zmq::send_flags::none);
        std::uint8_t status = kStatusMismatch;
        const std::size_t n = receive(socket, zmq::buffer(&status, 1), wait);
        if (n != 1 || status != kStatusOk) {
          m.fail("octets: the REP side found a payload mismatch (verify=1)");
        }
      };
    });
  }
}

class ZmqDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("zmq", "ZeroMQ", libzmq_version());
    d.operations = {
        {"roundtrip", false}, {"ping", false}, {"octets", true}, {mwbench::kFanoutOperation, true}};
    d.modes = {{"remote", {"tcp", "uds"}}, {"collocated", {"inproc"}}};
    d.host_local = {"uds"};
    d.options = {
        {"wait",
         "how a receive waits: block (default, a blocking zmq_recv) or spin (zmq_recv with "
         "ZMQ_DONTWAIT in a busy loop)"},
        {"verify",
         "check every payload byte on the REP side (fanout: every subscriber) and fail on a "
         "mismatch: 0 (default) or 1"},
    };
    d.max_servants = 1;
    d.open_loop = {"roundtrip", "ping", "octets"};
    // Two sockets and a thread per subscriber: 64 keeps a collocated
    // fan-out at 130 sockets, well within a context's 1023, and covers a
    // sweep (1, 4, 16, 64); no limit of libzmq's below that.
    d.max_subscribers = 64;
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    if (o.operation == mwbench::kFanoutOperation) return serve_fanout(o, context);
    std::optional<PrivateDir> dir;  // destroyed after the context: libzmq unlinks first
    if (o.transport == "uds") dir.emplace();
    zmq::context_t zmq_context;
    Repliers repliers(zmq_context, o, o.threads, dir ? &*dir : nullptr,
                      [&context](const std::string&) { context.request_stop(); });
    // Shutting the context down wakes every blocked (or spinning) receive
    // with ETERM.
    const mwbench::ScopedStopCallback stop(context, [&zmq_context] { zmq_context.shutdown(); });
    context.record_middleware_config(zmq_config(o, repliers.endpoints()));
    repliers.start();
    context.publish_endpoint(join_endpoints(repliers.endpoints()));
    repliers.join();
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    if (o.operation == mwbench::kFanoutOperation) return measure_fanout(o, m);
    const Wait wait = wait_option(o);
    o.option_flag("verify", false);  // checked on the REP side; refused here if malformed
    zmq::context_t zmq_context;
    std::optional<Repliers> local;  // collocated: the REP side, in this context
    std::vector<std::string> endpoints;
    if (o.role == Role::collocated) {
      local.emplace(zmq_context, o, o.threads, nullptr,
                    [&m](const std::string& message) { m.fail(message); });
      local->start();
      endpoints = local->endpoints();
    } else {
      endpoints = split_endpoints(m.read_endpoint());
    }
    if (endpoints.size() < static_cast<std::size_t>(o.threads)) {
      throw std::runtime_error("the server has " + std::to_string(endpoints.size()) +
                               " REP socket(s), --threads " + std::to_string(o.threads) +
                               " needs one each: give the server the same --threads");
    }
    m.record_middleware_config(zmq_config(o, endpoints));
    if (o.load.open()) {
      measure_open_loop(zmq_context, o, endpoints.front(), wait, m);
    } else {
      measure_closed_loop(zmq_context, o, endpoints, wait, m);
    }
    if (local) {  // the REQ sockets are closed: stop the REP side, rethrow its failure
      zmq_context.shutdown();
      local->join();
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  ZmqDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
