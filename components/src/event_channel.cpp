// The container's event channel (event_channel.hpp).
#include <bitset>
#include <cstdint>
#include <cstring>
#include <mwccm/event_channel.hpp>
#include <mwccm/local_consumer.hpp>
#include <vector>

namespace mwccm {

namespace {

// The sequence numbers of one remote supplier that arrived, to deliver each
// event once and to count what was lost or came late. Numbers more than a
// window below the highest are taken as a supplier that started again.
class SequenceWindow {
 public:
  enum class Arrival { first, duplicate };

  Arrival note(std::uint64_t sequence) {
    if (highest_ == 0 || sequence + kWindow <= highest_) {  // the first, or a new start
      seen_.reset();
      highest_ = lowest_ = sequence;
    } else if (sequence < lowest_) {  // older than the first that came: never counted lost
      lowest_ = sequence;
      ++out_of_order_;
    } else if (sequence > highest_) {
      const std::uint64_t skipped = sequence - highest_ - 1;
      lost_ += skipped;
      if (skipped >= kWindow) {
        seen_.reset();
      } else {
        for (std::uint64_t s = highest_ + 1; s < sequence; ++s) seen_.reset(s % kWindow);
      }
      highest_ = sequence;
    } else if (seen_.test(sequence % kWindow)) {
      ++duplicates_;
      return Arrival::duplicate;
    } else {
      --lost_;  // counted lost when a later one came
      ++out_of_order_;
    }
    seen_.set(sequence % kWindow);
    return Arrival::first;
  }

  std::uint64_t duplicates() const noexcept { return duplicates_; }
  std::uint64_t out_of_order() const noexcept { return out_of_order_; }
  std::uint64_t lost() const noexcept { return lost_; }

 private:
  static constexpr std::uint64_t kWindow = 4096;
  std::bitset<kWindow> seen_;
  std::uint64_t highest_ = 0;  // 0: none yet (sequence numbers start at 1)
  std::uint64_t lowest_ = 0;   // since the first, or the last new start
  std::uint64_t duplicates_ = 0, out_of_order_ = 0, lost_ = 0;
};

}  // namespace

struct EventChannel::Inbound {
  std::string supplier;
  std::string event_type;
  detail::SnapshotList<LocalRoute> locals;
  // Receivers of several gateways may deliver at once. One delivery of this
  // supplier at a time, from noting its number to the last sink's return:
  // each gateway's receiver takes its events in the order sent, so a sink
  // sees them in that order whichever copy comes first (without it, a copy
  // of event n+1 could be delivered beside the late copy of n, and a sink
  // see n+1 before n). Recursive: a sink's own call may bring an event of
  // this supplier back to this thread.
  std::recursive_mutex in_order;
  // Under in_order: the event delivered last, unmarshalled into again by the
  // next (no allocation); not while a delivery of it is still on the stack.
  std::unique_ptr<ReceivedEvent> last_event;
  bool delivering = false;
  mutable std::mutex arrivals_mutex;
  SequenceWindow arrivals;
  std::uint64_t received = 0;
};

namespace {
// How deep this thread is in deliveries of any channel: a sink may push
// again (the airframe's sink pushes `ready`), and the delivery lock is
// taken once, by the outermost delivery (a shared_mutex is not recursive).
thread_local int delivery_depth = 0;
}  // namespace

class EventChannel::Delivering {
 public:
  explicit Delivering(EventChannel& channel) : lock_(channel.deliveries_, std::defer_lock) {
    if (delivery_depth++ == 0) lock_.lock();
  }
  ~Delivering() { --delivery_depth; }

