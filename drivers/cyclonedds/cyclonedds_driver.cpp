// mwbench-driver-cyclonedds: ping and pong topics over Cyclone DDS, remote
// (UDP on --bind, two processes) and collocated (one process: Cyclone
// delivers locally, without the network); and the fan-out of one event
// topic to N subscribers that answer on a reply topic.
//
// This file maps the contract onto DDS: options to the wait strategy, roles
// to what runs where. The configuration, endpoint and QoS are in
// cyclonedds_session.*, the client end in cyclonedds_client.*, the serving
// end in cyclonedds_echo.*; the fan-out's in cyclonedds_fanout.*,
// cyclonedds_publisher.* and cyclonedds_subscribers.*.
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <thread>

#include "common/dds_driver_roles.hpp"
#include "common/open_loop_pings.hpp"
#include "common/pubsub_settings.hpp"
#include "cyclonedds_client.hpp"
#include "cyclonedds_echo.hpp"
#include "cyclonedds_fanout.hpp"
#include "cyclonedds_publisher.hpp"
#include "cyclonedds_session.hpp"
#include "cyclonedds_subscribers.hpp"
#include "dds/version.h"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace cyclonedds;
namespace roles = mwbench::common;

using mwbench::common::is_fanout;
using Settings = mwbench::common::PubSubSettings;

Settings settings(const DriverOptions& o) {
  return mwbench::common::pubsub_settings(o, std::numeric_limits<std::uint32_t>::max(),
                                          "a DDS sequence holds at most 4294967295 bytes");
}

class CycloneDdsDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d = roles::dds_description(
        "cyclonedds", "Eclipse Cyclone DDS", DDS_VERSION,
        "how a reader waits for its sample: waitset (default; dds_waitset_wait on a read "
        "condition), listener (on_data_available), poll (spin on dds_take), or chain "
        "(remote roundtrip and octets: the client's listener takes each pong and writes the "
        "next ping on Cyclone's thread, as ddsperf does)");
    d.modes = {{"remote", {"udp"}}, {"collocated", {"inproc"}}};
    return d;
  }

  // A server (or subscriber process) discovers no one itself: each client
  // names its address as a peer, and it learns the client from that.
  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    const Settings s = settings(o);
    const std::string config = use_config(o.bind_address);
    if (is_fanout(o)) {
      const FanoutEndpoint endpoint = FanoutEndpoint::for_process(o.bind_address);
      FanoutParticipant participant(endpoint.domain, {endpoint.partition});
      Subscribers subscribers(participant, s.wait, o.first_subscriber, o.subscribers,
                              s.payload_bytes, s.verify);
      context.record_middleware_config(fanout_config(config, participant, s.wait));
      roles::serve_subscribers(subscribers, context, endpoint.to_string());
      return;
    }
    Participant participant(Endpoint::for_process(o.bind_address), roles::ping_queue_depth(o));
    Echo echo(participant, s.wait, s.payload_bytes, s.verify);
    context.record_middleware_config(middleware_config(config, participant, s.wait));
    roles::serve_echo(echo, context, participant.endpoint().to_string());
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    const Settings s = settings(o);
    if (is_fanout(o)) {
      measure_fanout(o, s, m);
    } else if (o.role == Role::collocated) {
      const std::string config = use_config(o.bind_address);
      Participant participant(Endpoint::for_process(o.bind_address), roles::ping_queue_depth(o));
      Echo echo(participant, s.wait, s.payload_bytes, s.verify);
      roles::beside_echo(echo, s.wait, [&] { run(o, s, config, participant, m); });
    } else {
      const Endpoint server = Endpoint::parse(m.read_endpoint());
      const std::string config = use_config(o.bind_address, {server.address});
      Participant participant(server, roles::ping_queue_depth(o));
      run(o, s, config, participant, m);
    }
  }

 private:
  static void run(const DriverOptions& o, const Settings& s, const std::string& config,
                  Participant& participant, mwbench::Measurement& m) {
    Client client(participant, s.wait, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(middleware_config(config, participant, s.wait));
    roles::measure_roundtrips(client, s.wait, m);
  }

  // The publisher, with its subscribers in other processes (one endpoint,
  // one partition and one peer address each) or in this one (collocated).
  static void measure_fanout(const DriverOptions& o, const Settings& s, mwbench::Measurement& m) {
    if (o.role == Role::collocated) {
      const std::string config = use_config(o.bind_address);
      const FanoutEndpoint endpoint = FanoutEndpoint::for_process(o.bind_address);
      FanoutParticipant participant(endpoint.domain, {endpoint.partition});
      Subscribers subscribers(participant, s.wait, 0, o.subscribers, s.payload_bytes, s.verify);
      roles::beside_subscribers(subscribers, m, [&] { publish(o, s, config, participant, m); });
      return;
    }
    const roles::FanoutPeers peers = roles::read_fanout_peers(m.read_endpoints());
    const std::string config = use_config(o.bind_address, peers.addresses);
    FanoutParticipant participant(peers.domain, peers.partitions);
    publish(o, s, config, participant, m);
  }

  static void publish(const DriverOptions& o, const Settings& s, const std::string& config,
                      FanoutParticipant& participant, mwbench::Measurement& m) {
    Publisher publisher(participant, s.wait, o.subscribers, s.payload_bytes, o.timeout_s, m);
    m.record_middleware_config(fanout_config(config, participant, s.wait));
    roles::measure_events(publisher, m);
  }
};

}  // namespace

int main(int argc, char** argv) {
  CycloneDdsDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
