// mwbench-driver-ccmevents: the container-managed pub/sub study (Wang, Gill,
// Schmidt et al.) on mwccm: the operation fanout (docs/driver-contract.md
// section 5) from one Publisher to N Subscribers, through the component
// layer or the same channel used by plain objects (--option layer=), one
// call per subscriber or through event channels (--option delivery=), and
// between processes through the channel's gateway named by --transport.
//
//   collocated (inproc)   publisher and subscribers in one container (or,
//                         for objects, one channel): local calls
//   remote iiop           direct: a CORBA call per subscriber; channel: one
//                         ChannelLink call per subscriber process
//   remote udp            channel: one datagram per subscriber process
//   remote multicast      channel: one datagram for every process
//   remote dds            dds: the publisher's topic (collocated too: dds
//                         delivers through each container's reader)
//
// The replies go back the same way for every layer and delivery
// (ccmevents_replies.hpp). The operation roundtrip is the fan-out to one
// subscriber: an event there and the reply back.
#include <arpa/inet.h>
#include <omniORB4/CORBA.h>

#include <algorithm>
#include <atomic>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/dds_channel.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/errors.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ccmevents_fanout.hpp"
#include "ccmevents_replies.hpp"
#include "common/endpoint_field.hpp"
#include "mwbench/dds/confine.hpp"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using namespace ccmevents;

struct Cell {
  std::string layer;
  FanoutSettings fanout;
  std::string address;  // --bind: where the process listens (ORB, replies, receivers)
};

// A value quoted in a message, cut short: an option may hold anything.
std::string quoted(const std::string& value) {
  return "'" + (value.size() > 64 ? value.substr(0, 64) + "..." : value) + "'";
}

// --option multicast_group=GROUP:PORT: an IPv4 multicast group (224.0.0.0/4)
// and a port, checked here so that a bad value names the option.
std::string checked_group(const std::string& value) {
  const std::string problem = "--option multicast_group=" + quoted(value) +
                              ": GROUP:PORT, an IPv4 multicast group (224.0.0.0 to "
                              "239.255.255.255) and a port from 1 to 65535";
  mwccm::ChannelEndpoint group;
  try {
    group = mwccm::parse_endpoint("multicast:" + value + "@127.0.0.1");
  } catch (const std::invalid_argument&) {
    throw mwbench::UsageError(problem);
  }
  in_addr address{};
  if (inet_pton(AF_INET, group.address.c_str(), &address) != 1 ||
      !IN_MULTICAST(ntohl(address.s_addr))) {
    throw mwbench::UsageError(problem);
  }
  return value;
}

// --option multicast_interface=ADDRESS: one address of this host, and one with
// multicast when the transport is multicast.
std::string checked_interface(const std::string& value, const std::string& transport) {
  in_addr address{};
  if (inet_pton(AF_INET, value.c_str(), &address) != 1 || address.s_addr == htonl(INADDR_ANY)) {
    throw mwbench::UsageError("--option multicast_interface=" + quoted(value) +
                              ": an IPv4 address of this host, not the wildcard");
  }
  const std::string why = transport == "multicast" ? mwccm::multicast_unavailable(value) : "";
  if (!why.empty())
    throw mwbench::UsageError("--option multicast_interface=" + quoted(value) + ": " + why);
  return value;
}

// Without --option delivery: a channel, or the strategy whose transport it is
// (dds for --transport dds).
std::string default_delivery(const std::string& transport) {
  const mwccm::Delivery* channel = mwccm::find_delivery("channel");
  for (const mwccm::Delivery* delivery : mwccm::deliveries()) {
    const auto transports = delivery->transports();
    const bool goes =
        std::find(transports.begin(), transports.end(), transport) != transports.end();
    if (goes && delivery != channel && channel != nullptr) {
      const auto by_channel = channel->transports();
      if (std::find(by_channel.begin(), by_channel.end(), transport) == by_channel.end())
        return delivery->name();
    }
  }
  return "channel";
}

Cell read_cell(const DriverOptions& o) {
  if (o.threads != 1)
    throw mwbench::UsageError("--threads: fanout has one publishing thread; use --subscribers");
  Cell cell;
  cell.layer = o.option("layer", "component");
  if (cell.layer != "component" && cell.layer != "object")
    throw mwbench::UsageError("--option layer=" + cell.layer + ": component or object");
  cell.fanout.delivery = o.option("delivery", default_delivery(o.transport));
  const mwccm::Delivery* delivery = mwccm::find_delivery(cell.fanout.delivery);
  const std::string option = "--option delivery=" + cell.fanout.delivery;
  if (delivery == nullptr)
    throw mwbench::UsageError(option + ": one of " + mwccm::delivery_names());
  if (const std::string why = delivery->unavailable(); !why.empty())
    throw mwbench::UsageError(option + ": " + why);
  if (o.mode == "remote") {
    const std::vector<std::string> transports = delivery->transports();
    if (std::find(transports.begin(), transports.end(), o.transport) == transports.end()) {
      std::string listed;
      for (const auto& transport : transports) listed += (listed.empty() ? "" : ", ") + transport;
      throw mwbench::UsageError("--transport " + o.transport +
                                ": delivery=" + cell.fanout.delivery + " goes by " + listed);
    }
    cell.fanout.gateway = o.transport;
  }
  cell.fanout.verify = o.option_flag("verify", false);
  cell.fanout.payload_bytes = static_cast<std::uint32_t>(o.payload_bytes);
  cell.address = o.bind_address;
  cell.fanout.receiver.address = cell.address;
  cell.fanout.receiver.multicast_interface =
      checked_interface(o.option("multicast_interface", cell.address), o.transport);
  cell.fanout.receiver.multicast_group =
      checked_group(o.option("multicast_group", cell.fanout.receiver.multicast_group));
  // dds: a topic in a partition of its own, so that another fan-out's events
  // on this host (another partition) never reach this one's readers.
  cell.fanout.receiver.dds.address = cell.address;
  cell.fanout.receiver.dds.partition = o.option("dds_partition", "ccmevents");
  cell.fanout.topic.name = "ccmevents/updates";
  return cell;
}

