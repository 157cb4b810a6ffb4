// A container's event channel (docs/events.md section 2): the `channel`
// delivery strategy. An event source that publishes through it pushes once;
// the channel calls every sink of its process with the very event object
// pushed (one physical copy, many logical ones), and sends it once to every
// other container that has subscribers of that source, through a gateway.
// On the other side, a gateway's receiver hands the bytes to receive(),
// which unmarshals them once and calls every local sink of that source.
//
// The steady state allocates nothing per event (components/tests/
// event_allocations_gtest.cpp): routes are snapshots, as ports' connections
// are; marshalling for gateways fills a buffer per publishing thread, reused;
// receiving unmarshals into the event of the supplier delivered last
// (event_codec.hpp), and a supplier is named by a view of the bytes. A delivery holds the channel's
// delivery lock shared (one atomic operation, uncontended unless a route is being removed), so that
// removing a route can wait until no thread still calls the sink it removed: its component may be
// destroyed right after.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <mwccm/detail/snapshot_list.hpp>
#include <mwccm/event_filter.hpp>
#include <mwccm/port.hpp>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mwccm {

// One way to another container's channel (docs/events.md section 4).
class Gateway {
 public:
  virtual ~Gateway() = default;
  // Sends one event of `supplier`: its sequence number and its CDR bytes.
  // False if it could not (a peer gone, an event too large for a datagram);
  // the channel counts it and goes on. Called on the publishing thread.
  virtual bool send(const std::string& supplier, std::uint64_t sequence,
                    std::span<const char> cdr) = 0;
  virtual std::string describe() const = 0;  // "udp 198.18.0.2:40112", for reports
};

// The event type a consumer interface takes: its repository id without
// "Consumer" ("IDL:M/TickConsumer:1.0" takes "IDL:M/Tick:1.0", by the CCM's
// IDL3-to-IDL2 mapping).
inline std::string event_type_of(std::string consumer_type_id) {
  if (const auto at = consumer_type_id.rfind("Consumer:"); at != std::string::npos)
    consumer_type_id.erase(at, 8);
  return consumer_type_id;
}

// A sink of the channel: the route's id, the sink, its filter.
struct LocalRoute {
  std::uint64_t id;
  std::shared_ptr<ProvidedPort> sink;
  EventFilter filter;
};

class EventChannel {
 public:
  // What the channel did, since it was made.
  struct Counters {
    std::uint64_t published = 0;      // pushes by local sources
    std::uint64_t delivered = 0;      // calls of local sinks (published and received)
    std::uint64_t filtered = 0;       // local sinks an event was withheld from
    std::uint64_t sent = 0;           // events handed to gateways (one per gateway)
    std::uint64_t undeliverable = 0;  // events a gateway could not send
    std::uint64_t received = 0;       // events from gateways
    std::uint64_t unreadable = 0;     // received bytes that were no event, or of no known source
    // Of the received events, by their suppliers' sequence numbers (inbound()):
    std::uint64_t duplicates = 0;    // arrived again (by another gateway): dropped
    std::uint64_t out_of_order = 0;  // arrived after a later one: delivered
    std::uint64_t lost = 0;          // skipped and not arrived since
  };
  // The same, for the events of one supplier of another container.
  struct InboundCounters {
    std::string supplier;
    std::uint64_t received = 0, duplicates = 0, out_of_order = 0, lost = 0;
  };

  // A source publishing through this channel: its id "instance.port", its
  // declared event type and how to marshal its events.
  class Supplier;

  explicit EventChannel(std::string name);
  ~EventChannel();
  EventChannel(const EventChannel&) = delete;
  EventChannel& operator=(const EventChannel&) = delete;

  const std::string& name() const noexcept { return name_; }

  // The supplier of that id, made on first use (the same codec each time:
  // a source has one event type). Valid as long as the channel.
  Supplier& supplier(const std::string& id, const std::string& event_type, const EventCodec& codec);

  // A sink of this process subscribed to a local supplier, under `route`
  // (its cookie id), with its filter.
  void subscribe(Supplier& supplier, std::uint64_t route, std::shared_ptr<ProvidedPort> sink,
                 EventFilter filter);
  // Another container, reached through `gateway`: each event of the
  // supplier is sent there once, however many subscribers it has (a second
  // route through the same gateway sends nothing more).
  void route(Supplier& supplier, std::uint64_t route, std::shared_ptr<Gateway> gateway);
  // Undoes subscribe() or route(); false if no such route. Returns once no
  // delivery still uses the route (unless called from within a delivery of
  // this channel, which cannot wait for itself).
  bool remove(Supplier& supplier, std::uint64_t route);

  // A sink of this process fed by a supplier of another container (the
  // receiving side of a gateway), under `route`; remove_inbound undoes it.
  void accept(const std::string& supplier, const std::string& event_type, std::uint64_t route,
              std::shared_ptr<ProvidedPort> sink, EventFilter filter);
  bool remove_inbound(const std::string& supplier, std::uint64_t route);  // as remove()

  // The hot path: from the supplier's source, on the pushing thread.
  void publish(Supplier& supplier, const void* event);
  // From a gateway's receiver: one event of a remote supplier, as sent.
  // Delivered once, whatever the number of gateways it came by: an event
  // whose sequence number already arrived is dropped and counted (a plan
  // may reach one process through two gateways, one per connection).
  void receive(std::string_view supplier, std::uint64_t sequence, std::span<const char> cdr);

  // A receiver's bytes that were no event of any channel.
  void note_unreadable() noexcept { unreadable_.fetch_add(1, std::memory_order_relaxed); }

  Counters counters() const;
  std::vector<InboundCounters> inbound() const;  // per remote supplier, in order of acceptance

 private:
  struct Inbound;
  class Delivering;
  void wait_for_deliveries();
  void deliver(const EventCodec& codec, const std::string& source, const std::string& declared_type,
               const void* event, const std::vector<LocalRoute>& routes);

  std::string name_;
  mutable std::mutex suppliers_mutex_;  // guards suppliers_ (not their routes)
  std::deque<std::unique_ptr<Supplier>> suppliers_;
  std::shared_mutex deliveries_;             // shared by deliveries in progress, see above
  mutable std::shared_mutex inbound_mutex_;  // guards inbound_ (not their routes)
  std::deque<std::unique_ptr<Inbound>> inbound_;
  std::atomic<std::uint64_t> published_{0}, delivered_{0}, filtered_{0}, sent_{0},
      undeliverable_{0}, received_{0}, unreadable_{0};
};

class EventChannel::Supplier {
 public:
  const std::string& id() const noexcept { return id_; }
  EventChannel& channel() const noexcept { return channel_; }

 private:
  friend class EventChannel;
  struct Remote {
    std::vector<std::uint64_t> ids;  // the routes through this gateway
    std::shared_ptr<Gateway> gateway;
  };
  Supplier(EventChannel& channel, std::string id, std::string event_type, const EventCodec& codec)
      : channel_(channel), id_(std::move(id)), event_type_(std::move(event_type)), codec_(codec) {}

  EventChannel& channel_;
  std::string id_;
  std::string event_type_;
  const EventCodec& codec_;
  detail::SnapshotList<LocalRoute> locals_;
  detail::SnapshotList<Remote> remotes_;
  std::atomic<std::uint64_t> sequence_{0};
};

}  // namespace mwccm
