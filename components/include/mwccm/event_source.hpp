// Event sources. A publisher (`publishes`) has any number of subscribers,
// each with a cookie; an emitter (`emits`) at most one consumer. A push hands
// the current consumers and the typed call to the source's DeliveryStrategy
// (DirectDelivery unless set_delivery chose another): the glue writes
//
//   ticks_.push([&](Bench::TickConsumer_ptr c) { c->push_Tick(event); });
//
// and the push takes no lock and allocates nothing (consumers are a snapshot,
// as in receptacles.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <mwccm/cookie.hpp>
#include <mwccm/detail/port_errors.hpp>
#include <mwccm/detail/snapshot_list.hpp>
#include <mwccm/event_delivery.hpp>
#include <mwccm/port.hpp>
#include <vector>

namespace mwccm {

enum class SourceKind { publisher, emitter };

template <class Consumer>
class EventSource final : public SourcePort {
 public:
  using ptr_type = typename Consumer::_ptr_type;
  struct Subscriber {
    typename Consumer::_var_type consumer;
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
    list_.update([&](std::vector<Subscriber>& subs) {
      for (auto it = subs.begin(); it != subs.end(); ++it) {
        if (id && it->cookie == *id) {
          former = Consumer::_duplicate(it->consumer.in());
          subs.erase(it);
          return;
        }
      }
      detail::bad_cookie(*this, "unsubscribe");
    });
    return former;
  }

  // Emitter (connect_<name>): at most one consumer; AlreadyConnected otherwise.
  void connect(ptr_type consumer) {
    require(Components::EMITTER, "connect_consumer");
    if (CORBA::is_nil(consumer)) detail::nil_reference(*this, "connect_consumer");
    list_.update([&](std::vector<Subscriber>& subs) {
      if (!subs.empty()) detail::already_connected(*this, "connect_consumer");
      subs.push_back(Subscriber{Consumer::_duplicate(consumer), 0});
    });
  }

  // Emitter (disconnect_<name>): the former consumer; NoConnection if none.
  ptr_type disconnect() {
    require(Components::EMITTER, "disconnect_consumer");
    ptr_type former = Consumer::_nil();
    list_.update([&](std::vector<Subscriber>& subs) {
      if (subs.empty()) detail::not_connected(*this, "disconnect_consumer");
      former = Consumer::_duplicate(subs.front().consumer.in());
      subs.clear();
    });
    return former;
  }

  // Delivers one event: push_one(Consumer_ptr) is called once per consumer
  // by the strategy. No consumers: nothing happens.
  template <class PushOne>
  void push(const PushOne& push_one) const {
    const auto& subs = list_.snapshot();
    if (subs.empty()) return;
    const Target<PushOne> target(*this, subs, push_one);
    delivery_.load(std::memory_order_acquire)->deliver(target);
  }

  // Borrowed consumers, valid until the component is destroyed.
  const std::vector<Subscriber>& subscribers() const noexcept { return list_.snapshot(); }
  std::size_t size() const noexcept { return list_.snapshot().size(); }

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

  Components::ConnectionDescriptions describe_connections() const override {
    const auto& subs = list_.snapshot();
    Components::ConnectionDescriptions out;
    out.length(static_cast<CORBA::ULong>(subs.size()));
    for (CORBA::ULong i = 0; i < out.length(); ++i) {
      if (subs[i].cookie != 0) out[i].ck = make_cookie(subs[i].cookie);
      out[i].objref = CORBA::Object::_duplicate(subs[i].consumer.in());
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

  void require(Components::PortKind kind, const char* operation) const {
    if (this->kind() != kind) detail::wrong_source_kind(*this, operation);
  }

  detail::SnapshotList<Subscriber> list_;
  std::atomic<DeliveryStrategy*> delivery_{&direct_delivery()};
};

}  // namespace mwccm