// One ORB per process, listening on the cell's address only; so do
// Cyclone's receive sockets, which it binds to the wildcard address.
CORBA::ORB_ptr start_orb(const std::string& address) {
  mwbench::dds::confine_to(address);
  std::string endpoint = "giop:tcp:" + address + ":";
  char name[] = "mwbench-driver-ccmevents", option[] = "-ORBendPoint";
  int argc = 3;
  char* argv[] = {name, option, endpoint.data(), nullptr};
  return CORBA::ORB_init(argc, argv);
}

std::unique_ptr<Fanout> make_fanout(CORBA::ORB_ptr orb, const Cell& cell) {
  return cell.layer == "component" ? make_component_fanout(orb, cell.fanout)
                                   : make_object_fanout(orb, cell.fanout);
}

nlohmann::json config(const Cell& cell) {
  return {{"layer", cell.layer},
          {"delivery", cell.fanout.delivery},
          {"gateway", cell.fanout.gateway.empty() ? "none (collocated)" : cell.fanout.gateway},
          {"replies", "TCP, one connection per subscriber process"},
          {"address", cell.address},
          {"orb", std::string("omniORB ") + omniORB::versionString()}};
}

// The addresses of "ADDRESS:PORT" endpoints: the subscriber processes' hosts,
// which a publisher's DDS participant discovers by unicast.
std::vector<std::string> hosts_of(const std::vector<std::string>& endpoints) {
  std::vector<std::string> hosts;
  for (const std::string& endpoint : endpoints)
    hosts.push_back(endpoint.substr(0, endpoint.rfind(':')));
  return hosts;
}

// The event the publisher pushes, built once: each push sets its number.
CcmEvents::Update_var make_event(std::uint64_t payload_bytes) {
  CcmEvents::Update_var event = new CcmEvents::Update_impl;
  CcmEvents::Octets payload(static_cast<CORBA::ULong>(payload_bytes));
  payload.length(static_cast<CORBA::ULong>(payload_bytes));
  for (CORBA::ULong i = 0; i < payload.length(); ++i) payload[i] = pattern_byte(i);
  event->payload(payload);
  return event;
}

void serve_fanout(const DriverOptions& o, mwbench::ServerContext& context) {
  const Cell cell = read_cell(o);
  CORBA::ORB_var orb = start_orb(cell.address);
  {
    ReplyConnection replies(cell.address, o.timeout_s, o.subscribers);
    const std::unique_ptr<Fanout> fanout = make_fanout(orb.in(), cell);
    fanout->host_subscribers(o.first_subscriber, o.subscribers, replies);
    const std::string line = "replies=" + replies.endpoint() + ";" + fanout->subscriber_fields();
    std::atomic<bool> stopping{false};
    const mwbench::ScopedStopCallback stop(context, [&] {
      replies.shut_down();
      stopping.store(true);
      stopping.notify_all();
    });
    context.record_middleware_config(config(cell));
    context.publish_endpoint(line);
    stopping.wait(false);
    if (o.operation == mwbench::kFanoutOperation) {
      context.record_events_received(fanout->received());
      // What its channel received, dropped as duplicates, got late or lost:
      // a subscriber process's losses are in its result, not only its counts.
      nlohmann::json recorded = config(cell);
      recorded["channel"] = fanout->channel_counters();
      context.record_middleware_config(recorded);
    }
  }
  orb->destroy();
}

