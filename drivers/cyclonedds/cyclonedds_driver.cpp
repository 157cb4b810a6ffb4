// mwbench-driver-cyclonedds: ping and pong topics over Cyclone DDS, remote
// (UDP on loopback, two processes) and collocated (one process: Cyclone
// delivers locally, without the network).
//
// This file maps the contract onto DDS: options to the wait strategy, roles
// to what runs where. The configuration, endpoint and QoS are in
// cyclonedds_session.*, the client end in cyclonedds_client.*, the serving
// end in cyclonedds_echo.*.
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <thread>

#include "cyclonedds_client.hpp"
#include "cyclonedds_echo.hpp"
#include "cyclonedds_session.hpp"
#include "dds/version.h"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace cyclonedds;

struct Settings {
  Wait wait = Wait::waitset;
  bool verify = false;
  std::size_t payload_bytes = 0;
};

Settings settings(const DriverOptions& o) {
  Settings s;
  s.wait = parse_wait(o.option("wait", "waitset"));
  s.verify = o.option_flag("verify", false);
  if (o.payload_bytes > std::numeric_limits<std::uint32_t>::max()) {
    throw mwbench::UsageError("--payload-bytes " + std::to_string(o.payload_bytes) +
                              ": a DDS sequence holds at most 4294967295 bytes");
  }
  s.payload_bytes = o.payload_bytes;
  return s;
}

// Collocated: the echo on a thread of its own (waitset, poll), or on none
// (listener: the client's dds_write delivers the ping locally and Cyclone
// calls the echo's listener right there). Stopped and joined however the
// measurement ends.
class EchoThread {
 public:
  explicit EchoThread(Echo& echo, Wait wait) : echo_(echo) {
    if (wait != Wait::listener) {
      thread_ = std::thread([this] {
        try {
          echo_.serve();
        } catch (const std::exception& e) {
          error_ = e.what();
        }
      });
    }
  }
  ~EchoThread() { join(); }
  EchoThread(const EchoThread&) = delete;
  EchoThread& operator=(const EchoThread&) = delete;

  // Stops the echo; throws what stopped it early, if anything did.
  void join() {
    echo_.stop();
    if (thread_.joinable()) thread_.join();
    if (!error_.empty()) throw std::runtime_error("collocated echo: " + error_);
  }

 private:
  Echo& echo_;
  std::thread thread_;
  std::string error_;  // written by thread_, read after join
};

class CycloneDdsDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d;
    d.driver = "cyclonedds";
    d.middleware = "Eclipse Cyclone DDS";
    d.middleware_version = DDS_VERSION;
    d.operations = {{"roundtrip", false}, {"octets", true}};
    d.modes = {{"remote", {"udp"}}, {"collocated", {"inproc"}}};
    d.options = {
        {"wait",
         "how a reader waits for its sample: waitset (default; dds_waitset_wait on a read "
         "condition), listener (on_data_available) or poll (spin on dds_take)"},
        {"verify",
         "the server checks every payload byte and the pong says whether it was intact: "
         "0 (default) or 1"},
    };
    d.max_threads = 1;
    d.max_servants = 1;
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const Settings s = settings(o);
    const std::string uri = use_loopback_config();
    Participant participant(Endpoint::for_process());
    Echo echo(participant, s.wait, s.payload_bytes, s.verify);
    context.record_middleware_config(middleware_config(uri, participant.endpoint(), s.wait));
    const mwbench::ScopedStopCallback stop(context, [&echo] { echo.stop(); });
    context.publish_endpoint(participant.endpoint().to_string());
    echo.serve();
    if (const std::string failure = echo.failure(); !failure.empty()) {
      throw std::runtime_error(failure);
    }
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const Settings s = settings(o);
    const std::string uri = use_loopback_config();
    if (o.role == Role::collocated) {
      Participant participant(Endpoint::for_process());
      Echo echo(participant, s.wait, s.payload_bytes, s.verify);
      EchoThread serving(echo, s.wait);
      run(o, s, uri, participant, m);
      serving.join();
    } else {
      Participant participant(Endpoint::parse(m.read_endpoint()));
      run(o, s, uri, participant, m);
    }
  }

 private:
  static void run(const DriverOptions& o, const Settings& s, const std::string& uri,
                  Participant& participant, mwbench::Measurement& m) {
    Client client(participant, s.wait, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(middleware_config(uri, participant.endpoint(), s.wait));
    client.connect();
    m.run([&client] { client.call(); });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CycloneDdsDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
