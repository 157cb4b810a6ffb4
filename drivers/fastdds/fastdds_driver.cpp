// mwbench-driver-fastdds: ping and pong topics over eProsima Fast DDS, remote
// (UDPv4 on --bind or the shared-memory transport, two processes) and
// collocated (one process: Fast DDS's intra-process delivery); and the
// fan-out of one event topic to N subscribers that answer on a reply topic.
//
// This file maps the contract onto DDS: options to the wait strategy, roles
// to what runs where, and the shared-memory leftovers of earlier runs. The
// profiles, endpoint and QoS are in fastdds_session.*, the addresses of a UDP
// participant in fastdds_network.*, the client end in
// fastdds_client.*, the serving end in fastdds_echo.*, the fan-out's in
// fastdds_fanout.*, fastdds_publisher.* and fastdds_subscribers.*, the
// leftovers in fastdds_shm.*.
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <thread>

#include "common/dds_driver_roles.hpp"
#include "common/open_loop_pings.hpp"
#include "common/pubsub_settings.hpp"
#include "fastdds_client.hpp"
#include "fastdds_echo.hpp"
#include "fastdds_fanout.hpp"
#include "fastdds_publisher.hpp"
#include "fastdds_session.hpp"
#include "fastdds_shm.hpp"
#include "fastdds_subscribers.hpp"
#include "mwbench/driver.hpp"
#include "mwbench/load.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace fastdds_driver;
namespace roles = mwbench::common;

using mwbench::common::is_fanout;
struct Settings : mwbench::common::PubSubSettings {
  Transport transport = Transport::udp;
  QosChoice qos;
};

// --option reliability= and data_sharing=: what a ping-pong cell may change
// of the QoS (fastdds_session.hpp).
QosChoice parse_qos(const DriverOptions& o, Transport transport) {
  QosChoice qos;
  const std::string reliability = o.option("reliability", "reliable");
  const std::string sharing = o.option("data_sharing", "off");
  if (reliability != "reliable" && reliability != "best_effort") {
    throw mwbench::UsageError("--option reliability=" + reliability +
                              ": allowed values: reliable, best_effort");
  }
  if (sharing != "off" && sharing != "on") {
    throw mwbench::UsageError("--option data_sharing=" + sharing + ": allowed values: off, on");
  }
  qos.best_effort = reliability == "best_effort";
  qos.data_sharing = sharing == "on";
  if ((qos.best_effort || qos.data_sharing) && is_fanout(o)) {
    throw mwbench::UsageError("--option reliability= and data_sharing=: roundtrip and octets only");
  }
  if (qos.data_sharing && transport != Transport::shm) {
    throw mwbench::UsageError(
        "--option data_sharing=on: --transport shm only (over udp the samples would bypass the "
        "transport the cell names; collocated, intra-process delivery bypasses both)");
  }
  if (qos.data_sharing && o.load.open()) {
    throw mwbench::UsageError("--option data_sharing=on with --load " + mwbench::to_string(o.load) +
                              ": closed loop only (the server, which is not told the load, keeps "
                              "a data-sharing pool of one pong; see README, \"Open loop\")");
  }
  // A data-sharing writer's pool is its history depth + 1 samples of the
  // payload's size: the server, not told the load, keeps it at one.
  qos.history_depth = qos.data_sharing ? 1 : roles::ping_queue_depth(o);
  return qos;
}