void measure_fanout(const DriverOptions& o, mwbench::Measurement& m) {
  Cell cell = read_cell(o);
  CORBA::ORB_var orb = start_orb(cell.address);
  {
    const CcmEvents::Update_var event = make_event(o.payload_bytes);
    std::uint64_t next = 0;
    bool failed = false;  // the rest of a batch after a failure does nothing
    const bool on_pushing_thread =
        mwccm::find_delivery(cell.fanout.delivery)->calls_local_sinks_on_the_pushing_thread();
    if (o.role == mwbench::Role::collocated && !on_pushing_thread) {
      // Delivered on another thread (dds: the reader's): the publisher waits for the last reply.
      WaitingReplies replies(o.subscribers, m);
      const std::unique_ptr<Fanout> fanout = make_fanout(orb.in(), cell);
      fanout->host_subscribers(0, o.subscribers, replies);
      fanout->connect_publisher({});
      m.record_middleware_config(config(cell));
      const int timeout_ms = static_cast<int>(o.timeout_s * 1000);
      m.run([&] {
        if (failed) return;
        replies.expect(++next);
        event->number(next);
        fanout->push(event.in());
        failed = !replies.await(timeout_ms);
      });
      if (o.operation == mwbench::kFanoutOperation) {
        m.record_events_published(replies.published());
        m.record_events_received(fanout->received());
      }
    } else if (o.role == mwbench::Role::collocated) {
      TallyReplies replies(o.subscribers, m);
      const std::unique_ptr<Fanout> fanout = make_fanout(orb.in(), cell);
      fanout->host_subscribers(0, o.subscribers, replies);
      fanout->connect_publisher({});
      m.record_middleware_config(config(cell));
      m.run([&] {
        if (failed) return;
        event->number(++next);
        replies.tally().expect(next);
        fanout->push(event.in());
        replies.check_complete();
        failed = replies.tally().missing() != 0;
      });
      if (o.operation == mwbench::kFanoutOperation) {
        m.record_events_published(replies.tally().published());
        m.record_events_received(fanout->received());
      }
    } else {
      const std::vector<std::string> lines = m.read_endpoints();
      std::vector<std::string> reply_endpoints;
      for (const auto& line : lines)
        reply_endpoints.push_back(mwbench::common::endpoint_field(line, "replies"));
      ReplyReader reader(reply_endpoints);
      cell.fanout.receiver.dds.peers = hosts_of(reply_endpoints);
      const std::unique_ptr<Fanout> fanout = make_fanout(orb.in(), cell);
      fanout->connect_publisher(lines);
      reader.handshake(
          o.subscribers,
          [&] {
            event->number(0);
            fanout->push(event.in());
          },
          o.timeout_s);
      m.record_middleware_config(config(cell));
      mwbench::ReplyTally tally(o.subscribers);
      const int timeout_ms = static_cast<int>(o.timeout_s * 1000);
      m.run([&] {
        if (failed) return;
        event->number(++next);
        tally.expect(next);
        fanout->push(event.in());
        reader.await(tally, m, timeout_ms);
        failed = tally.missing() != 0;
      });
      if (o.operation == mwbench::kFanoutOperation) m.record_events_published(tally.published());
    }
  }
  orb->destroy();
}

class CcmEventsDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("ccmevents", "mwccm (omniORB)", omniORB::versionString());
    d.operations = {{"roundtrip", false}, {mwbench::kFanoutOperation, true}};
    d.modes = {{"remote", {}}, {"collocated", {"inproc"}}};
    // What cell() refuses, said up front from the strategies themselves, so
    // that a spec crossing deliveries and transports skips impossible cells.
    std::string deliveries;
    for (const mwccm::Delivery* delivery : mwccm::deliveries()) {
      if (!delivery->unavailable().empty()) continue;
      auto& by = d.option_transports["delivery"][delivery->name()];
      by.push_back("inproc");
      for (const auto& transport : delivery->transports()) {
        by.push_back(transport);
        auto& remote = d.modes["remote"];
        if (std::find(remote.begin(), remote.end(), transport) == remote.end())
          remote.push_back(transport);
      }
      deliveries += std::string(deliveries.empty() ? "" : "; ") + delivery->name() + ": " +
                    delivery->summary();
    }
    d.options = {
        {"layer",
         "component (default): mwccm components, the container delivers; object: plain objects "
         "use the same channel (or CORBA consumers) directly"},
        {"delivery",
         "default channel (or the strategy of --transport: dds for dds); " + deliveries},
        {"dds_partition",
         "delivery=dds: the DDS partition of the fan-out's topic (default ccmevents); "
         "fan-outs run at once on one network need different ones (mwbench gives each "
         "cell its own unless the spec names one)"},
        {"verify",
         "every subscriber checks each event's number (none lost, repeated or out of order) "
         "and payload: 0 (default) or 1"},
        {"multicast_group", "GROUP:PORT of the multicast gateway (default 239.255.77.77:45077)"},
        {"multicast_interface",
         "the address of the interface multicast is joined on and sent from (default: --bind)"},
    };
    d.max_threads = 1;
    d.max_servants = 1;
    // A thread per subscriber process and a CORBA object or sink per
    // subscriber: 64 covers the study's sweep (1 to 16) with room.
    d.max_subscribers = 64;
    return d;
  }

  // A CORBA exception is no std::exception: said as one, naming it.
  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    try {
      serve_fanout(o, context);
    } catch (const CORBA::Exception&) {
      throw std::runtime_error(mwccm::current_exception_message());
    }
  }
  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    try {
      measure_fanout(o, m);
    } catch (const CORBA::Exception&) {
      throw std::runtime_error(mwccm::current_exception_message());
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  CcmEventsDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
