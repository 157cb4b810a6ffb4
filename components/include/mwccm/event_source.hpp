// Event sources. A publisher (`publishes`) has any number of subscribers,
// each with a cookie; an emitter (`emits`) at most one consumer. A consumer
// is a CORBA reference, or a sink in this process connected as a plain C++
// object (a plan's Local_Interface connection: its LocalConsumer, called
// directly, with no servant, POA or reference). A push calls the plain C++
// consumers first, then hands the CORBA ones and the typed call to the
// source's DeliveryStrategy (DirectDelivery unless set_delivery chose
// another): the glue writes
//
//   ticks_.push(event, [&](Bench::TickConsumer_ptr c) { c->push_Tick(event); });
//
// and the push takes no lock and allocates nothing (consumers are snapshots,
// as in receptacles.hpp). `Arg` is the event as push_<sink>() takes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mwccm/cookie.hpp>
#include <mwccm/detail/port_errors.hpp>
#include <mwccm/detail/snapshot_list.hpp>
#include <mwccm/event_channel.hpp>
#include <mwccm/event_codec.hpp>
#include <mwccm/event_delivery.hpp>
#include <mwccm/port.hpp>
#include <vector>

namespace mwccm {

enum class SourceKind { publisher, emitter };

template <class Consumer, class Arg>
class EventSource final : public SourcePort {
 public:
  using ptr_type = typename Consumer::_ptr_type;
  struct Subscriber {
    typename Consumer::_var_type consumer;
    std::uint64_t cookie;  // 0 for an emitter's consumer
  };
  struct PlainSubscriber {
    LocalConsumer<Arg>* consumer;  // owned by `sink`
    std::shared_ptr<ProvidedPort> sink;
    std::uint64_t cookie;  // 0 for an emitter's consumer
  };

  EventSource(const char* name, SourceKind kind)
      : SourcePort(name,
                   kind == SourceKind::publisher ? Components::PUBLISHER : Components::EMITTER,
                   Consumer::_PD_repoId) {}

  // Publisher (subscribe_<name>): any number of subscribers.
  Components::Cookie* subscribe(ptr_type consumer) {
    require(Components::PUBLISHER, "subscribe");
    if (CORBA::is_nil(consumer)) detail::nil_reference(*this, "subscribe");
    const std::uint64_t id = next_cookie_id();
    list_.update([&](std::vector<Subscriber>& subs) {
      subs.push_back(Subscriber{Consumer::_duplicate(consumer), id});
    });
    return make_cookie(id);
  }

  // Publisher (unsubscribe_<name>): returns the consumer (the caller releases it).
  ptr_type unsubscribe(Components::Cookie* ck) {
    require(Components::PUBLISHER, "unsubscribe");
    const auto id = cookie_id(ck);
    ptr_type former = Consumer::_nil();
    bool found = false;
    list_.update([&](std::vector<Subscriber>& subs) {
      for (auto it = subs.begin(); it != subs.end() && !found; ++it) {
        if (id && it->cookie == *id) {
          former = Consumer::_duplicate(it->consumer.in());
          subs.erase(it);
          found = true;
        }
      }
    });
    if (!found) {
      plain_.update([&](std::vector<PlainSubscriber>& subs) {
        for (auto it = subs.begin(); it != subs.end() && !found; ++it) {
          if (id && it->cookie == *id) {
            subs.erase(it);
            found = true;
          }
        }
      });
    }
    if (!found && id) found = unsubscribe_channel(*id);
    if (!found) detail::bad_cookie(*this, "unsubscribe");
    return former;
  }

  // Emitter (connect_<name>): at most one consumer; AlreadyConnected otherwise.
  void connect(ptr_type consumer) {
    require(Components::EMITTER, "connect_consumer");
    if (CORBA::is_nil(consumer)) detail::nil_reference(*this, "connect_consumer");
    if (!plain_.snapshot().empty() || !channel_routes_.snapshot().empty())
      detail::already_connected(*this, "connect_consumer");
    list_.update([&](std::vector<Subscriber>& subs) {
      if (!subs.empty()) detail::already_connected(*this, "connect_consumer");
      subs.push_back(Subscriber{Consumer::_duplicate(consumer), 0});
    });
  }

