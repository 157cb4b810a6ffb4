// mwbench-driver-iceoryx: ping and pong services, and a fan-out of events to
// N subscribers, through Eclipse iceoryx's shared memory, remote (processes
// under one RouDi) and collocated (one process, one runtime). Every message
// is written into a chunk loaned from RouDi's pools and read where it lies:
// zero-copy.
//
// This file maps the contract onto iceoryx: options to the wait strategy,
// roles to what runs where, and the RouDi daemon the orchestrator must run.
// RouDi, the runtime and the endpoint are in iceoryx_session.*, the client
// end in iceoryx_client.*, the serving end in iceoryx_echo.*; the fan-out's
// services in iceoryx_fanout.*, its publisher in iceoryx_publisher.*, its
// subscribers in iceoryx_subscribers.*.
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "common/echo_thread.hpp"
#include "common/open_loop_pings.hpp"
#include "iceoryx_client.hpp"
#include "iceoryx_echo.hpp"
#include "iceoryx_fanout.hpp"
#include "iceoryx_publisher.hpp"
#include "iceoryx_session.hpp"
#include "iceoryx_subscribers.hpp"
#include "iceoryx_versions.hpp"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace iceoryx;
namespace roles = mwbench::common;

struct Settings {
  Wait wait = Wait::waitset;
  bool verify = false;
  std::size_t payload_bytes = 0;
};

Settings settings(const DriverOptions& o) {
  Settings s;
  s.wait = parse_wait(o.option("wait", "waitset"));
  s.verify = o.option_flag("verify", false);
  if (o.payload_bytes > kMaxPayloadBytes) {
    throw mwbench::UsageError("--payload-bytes " + std::to_string(o.payload_bytes) + ": at most " +
                              std::to_string(kMaxPayloadBytes) +
                              " (the largest chunk of roudi_config.toml, 16 MiB, less headers)");
  }
  s.payload_bytes = o.payload_bytes;
  if (o.operation == mwbench::kFanoutOperation && s.wait == Wait::spin) {
    // Every subscriber of this process spins on a thread of its own, and so
    // does the publisher: more spinners than CPUs wait for preemptions.
    const unsigned cpus = std::thread::hardware_concurrency();
    const int spinners = o.subscribers + 1;
    if (cpus != 0 && static_cast<unsigned>(spinners) > cpus) {
      throw mwbench::UsageError("--option wait=spin with --subscribers " +
                                std::to_string(o.subscribers) + ": " + std::to_string(spinners) +
                                " threads would spin (each subscriber and the publisher) " + "on " +
                                std::to_string(cpus) + " CPUs; use wait=waitset, or at most " +
                                std::to_string(cpus - 1) + " subscribers per process");
    }
  }
  return s;
}

class IceoryxDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("iceoryx", "Eclipse iceoryx", ICEORYX_LATEST_RELEASE_VERSION);
    d.operations = {{"roundtrip", false}, {"octets", true}, {mwbench::kFanoutOperation, true}};
    // A fan-out's event waits for every subscriber's reply: closed loop only.
    d.open_loop = {"roundtrip", "octets"};
    d.modes = {{"remote", {"shm"}}, {"collocated", {"inproc"}}};
    // Shared memory through the machine's RouDi: no socket, so --bind
    // (accepted by the harness) has nothing to bind, and no other host
    // reaches it.
    d.host_local = {"shm"};
    d.options = {
        {"wait",
         "how a subscriber waits for its chunk: waitset (default; a WaitSet on the "
         "subscriber's has-data state) or spin (busy take() loop)"},
        {"verify",
         "the server (fanout: every subscriber) checks every payload byte and its answer "
         "says whether it was intact: 0 (default) or 1"},
    };
    d.max_threads = 1;
    d.max_servants = 1;
    d.max_subscribers = kMaxSubscribers;  // iceoryx's compile-time limits (iceoryx_fanout.hpp)
    d.daemon = roudi_daemon();
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const Settings s = settings(o);
    init_runtime("server");
    if (o.operation == mwbench::kFanoutOperation) return serve_fanout(o, s, context);
    const Endpoint endpoint = Endpoint::for_process();
    const auto queue = static_cast<std::uint64_t>(roles::ping_queue_depth(o));
    Echo echo(endpoint, s.wait, s.payload_bytes, s.verify, queue);
    context.record_middleware_config(middleware_config(endpoint, s.wait, queue));
    const mwbench::ScopedStopCallback stop(context, [&echo] { echo.stop(); });
    context.publish_endpoint(endpoint.to_string());
    echo.serve();
    if (const std::string failure = echo.failure(); !failure.empty()) {
      throw std::runtime_error(failure);
    }
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const Settings s = settings(o);
    if (o.operation == mwbench::kFanoutOperation) return measure_fanout(o, s, m);
    if (o.role == Role::collocated) {
      init_runtime("collocated");
      const Endpoint endpoint = Endpoint::for_process();
      Echo echo(endpoint, s.wait, s.payload_bytes, s.verify,
                static_cast<std::uint64_t>(roles::ping_queue_depth(o)));
      mwbench::common::EchoThread serving(echo);
      run(o, s, endpoint, m);
      serving.join();
    } else {
      const Endpoint endpoint = Endpoint::parse(m.read_endpoint());
      init_runtime("client");
      run(o, s, endpoint, m);
    }
  }

 private:
  // A subscriber process: its subscribers serve on threads of their own
  // until SIGTERM; the endpoint is published once RouDi has every
  // subscription.
  static void serve_fanout(const DriverOptions& o, const Settings& s,
                           mwbench::ServerContext& context) {
    FanoutEndpoint endpoint;
    endpoint.first = o.first_subscriber;
    endpoint.count = o.subscribers;
    Subscribers subscribers(endpoint, s.wait, s.payload_bytes, s.verify);
    context.record_middleware_config(fanout_config(endpoint, s.wait));
    const mwbench::ScopedStopCallback stop(context, [&subscribers] { subscribers.stop(); });
    subscribers.await_subscribed(o.timeout_s);
    subscribers.start();
    context.publish_endpoint(endpoint.to_string());
    context.record_events_received(subscribers.join());
  }

  static void measure_fanout(const DriverOptions& o, const Settings& s, mwbench::Measurement& m) {
    if (o.role == Role::client) {
      const FanoutEndpoint endpoint = merge_endpoints(m.read_endpoints(), o.subscribers);
      init_runtime("client");
      run_fanout(o, s, endpoint, m);
      return;
    }
    // Collocated: services of this process alone (no endpoint to agree on).
    init_runtime("collocated");
    FanoutEndpoint endpoint;
    endpoint.instance = "fanout-" + std::to_string(::getpid());
    endpoint.count = o.subscribers;
    Subscribers subscribers(endpoint, s.wait, s.payload_bytes, s.verify);
    subscribers.start();
    try {
      run_fanout(o, s, endpoint, m);
    } catch (...) {
      // A subscriber's own failure says more than the replies it left missing.
      subscribers.stop();
      if (const std::string failure = subscribers.failure(); !failure.empty()) {
        throw std::runtime_error("collocated " + failure);
      }
      throw;
    }
    subscribers.stop();
    m.record_events_received(subscribers.join());
  }

  static void run_fanout(const DriverOptions& o, const Settings& s, const FanoutEndpoint& endpoint,
                         mwbench::Measurement& m) {
    Publisher publisher(endpoint, s.wait, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(fanout_config(endpoint, s.wait));
    publisher.connect();
    m.run([&publisher] { publisher.call(); });
    m.record_events_published(publisher.published());
  }

  // The client's measured loop: records the configuration, connects, then
  // one call per sample, or under an open --load the pings on the harness's
  // schedule.
  static void run(const DriverOptions& o, const Settings& s, const Endpoint& endpoint,
                  mwbench::Measurement& m) {
    const auto queue = static_cast<std::uint64_t>(roles::ping_queue_depth(o));
    Client client(endpoint, s.wait, s.payload_bytes, o.timeout_s, m, queue);
    m.record_middleware_config(middleware_config(endpoint, s.wait, queue));
    client.connect();
    if (m.open_loop()) {
      client.run_open();
    } else {
      m.run([&client] { client.call(); });
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  IceoryxDriver driver;
  const int status = mwbench::run_driver(argc, argv, driver);
  // After a failure the runtime is not torn down: when a peer was killed,
  // RouDi can be stuck cleaning up after it (a lock the dead process held),
  // and the runtime's destructor would wait for RouDi, through the keep-alive
  // thread's blocking send, for ever. The result file and the error are
  // written by now; RouDi reclaims what this process held once it is gone.
  if (status != 0) std::_Exit(status);
  return status;
}