Settings settings(const DriverOptions& o) {
  Settings s{mwbench::common::pubsub_settings(
                 o, std::numeric_limits<std::uint32_t>::max() - 64,
                 "a serialized Fast DDS sample holds at most 4294967231 bytes of payload"),
             parse_transport(o.transport), QosChoice{}};
  s.qos = parse_qos(o, s.transport);
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
// (Participant, or the fan-out's FanoutParticipant.)
template <class P>
class Session {
 public:
  template <class... Args>
  explicit Session(Args&&... args) : participant_(std::in_place, std::forward<Args>(args)...) {}
  ~Session() {
    participant_.reset();
    remove_stale_segments();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  P& participant() { return *participant_; }

 private:
  std::optional<P> participant_;
};

class FastDdsDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d = roles::dds_description(
        "fastdds", "eProsima Fast DDS", MWBENCH_FASTDDS_VERSION,
        "how a reader waits for its sample: waitset (default; WaitSet on a ReadCondition), "
        "listener (on_data_available), poll (spin on take_next_sample), or chain (remote "
        "roundtrip and octets: the client's listener takes each pong and writes the next "
        "ping on Fast DDS's thread, as eProsima's latency test does)");
    d.modes = {{"remote", {"udp", "shm"}}, {"collocated", {"inproc"}}};
    d.host_local = {"shm"};
    d.options["reliability"] =
        "roundtrip and octets: reliable (default) or best_effort (no heartbeats or "
        "acknowledgements; a lost ping or pong ends the run at --timeout)";
    d.options["data_sharing"] =
        "roundtrip and octets over --transport shm: off (default) or on (Fast DDS's data "
        "sharing: writer and reader share the sample's memory, with the type bounded by "
        "--payload-bytes)";
    return d;
  }

  // A server (or subscriber process) discovers no one itself: over udp each
  // client names its address as an initial peer, and it learns the client
  // from that client's announcement.
  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const Settings s = settings(o);
    const nlohmann::json stale = stale_shm_removed();
    const std::string profiles = use_loopback_profiles();
    const Network network{o.bind_address, {}};
    if (is_fanout(o)) {
      const FanoutEndpoint endpoint = FanoutEndpoint::for_process(o.bind_address);
      Session<FanoutParticipant> session(endpoint.domain, s.transport, network,
                                         std::vector<std::string>{endpoint.partition});
      Subscribers subscribers(session.participant(), s.wait, o.first_subscriber, o.subscribers,
                              s.payload_bytes, s.verify);
      context.record_middleware_config(
          fanout_config(profiles, session.participant(), s.wait, stale));
      roles::serve_subscribers(subscribers, context, endpoint.to_string());
      return;
    }
    Session<Participant> session(Endpoint::for_process(o.bind_address), s.transport, network, s.qos,
                                 s.payload_bytes);
    Participant& participant = session.participant();
    Echo echo(participant, s.wait, s.payload_bytes, s.verify);
    context.record_middleware_config(
        middleware_config(profiles, participant, s.transport, s.wait, stale));
    roles::serve_echo(echo, context, participant.endpoint().to_string());
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const Settings s = settings(o);
    const nlohmann::json stale = stale_shm_removed();
    const std::string profiles = use_loopback_profiles();
    if (is_fanout(o)) {
      measure_fanout(o, s, profiles, stale, m);
    } else if (o.role == Role::collocated) {
      const Network network{o.bind_address, {}};
      Session<Participant> session(Endpoint::for_process(o.bind_address), s.transport, network,
                                   s.qos, s.payload_bytes);
      Echo echo(session.participant(), s.wait, s.payload_bytes, s.verify);
      roles::beside_echo(echo, s.wait,
                         [&] { run(o, s, profiles, stale, session.participant(), m); });
    } else {
      const Endpoint server = Endpoint::parse(m.read_endpoint());
      const Network network{o.bind_address, {server.address}};
      Session<Participant> session(server, s.transport, network, s.qos, s.payload_bytes);
      run(o, s, profiles, stale, session.participant(), m);
    }
  }

 private:
  static void run(const DriverOptions& o, const Settings& s, const std::string& profiles,
                  const nlohmann::json& stale, Participant& participant, mwbench::Measurement& m) {
    Client client(participant, s.wait, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(
        middleware_config(profiles, participant, s.transport, s.wait, stale));
    roles::measure_roundtrips(client, s.wait, m);
  }

  // The publisher, with its subscribers in other processes (one endpoint,
  // one partition and one peer address each) or in this one (collocated).
  static void measure_fanout(const DriverOptions& o, const Settings& s, const std::string& profiles,
                             const nlohmann::json& stale, mwbench::Measurement& m) {
    if (o.role == Role::collocated) {
      const FanoutEndpoint endpoint = FanoutEndpoint::for_process(o.bind_address);
      Session<FanoutParticipant> session(endpoint.domain, s.transport, Network{o.bind_address, {}},
                                         std::vector<std::string>{endpoint.partition});
      Subscribers subscribers(session.participant(), s.wait, 0, o.subscribers, s.payload_bytes,
                              s.verify);
      roles::beside_subscribers(subscribers, m,
                                [&] { publish(o, s, profiles, stale, session.participant(), m); });
      return;
    }
    const roles::FanoutPeers peers = roles::read_fanout_peers(m.read_endpoints());
    Session<FanoutParticipant> session(peers.domain, s.transport,
                                       Network{o.bind_address, peers.addresses}, peers.partitions);
    publish(o, s, profiles, stale, session.participant(), m);
  }

  static void publish(const DriverOptions& o, const Settings& s, const std::string& profiles,
                      const nlohmann::json& stale, FanoutParticipant& participant,
                      mwbench::Measurement& m) {
    Publisher publisher(participant, s.wait, o.subscribers, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(fanout_config(profiles, participant, s.wait, stale));
    roles::measure_events(publisher, m);
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