  // Emitter (disconnect_<name>): the former consumer; NoConnection if none.
  ptr_type disconnect() {
    require(Components::EMITTER, "disconnect_consumer");
    ptr_type former = Consumer::_nil();
    if (!plain_.snapshot().empty()) {
      plain_.update([](std::vector<PlainSubscriber>& subs) { subs.clear(); });
      return former;
    }
    if (const auto& routes = channel_routes_.snapshot(); !routes.empty()) {
      unsubscribe_channel(routes.front());
      return former;
    }
    list_.update([&](std::vector<Subscriber>& subs) {
      if (subs.empty()) detail::not_connected(*this, "disconnect_consumer");
      former = Consumer::_duplicate(subs.front().consumer.in());
      subs.clear();
    });
    return former;
  }

  // A sink in this process as a plain C++ consumer (SourcePort): a publisher
  // gets a cookie, an emitter null (AlreadyConnected if it has a consumer).
  Components::Cookie* subscribe_plain(std::shared_ptr<ProvidedPort> sink) override {
    auto* consumer = dynamic_cast<LocalConsumer<Arg>*>(sink->local_consumer());
    if (consumer == nullptr) detail::not_plain(*this, sink->describe(), type_id().c_str());
    const bool publisher = kind() == Components::PUBLISHER;
    const std::uint64_t id = publisher ? next_cookie_id() : 0;
    if (!publisher && (!list_.snapshot().empty() || !channel_routes_.snapshot().empty()))
      detail::already_connected(*this, "connect_consumer");
    plain_.update([&](std::vector<PlainSubscriber>& subs) {
      if (!publisher && !subs.empty()) detail::already_connected(*this, "connect_consumer");
      subs.push_back(PlainSubscriber{consumer, std::move(sink), id});
    });
    return publisher ? make_cookie(id) : nullptr;
  }

  Components::Cookie* subscribe_channel(EventChannel& channel, const std::string& supplier,
                                        std::shared_ptr<ProvidedPort> sink,
                                        const EventFilter& filter) override {
    if (dynamic_cast<LocalConsumer<Arg>*>(sink->local_consumer()) == nullptr)
      detail::not_plain(*this, sink->describe(), type_id().c_str());
    return through_channel(channel, supplier,
                           [&](EventChannel::Supplier& through, std::uint64_t id) {
                             channel.subscribe(through, id, std::move(sink), filter);
                           });
  }

  // Delivers one event: push_one(Consumer_ptr) is called once per consumer
  // by the strategy. No consumers: nothing happens.
  template <class PushOne>
  void push(Arg event, const PushOne& push_one) const {
    for (const PlainSubscriber& sub : plain_.snapshot()) sub.consumer->push(event);
    if (EventChannel::Supplier* supplier = supplier_.load(std::memory_order_acquire))
      supplier->channel().publish(*supplier, event_address<Arg>(event));
    const auto& subs = list_.snapshot();
    if (subs.empty()) return;
    const Target<PushOne> target(*this, subs, push_one);
    delivery_.load(std::memory_order_acquire)->deliver(target);
  }

  // Borrowed consumers, valid until the component is destroyed.
  const std::vector<Subscriber>& subscribers() const noexcept { return list_.snapshot(); }
  const std::vector<PlainSubscriber>& plain_subscribers() const noexcept {
    return plain_.snapshot();
  }
  std::size_t size() const noexcept {
    return list_.snapshot().size() + plain_.snapshot().size() + channel_routes_.snapshot().size();
  }

  // The strategy must outlive the source.
  void set_delivery(DeliveryStrategy& strategy) noexcept {
    delivery_.store(&strategy, std::memory_order_release);
  }
  DeliveryStrategy& delivery() const noexcept { return *delivery_.load(std::memory_order_acquire); }

  // SourcePort: by name, with the type checked once (_is_a) at connect time.
  Components::Cookie* subscribe_object(Components::EventConsumerBase_ptr consumer) override {
    require(Components::PUBLISHER, "subscribe");
    check_type(consumer, "subscribe");
    typename Consumer::_var_type typed = Consumer::_unchecked_narrow(consumer);
    return subscribe(typed.in());
  }
  Components::EventConsumerBase_ptr unsubscribe_object(Components::Cookie* ck) override {
    return unsubscribe(ck);
  }
  void connect_object(Components::EventConsumerBase_ptr consumer) override {
    require(Components::EMITTER, "connect_consumer");
    check_type(consumer, "connect_consumer");
    typename Consumer::_var_type typed = Consumer::_unchecked_narrow(consumer);
    connect(typed.in());
  }
  Components::EventConsumerBase_ptr disconnect_object() override { return disconnect(); }

