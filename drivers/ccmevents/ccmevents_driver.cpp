// mwbench-driver-ccmevents: the container-managed pub/sub study (Wang, Gill,
// Schmidt et al.) on mwccm: the operation fanout
// (docs/driver-contract-fanout.md) from one Publisher to N Subscribers, through
// the component layer or the same channel used by plain objects (--option
// layer=), one call per subscriber or through event channels (--option
// delivery=), and between processes through the channel's gateway named by
// --transport.
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
#include <omniORB4/CORBA.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mwccm/dds_channel.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/errors.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ccmevents_cell.hpp"
#include "ccmevents_fanout.hpp"
#include "ccmevents_replies.hpp"
#include "common/endpoint_field.hpp"
#include "mwbench/dds/confine.hpp"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using namespace ccmevents;

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

// A publisher of subscriber processes: a connection to each one's replies,
// and the fan-out connected to their subscribers, every one of which has
// answered a probe. The fan-out goes first when it ends.
struct Publisher {
  std::unique_ptr<ReplyReader> reader;  // none collocated
  std::unique_ptr<Fanout> fanout;
};

Publisher connect_remote(mwbench::Measurement& m, CORBA::ORB_ptr orb, Cell& cell,
                         CcmEvents::Update* event) {
  const DriverOptions& o = m.options();
  const std::vector<std::string> lines = m.read_endpoints();
  std::vector<std::string> reply_endpoints;
  for (const auto& line : lines)
    reply_endpoints.push_back(mwbench::common::endpoint_field(line, "replies"));
  Publisher publisher{std::make_unique<ReplyReader>(reply_endpoints), nullptr};
  cell.fanout.receiver.dds.peers = hosts_of(reply_endpoints);
  publisher.fanout = make_fanout(orb, cell);
  publisher.fanout->connect_publisher(lines);
  publisher.reader->handshake(
      o.subscribers,
      [&] {
        event->number(0);
        publisher.fanout->push(event);
      },
      o.timeout_s);
  return publisher;
}

// The closed loop: each push, then its replies, then the next push.
void measure_closed(mwbench::Measurement& m, CORBA::ORB_ptr orb, Cell& cell,
                    CcmEvents::Update* event) {
  const DriverOptions& o = m.options();
  std::uint64_t next = 0;
  bool failed = false;  // the rest of a batch after a failure does nothing
  const bool on_pushing_thread =
      mwccm::find_delivery(cell.fanout.delivery)->calls_local_sinks_on_the_pushing_thread();
  if (o.role == mwbench::Role::collocated && !on_pushing_thread) {
    // Delivered on another thread (dds: the reader's): the publisher waits for the last reply.
    WaitingReplies replies(o.subscribers, m);
    const std::unique_ptr<Fanout> fanout = make_fanout(orb, cell);
    fanout->host_subscribers(0, o.subscribers, replies);
    fanout->connect_publisher({});
    m.record_middleware_config(config(cell));
    const int timeout_ms = static_cast<int>(o.timeout_s * 1000);
    m.run([&] {
      if (failed) return;
      replies.expect(++next);
      event->number(next);
      fanout->push(event);
      failed = !replies.await(timeout_ms);
    });
    if (o.operation == mwbench::kFanoutOperation) {
      m.record_events_published(replies.published());
      m.record_events_received(fanout->received());
    }
  } else if (o.role == mwbench::Role::collocated) {
    TallyReplies replies(o.subscribers, m);
    const std::unique_ptr<Fanout> fanout = make_fanout(orb, cell);
    fanout->host_subscribers(0, o.subscribers, replies);
    fanout->connect_publisher({});
    m.record_middleware_config(config(cell));
    m.run([&] {
      if (failed) return;
      event->number(++next);
      replies.tally().expect(next);
      fanout->push(event);
      replies.check_complete();
      failed = replies.tally().missing() != 0;
    });
    if (o.operation == mwbench::kFanoutOperation) {
      m.record_events_published(replies.tally().published());
      m.record_events_received(fanout->received());
    }
  } else {
    const Publisher publisher = connect_remote(m, orb, cell, event);
    m.record_middleware_config(config(cell));
    mwbench::ReplyTally tally(o.subscribers);
    const int timeout_ms = static_cast<int>(o.timeout_s * 1000);
    m.run([&] {
      if (failed) return;
      event->number(++next);
      tally.expect(next);
      publisher.fanout->push(event);
      publisher.reader->await(tally, m, timeout_ms);
      failed = tally.missing() != 0;
    });
    if (o.operation == mwbench::kFanoutOperation) m.record_events_published(tally.published());
  }
}

// The open loop (--load constant:R or poisson:R): events pushed on the
// harness's schedule, never waiting for replies. An event's call is
// complete when the last of its subscribers' replies arrives (OpenReplies),
// on whichever thread that is: the pushing thread itself (a collocated
// channel or direct delivery calls the subscribers within the push), a DDS
// reader's, or the one reading the reply connections.
void measure_open(mwbench::Measurement& m, CORBA::ORB_ptr orb, Cell& cell,
                  CcmEvents::Update* event) {
  const DriverOptions& o = m.options();
  OpenReplies replies(o.subscribers, o.warmup + o.samples, m);  // outlives the subscribers
  Publisher publisher;
  if (o.role == mwbench::Role::collocated) {
    publisher.fanout = make_fanout(orb, cell);
    publisher.fanout->host_subscribers(0, o.subscribers, replies);
    publisher.fanout->connect_publisher({});
  } else {
    publisher = connect_remote(m, orb, cell, event);
  }
  m.record_middleware_config(config(cell));
  std::uint64_t pushed = 0;
  {
    const ReplyPassing passing(publisher.reader.get(), replies, m);
    m.run_open([&](std::uint64_t call) {
      event->number(call + 1);
      publisher.fanout->push(event);
      ++pushed;
    });
  }
  if (o.operation == mwbench::kFanoutOperation) {
    m.record_events_published(pushed);
    if (!publisher.reader) m.record_events_received(publisher.fanout->received());
  }
}

void measure_fanout(const DriverOptions& o, mwbench::Measurement& m) {
  Cell cell = read_cell(o);
  CORBA::ORB_var orb = start_orb(cell.address);
  {
    const CcmEvents::Update_var event = make_event(o.payload_bytes);
    if (m.open_loop()) {
      measure_open(m, orb.in(), cell, event.in());
    } else {
      measure_closed(m, orb.in(), cell, event.in());
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
    // Events pushed on the harness's schedule, each complete at its last reply.
    d.open_loop = {"roundtrip", mwbench::kFanoutOperation};
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
