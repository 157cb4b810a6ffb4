// mwbench-driver-fastdds: ping and pong topics over eProsima Fast DDS, remote
// (UDPv4 on loopback or the shared-memory transport, two processes) and
// collocated (one process: Fast DDS's intra-process delivery).
//
// This file maps the contract onto DDS: options to the wait strategy, roles
// to what runs where, and the shared-memory leftovers of earlier runs. The
// profiles, endpoint and QoS are in fastdds_session.*, the client end in
// fastdds_client.*, the serving end in fastdds_echo.*, the leftovers in
// fastdds_shm.*.
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <thread>

#include "fastdds_client.hpp"
#include "fastdds_echo.hpp"
#include "fastdds_session.hpp"
#include "fastdds_shm.hpp"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace fastdds_driver;

struct Settings {
  Wait wait = Wait::waitset;
  Transport transport = Transport::udp;
  bool verify = false;
  std::size_t payload_bytes = 0;
};

Settings settings(const DriverOptions& o) {
  Settings s;
  s.wait = parse_wait(o.option("wait", "waitset"));
  s.transport = parse_transport(o.transport);
  s.verify = o.option_flag("verify", false);
  if (o.payload_bytes > std::numeric_limits<std::uint32_t>::max() - 64) {
    throw mwbench::UsageError("--payload-bytes " + std::to_string(o.payload_bytes) +
                              ": a serialized Fast DDS sample holds at most 4294967231 bytes "
                              "of payload");
  }
  s.payload_bytes = o.payload_bytes;
  return s;
}

// What an earlier run left in /dev/shm, removed before this one starts,
// for the result header.
nlohmann::json stale_shm_removed() {
  const ShmCleanup cleanup = remove_stale_segments();
  return {{"removed_at_start", cleanup.removed}, {"held_by_live_processes", cleanup.in_use}};
}

// The process's participant, and its segments gone with it: Fast DDS removes
// its own on deletion; whatever it leaves whose lock nobody holds any more
// (its own ports, once no other live participant uses them) goes too.
class Session {
 public:
  Session(const Endpoint& endpoint, Transport transport)
      : participant_(std::in_place, endpoint, transport) {}
  ~Session() {
    participant_.reset();
    remove_stale_segments();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  Participant& participant() { return *participant_; }

 private:
  std::optional<Participant> participant_;
};

// Collocated: the echo on a thread of its own (waitset, poll), or on none
// (listener: the client's write delivers the ping within the process and
// Fast DDS calls the echo's listener right there). Stopped and joined however
// the measurement ends.
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

class FastDdsDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d;
    d.driver = "fastdds";
    d.middleware = "eProsima Fast DDS";
    d.middleware_version = MWBENCH_FASTDDS_VERSION;
    d.operations = {{"roundtrip", false}, {"octets", true}};
    d.modes = {{"remote", {"udp", "shm"}}, {"collocated", {"inproc"}}};
    d.options = {
        {"wait",
         "how a reader waits for its sample: waitset (default; WaitSet on a ReadCondition), "
         "listener (on_data_available) or poll (spin on take_next_sample)"},
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
    const nlohmann::json stale = stale_shm_removed();
    const std::string profiles = use_loopback_profiles();
    Session session(Endpoint::for_process(), s.transport);
    Participant& participant = session.participant();
    Echo echo(participant, s.wait, s.payload_bytes, s.verify);
    context.record_middleware_config(
        middleware_config(profiles, participant.endpoint(), s.transport, s.wait, stale));
    const mwbench::ScopedStopCallback stop(context, [&echo] { echo.stop(); });
    context.publish_endpoint(participant.endpoint().to_string());
    echo.serve();
    if (const std::string failure = echo.failure(); !failure.empty()) {
      throw std::runtime_error(failure);
    }
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const Settings s = settings(o);
    const nlohmann::json stale = stale_shm_removed();
    const std::string profiles = use_loopback_profiles();
    if (o.role == Role::collocated) {
      Session session(Endpoint::for_process(), s.transport);
      Echo echo(session.participant(), s.wait, s.payload_bytes, s.verify);
      EchoThread serving(echo, s.wait);
      run(o, s, profiles, stale, session.participant(), m);
      serving.join();
    } else {
      Session session(Endpoint::parse(m.read_endpoint()), s.transport);
      run(o, s, profiles, stale, session.participant(), m);
    }
  }

 private:
  static void run(const DriverOptions& o, const Settings& s, const std::string& profiles,
                  const nlohmann::json& stale, Participant& participant, mwbench::Measurement& m) {
    Client client(participant, s.wait, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(
        middleware_config(profiles, participant.endpoint(), s.transport, s.wait, stale));
    client.connect();
    m.run([&client] { client.call(); });
  }
};

}  // namespace

// In a build with AddressSanitizer (make test-sanitize): Debian's libfastrtps
// 2.9.1 deletes its StatisticsReaderImpl through a base class of another size
// when a reader is deleted (new-delete-type-mismatch inside the library, not
// in this driver). That one check is turned off for this program only; every
// other check stays on. The function is looked up by the sanitizer runtime and
// is unused in a normal build.
extern "C" const char* __asan_default_options() { return "new_delete_type_mismatch=0"; }

int main(int argc, char** argv) {
  FastDdsDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