  Components::Cookie* route_channel(EventChannel& channel, const std::string& supplier,
                                    std::shared_ptr<Gateway> gateway) override {
    return through_channel(channel, supplier,
                           [&](EventChannel::Supplier& through, std::uint64_t id) {
                             channel.route(through, id, std::move(gateway));
                           });
  }

  // Every consumer's reference; a plain C++ sink's is made on demand.
  Components::ConnectionDescriptions describe_connections() const override {
    const auto& subs = list_.snapshot();
    const auto& plain = plain_.snapshot();
    Components::ConnectionDescriptions out;
    out.length(static_cast<CORBA::ULong>(subs.size() + plain.size()));
    CORBA::ULong i = 0;
    for (const Subscriber& sub : subs) {
      if (sub.cookie != 0) out[i].ck = make_cookie(sub.cookie);
      out[i++].objref = CORBA::Object::_duplicate(sub.consumer.in());
    }
    for (const PlainSubscriber& sub : plain) {
      if (sub.cookie != 0) out[i].ck = make_cookie(sub.cookie);
      out[i++].objref = CORBA::Object::_duplicate(sub.sink->reference());
    }
    return out;
  }

 private:
  template <class PushOne>
  class Target final : public DeliveryTarget {
   public:
    Target(const EventSource& source, const std::vector<Subscriber>& subs, const PushOne& push_one)
        : source_(source), subs_(subs), push_one_(push_one) {}
    std::size_t size() const noexcept override { return subs_.size(); }
    CORBA::Object_ptr consumer(std::size_t i) const noexcept override {
      return subs_[i].consumer.in();
    }
    void push(std::size_t i) const override { push_one_(subs_[i].consumer.in()); }
    const std::string& source_name() const noexcept override { return source_.name(); }

   private:
    const EventSource& source_;
    const std::vector<Subscriber>& subs_;
    const PushOne& push_one_;
  };

  // A route of this source through `channel`, which knows it as `supplier`:
  // `add(supplier, route id)` makes it. A cookie for a publisher, null for
  // an emitter (which takes one consumer, whichever way).
  template <class Add>
  Components::Cookie* through_channel(EventChannel& channel, const std::string& supplier,
                                      Add&& add) {
    const bool publisher = kind() == Components::PUBLISHER;
    if (!publisher && size() != 0) detail::already_connected(*this, "connect_consumer");
    EventChannel::Supplier& through =
        channel.supplier(supplier, event_type_of(type_id()), event_codec<Arg>());
    EventChannel::Supplier* attached = supplier_.load(std::memory_order_acquire);
    if (attached != nullptr && attached != &through) {
      detail::another_channel(*this, attached->channel().name(), channel.name());
    }
    const std::uint64_t id = next_cookie_id();
    add(through, id);
    channel_routes_.update([&](std::vector<std::uint64_t>& routes) { routes.push_back(id); });
    supplier_.store(&through, std::memory_order_release);
    return publisher ? make_cookie(id) : nullptr;
  }

  bool unsubscribe_channel(std::uint64_t id) {
    EventChannel::Supplier* supplier = supplier_.load(std::memory_order_acquire);
    if (supplier == nullptr || !supplier->channel().remove(*supplier, id)) return false;
    channel_routes_.update([&](std::vector<std::uint64_t>& routes) { std::erase(routes, id); });
    return true;
  }

  void require(Components::PortKind kind, const char* operation) const {
    if (this->kind() != kind) detail::wrong_source_kind(*this, operation);
  }

  detail::SnapshotList<Subscriber> list_;
  detail::SnapshotList<PlainSubscriber> plain_;
  // Through the container's channel: the supplier it knows this source as
  // (set by the first such subscription, kept: a source has one channel),
  // and the routes' cookie ids.
  std::atomic<EventChannel::Supplier*> supplier_{nullptr};
  detail::SnapshotList<std::uint64_t> channel_routes_;
  std::atomic<DeliveryStrategy*> delivery_{&direct_delivery()};
};

}  // namespace mwccm