 private:
  std::shared_lock<std::shared_mutex> lock_;
};

void EventChannel::wait_for_deliveries() {
  if (delivery_depth > 0) return;  // a sink removing a route: it cannot wait for itself
  std::lock_guard quiet(deliveries_);
}

EventChannel::EventChannel(std::string name) : name_(std::move(name)) {}
EventChannel::~EventChannel() = default;

EventChannel::Supplier& EventChannel::supplier(const std::string& id, const std::string& event_type,
                                               const EventCodec& codec) {
  std::lock_guard lock(suppliers_mutex_);
  for (const auto& supplier : suppliers_) {
    if (supplier->id_ == id) return *supplier;
  }
  suppliers_.push_back(std::unique_ptr<Supplier>(new Supplier(*this, id, event_type, codec)));
  return *suppliers_.back();
}

void EventChannel::subscribe(Supplier& supplier, std::uint64_t route,
                             std::shared_ptr<ProvidedPort> sink, EventFilter filter) {
  supplier.locals_.update([&](std::vector<LocalRoute>& routes) {
    routes.push_back({route, std::move(sink), std::move(filter)});
  });
}

void EventChannel::route(Supplier& supplier, std::uint64_t route,
                         std::shared_ptr<Gateway> gateway) {
  supplier.remotes_.update([&](std::vector<Supplier::Remote>& remotes) {
    for (auto& remote : remotes) {
      if (remote.gateway == gateway) {
        remote.ids.push_back(route);
        return;
      }
    }
    remotes.push_back({{route}, std::move(gateway)});
  });
}

namespace {
template <class Entry>
bool erase_route(detail::SnapshotList<Entry>& list, std::uint64_t route) {
  bool found = false;
  list.update([&](std::vector<Entry>& entries) {
    for (auto it = entries.begin(); it != entries.end() && !found; ++it) {
      if (it->id == route) {
        entries.erase(it);
        found = true;
      }
    }
  });
  return found;
}
}  // namespace

bool EventChannel::remove(Supplier& supplier, std::uint64_t route) {
  if (erase_route(supplier.locals_, route)) {
    wait_for_deliveries();
    return true;
  }
  bool found = false;
  supplier.remotes_.update([&](std::vector<Supplier::Remote>& remotes) {
    for (auto it = remotes.begin(); it != remotes.end() && !found; ++it) {
      found = std::erase(it->ids, route) != 0;
      if (found && it->ids.empty()) remotes.erase(it);
      if (found) break;
    }
  });
  return found;
}

void EventChannel::accept(const std::string& supplier, const std::string& event_type,
                          std::uint64_t route, std::shared_ptr<ProvidedPort> sink,
                          EventFilter filter) {
  Inbound* inbound = nullptr;
  {
    std::unique_lock lock(inbound_mutex_);
    for (const auto& candidate : inbound_) {
      if (candidate->supplier == supplier) inbound = candidate.get();
    }
    if (inbound == nullptr) {
      inbound_.push_back(std::make_unique<Inbound>());
      inbound = inbound_.back().get();
      inbound->supplier = supplier;
      inbound->event_type = event_type;
    }
  }
  inbound->locals.update([&](std::vector<LocalRoute>& routes) {
    routes.push_back({route, std::move(sink), std::move(filter)});
  });
}

bool EventChannel::remove_inbound(const std::string& supplier, std::uint64_t route) {
  bool found = false;
  {
    std::shared_lock lock(inbound_mutex_);
    for (const auto& inbound : inbound_) {
      if (inbound->supplier == supplier && erase_route(inbound->locals, route)) found = true;
      if (found) break;
    }
  }
  if (found) wait_for_deliveries();
  return found;
}

void EventChannel::deliver(const EventCodec& codec, const std::string& source,
                           const std::string& declared_type, const void* event,
                           const std::vector<LocalRoute>& routes) {
  const char* type = codec.type_of(event);
  for (const LocalRoute& route : routes) {
    if (!route.filter.passes(source, type, declared_type)) {
      filtered_.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    // A sink whose consumer takes another type was refused when it subscribed.
    codec.deliver(event, *route.sink->local_consumer());
    delivered_.fetch_add(1, std::memory_order_relaxed);
  }
}

namespace {
// The buffer a thread marshals its events into, reused from one publish to
// the next; a publish nested in a gateway's send (a collocated IIOP
// receiver's sink publishing again) marshals into one of its own.
class MarshalBuffer {
 public:
  MarshalBuffer() : stream_(busy_ ? own_ : shared()) {
    nested_ = busy_;
    busy_ = true;
    stream_.rewindPtrs();
    stream_.marshalBoolean(omni::myByteOrder);  // as an encapsulation starts
  }
  ~MarshalBuffer() { busy_ = nested_; }
  MarshalBuffer(const MarshalBuffer&) = delete;
  MarshalBuffer& operator=(const MarshalBuffer&) = delete;
  cdrEncapsulationStream& stream() noexcept { return stream_; }

 private:
  static cdrEncapsulationStream& shared() {
    thread_local cdrEncapsulationStream stream;
    return stream;
  }
  static thread_local bool busy_;
  cdrEncapsulationStream own_;
  cdrEncapsulationStream& stream_;
  bool nested_ = false;
};
thread_local bool MarshalBuffer::busy_ = false;
}  // namespace

void EventChannel::publish(Supplier& supplier, const void* event) {
  published_.fetch_add(1, std::memory_order_relaxed);
  const Delivering delivering(*this);
  deliver(supplier.codec_, supplier.id_, supplier.event_type_, event, supplier.locals_.snapshot());
  const auto& remotes = supplier.remotes_.snapshot();
  if (remotes.empty()) return;
  // Marshalled once, whatever the number of containers it goes to. An
  // encapsulation starts with its byte order, so any receiver can read it.
  MarshalBuffer buffer;
  cdrEncapsulationStream& cdr = buffer.stream();
  supplier.codec_.marshal(event, cdr);
  const std::span<const char> bytes(static_cast<const char*>(cdr.bufPtr()), cdr.bufSize());
  const std::uint64_t sequence = supplier.sequence_.fetch_add(1, std::memory_order_relaxed) + 1;
  for (const auto& remote : remotes) {
    bool sent = false;
    try {
      sent = remote.gateway->send(supplier.id_, sequence, bytes);
    } catch (const CORBA::Exception&) {
      sent = false;  // a peer gone: counted; the others still get theirs
    }
    (sent ? sent_ : undeliverable_).fetch_add(1, std::memory_order_relaxed);
  }
}

void EventChannel::receive(std::string_view supplier, std::uint64_t sequence,
                           std::span<const char> bytes) {
  received_.fetch_add(1, std::memory_order_relaxed);
  const Delivering delivering(*this);
  Inbound* inbound = nullptr;
  {
    std::shared_lock lock(inbound_mutex_);
    for (const auto& candidate : inbound_) {
      if (candidate->supplier == supplier) inbound = candidate.get();
    }
  }
  const auto* routes = inbound ? &inbound->locals.snapshot() : nullptr;
  if (routes == nullptr || routes->empty()) {
    unreadable_.fetch_add(1, std::memory_order_relaxed);  // no sink here takes it
    return;
  }
  const std::lock_guard in_order(inbound->in_order);
  {
    std::lock_guard lock(inbound->arrivals_mutex);
    ++inbound->received;
    if (inbound->arrivals.note(sequence) == SequenceWindow::Arrival::duplicate) return;
  }
  const EventCodec& codec = routes->front().sink->local_consumer()->codec();
  // CDR reads from an 8-byte aligned buffer; a datagram's event is where its
  // header ends. One aligned copy per receiving thread, reused.
  thread_local std::vector<std::uint64_t> aligned;
  const char* data = bytes.data();
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(std::uint64_t) != 0) {
    aligned.resize(bytes.size() / sizeof(std::uint64_t) + 1);
    std::memcpy(aligned.data(), bytes.data(), bytes.size());
    data = reinterpret_cast<const char*>(aligned.data());
  }
  try {
    cdrEncapsulationStream cdr(reinterpret_cast<const CORBA::Octet*>(data),
                               static_cast<CORBA::ULong>(bytes.size()));
    std::unique_ptr<ReceivedEvent> nested;  // a delivery of this supplier is on the stack
    std::unique_ptr<ReceivedEvent>& slot = inbound->delivering ? nested : inbound->last_event;
    const void* event = codec.unmarshal(cdr, slot);
    const bool outermost = !inbound->delivering;
    inbound->delivering = true;
    try {
      deliver(codec, inbound->supplier, inbound->event_type, event, *routes);
    } catch (...) {
      if (outermost) inbound->delivering = false;
      throw;
    }
    if (outermost) inbound->delivering = false;
  } catch (const CORBA::SystemException&) {
    unreadable_.fetch_add(1, std::memory_order_relaxed);
  }
}

EventChannel::Counters EventChannel::counters() const {
  const auto read = [](const std::atomic<std::uint64_t>& n) {
    return n.load(std::memory_order_relaxed);
  };
  Counters counters{read(published_),     read(delivered_), read(filtered_),  read(sent_),
                    read(undeliverable_), read(received_),  read(unreadable_)};
  std::shared_lock lock(inbound_mutex_);
  for (const auto& inbound : inbound_) {
    std::lock_guard arrivals(inbound->arrivals_mutex);
    counters.duplicates += inbound->arrivals.duplicates();
    counters.out_of_order += inbound->arrivals.out_of_order();
    counters.lost += inbound->arrivals.lost();
  }
  return counters;
}

std::vector<EventChannel::InboundCounters> EventChannel::inbound() const {
  std::vector<InboundCounters> out;
  std::shared_lock lock(inbound_mutex_);
  for (const auto& inbound : inbound_) {
    std::lock_guard arrivals(inbound->arrivals_mutex);
    out.push_back({inbound->supplier, inbound->received, inbound->arrivals.duplicates(),
                   inbound->arrivals.out_of_order(), inbound->arrivals.lost()});
  }
  return out;
}

}  // namespace mwccm
