// mwbench-driver-iceoryx: ping and pong services through Eclipse iceoryx's
// shared memory, remote (two processes, one RouDi) and collocated (one
// process, one runtime). Every message is written into a chunk loaned from
// RouDi's pools and read where it lies: zero-copy.
//
// This file maps the contract onto iceoryx: options to the wait strategy,
// roles to what runs where, and the RouDi daemon the orchestrator must run.
// RouDi, the runtime and the endpoint are in iceoryx_session.*, the client
// end in iceoryx_client.*, the serving end in iceoryx_echo.*.
#include <exception>
#include <string>
#include <thread>

#include "iceoryx_client.hpp"
#include "iceoryx_echo.hpp"
#include "iceoryx_session.hpp"
#include "iceoryx_versions.hpp"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace iceoryx;

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
  return s;
}

// Collocated: the echo on a thread of its own, stopped and joined however
// the measurement ends.
class EchoThread {
 public:
  explicit EchoThread(Echo& echo) : echo_(echo) {
    thread_ = std::thread([this] {
      try {
        echo_.serve();
      } catch (const std::exception& e) {
        error_ = e.what();
      }
    });
  }
  ~EchoThread() {
    echo_.stop();
    if (thread_.joinable()) thread_.join();
  }
  EchoThread(const EchoThread&) = delete;
  EchoThread& operator=(const EchoThread&) = delete;

  // Stops the echo; throws what stopped it early, if anything did.
  void join() {
    echo_.stop();
    if (thread_.joinable()) thread_.join();
    if (!error_.empty()) throw std::runtime_error("collocated echo: " + error_);
    if (const std::string failure = echo_.failure(); !failure.empty()) {
      throw std::runtime_error("collocated echo: " + failure);
    }
  }

 private:
  Echo& echo_;
  std::thread thread_;
  std::string error_;  // written by thread_, read after join
};

class IceoryxDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d;
    d.driver = "iceoryx";
    d.middleware = "Eclipse iceoryx";
    d.middleware_version = ICEORYX_LATEST_RELEASE_VERSION;
    d.operations = {{"roundtrip", false}, {"octets", true}};
    d.modes = {{"remote", {"shm"}}, {"collocated", {"inproc"}}};
    d.options = {
        {"wait",
         "how a subscriber waits for its chunk: waitset (default; a WaitSet on the "
         "subscriber's has-data state) or spin (busy take() loop)"},
        {"verify",
         "the server checks every payload byte and the pong says whether it was intact: "
         "0 (default) or 1"},
    };
    d.max_threads = 1;
    d.max_servants = 1;
    d.daemon = roudi_daemon();
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const Settings s = settings(o);
    init_runtime("server");
    const Endpoint endpoint = Endpoint::for_process();
    Echo echo(endpoint, s.wait, s.payload_bytes, s.verify);
    context.record_middleware_config(middleware_config(endpoint, s.wait));
    const mwbench::ScopedStopCallback stop(context, [&echo] { echo.stop(); });
    context.publish_endpoint(endpoint.to_string());
    echo.serve();
    if (const std::string failure = echo.failure(); !failure.empty()) {
      throw std::runtime_error(failure);
    }
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const Settings s = settings(o);
    if (o.role == Role::collocated) {
      init_runtime("collocated");
      const Endpoint endpoint = Endpoint::for_process();
      Echo echo(endpoint, s.wait, s.payload_bytes, s.verify);
      EchoThread serving(echo);
      run(o, s, endpoint, m);
      serving.join();
    } else {
      const Endpoint endpoint = Endpoint::parse(m.read_endpoint());
      init_runtime("client");
      run(o, s, endpoint, m);
    }
  }

 private:
  static void run(const DriverOptions& o, const Settings& s, const Endpoint& endpoint,
                  mwbench::Measurement& m) {
    Client client(endpoint, s.wait, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(middleware_config(endpoint, s.wait));
    client.connect();
    m.run([&client] { client.call(); });
  }
};

}  // namespace

int main(int argc, char** argv) {
  IceoryxDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
