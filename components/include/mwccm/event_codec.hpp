// What an event channel needs to know of an event type (docs/events.md
// section 2): how to marshal one into CDR bytes for another container, how
// to unmarshal it there, and how to hand it to a sink's plain C++ consumer.
// One codec per event type as a sink's executor takes it (`Arg`): an
// eventtype `T*` (a valuetype, marshalled as omniidl marshals it) or a struct
// event `const S&` (its own operator>>=). The channel holds events as
// `const void*` pointing at the T or the S; codecs are the one place that
// knows the type behind it.
#pragma once

#include <omniORB4/CORBA.h>

#include <memory>
#include <type_traits>

namespace mwccm {

class LocalConsumerBase;
template <class Arg>
class LocalConsumer;  // local_consumer.hpp, which includes this

// An event unmarshalled by a codec, alive as long as the holder.
class ReceivedEvent {
 public:
  virtual ~ReceivedEvent() = default;
  virtual const void* event() const noexcept = 0;
};

class EventCodec {
 public:
  virtual ~EventCodec() = default;
  // The event's own repository id (an eventtype's most-derived one), or null
  // when only the declared type is known (a struct event).
  virtual const char* type_of(const void* event) const noexcept = 0;
  virtual void marshal(const void* event, cdrStream& out) const = 0;
  // CORBA::MARSHAL (or BAD_PARAM, from the value factory) if the bytes are
  // not one.
  virtual std::unique_ptr<ReceivedEvent> unmarshal(cdrStream& in) const = 0;
  // Calls `consumer` with the event; false if the consumer takes another type.
  virtual bool deliver(const void* event, LocalConsumerBase& consumer) const = 0;
};

namespace detail {

template <class T>
class ValueEventCodec final : public EventCodec {
  class Held final : public ReceivedEvent {
   public:
    explicit Held(T* value) : value_(value) {}
    ~Held() override {
      if (value_ != nullptr) value_->_remove_ref();
    }
    const void* event() const noexcept override { return value_; }

   private:
    T* value_;
  };

 public:
  const char* type_of(const void* event) const noexcept override {
    return static_cast<const T*>(event)->_NP_repositoryId();
  }
  void marshal(const void* event, cdrStream& out) const override {
    T::_NP_marshal(const_cast<T*>(static_cast<const T*>(event)), out);
  }
  std::unique_ptr<ReceivedEvent> unmarshal(cdrStream& in) const override {
    return std::make_unique<Held>(T::_NP_unmarshal(in));
  }
  bool deliver(const void* event, LocalConsumerBase& consumer) const override {
    auto* typed = dynamic_cast<LocalConsumer<T*>*>(&consumer);
    if (typed == nullptr) return false;
    typed->push(const_cast<T*>(static_cast<const T*>(event)));
    return true;
  }
};

template <class S>
class StructEventCodec final : public EventCodec {
  class Held final : public ReceivedEvent {
   public:
    const void* event() const noexcept override { return &value; }
    S value;
  };

 public:
  const char* type_of(const void*) const noexcept override { return nullptr; }
  void marshal(const void* event, cdrStream& out) const override {
    *static_cast<const S*>(event) >>= out;
  }
  std::unique_ptr<ReceivedEvent> unmarshal(cdrStream& in) const override {
    auto held = std::make_unique<Held>();
    held->value <<= in;
    return held;
  }
  bool deliver(const void* event, LocalConsumerBase& consumer) const override {
    auto* typed = dynamic_cast<LocalConsumer<const S&>*>(&consumer);
    if (typed == nullptr) return false;
    typed->push(*static_cast<const S*>(event));
    return true;
  }
};

}  // namespace detail

// The codec of events taken as `Arg` (`T*` or `const S&`); one per type.
template <class Arg>
const EventCodec& event_codec() {
  if constexpr (std::is_pointer_v<Arg>) {
    static const detail::ValueEventCodec<std::remove_pointer_t<Arg>> codec;
    return codec;
  } else {
    static const detail::StructEventCodec<std::remove_cvref_t<Arg>> codec;
    return codec;
  }
}

// The address a codec takes for an event pushed as `Arg`.
template <class Arg>
const void* event_address(Arg event) noexcept {
  if constexpr (std::is_pointer_v<Arg>) {
    return event;
  } else {
    return &event;
  }
}

}  // namespace mwccm
