// What an event channel needs to know of an event type (docs/events.md
// section 2): how to marshal one into CDR bytes for another container, how
// to unmarshal it there, and how to hand it to a sink's plain C++ consumer.
// One codec per event type as a sink's executor takes it (`Arg`): an
// eventtype `T*` (a valuetype, marshalled as omniidl marshals it) or a struct
// event `const S&` (its own operator>>=). The channel holds events as
// `const void*` pointing at the T or the S; codecs are the one place that
// knows the type behind it.
//
// No allocation per event (docs/events.md section 2): an eventtype of the
// declared type goes as a form octet and its state (_PR_marshal_state), with
// no value header, so omniORB makes no value tracker; the receiving side
// unmarshals that state into the event it delivered last, once nothing else
// holds it. An event of a derived type goes as a whole value (omniORB's
// encoding, allocations included), so that its own type arrives.
#pragma once

#include <omniORB4/CORBA.h>  // with valueType.h: omniValueType, _omni_ValueFactoryManager

#include <cstring>
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
  // The event in `in`, held by `slot`: the event `slot` holds, overwritten,
  // when nothing else holds it (no allocation), else a new one. CORBA::MARSHAL
  // (or BAD_PARAM, from the value factory) if the bytes are not one.
  virtual const void* unmarshal(cdrStream& in, std::unique_ptr<ReceivedEvent>& slot) const = 0;
  // Calls `consumer` with the event; false if the consumer takes another type.
  virtual bool deliver(const void* event, LocalConsumerBase& consumer) const = 0;
};

namespace detail {

// The first octet of a marshalled eventtype: how the rest is encoded.
enum ValueForm : CORBA::Octet { kStateOfDeclaredType = 0, kWholeValue = 1 };

template <class T>
class ValueEventCodec final : public EventCodec {
  class Held final : public ReceivedEvent {
   public:
    Held(T* value, bool declared_type) : value_(value), declared_type_(declared_type) {}
    ~Held() override {
      if (value_ != nullptr) value_->_remove_ref();
    }
    const void* event() const noexcept override { return value_; }
    T* value() const noexcept { return value_; }
    // Whether its state can be overwritten: of the declared type, and held
    // by nobody else (a sink that kept it took a reference).
    bool reusable() const noexcept { return declared_type_ && value_->_refcount_value() == 1; }

   private:
    T* value_;
    bool declared_type_;
  };

  static bool of_declared_type(const T* value) noexcept {
    return value != nullptr && std::strcmp(value->_NP_repositoryId(), T::_PD_repoId) == 0;
  }

  // A new value of the declared type, from its registered factory.
  static T* make_value() {
    CORBA::ValueBase* made = _omni_ValueFactoryManager::create_for_unmarshal(
        T::_PD_repoId, omniValueType::hash_id(T::_PD_repoId));
    T* typed = made == nullptr ? nullptr : T::_downcast(made);
    if (typed == nullptr) {
      if (made != nullptr) made->_remove_ref();
      throw CORBA::MARSHAL(0, CORBA::COMPLETED_NO);  // no factory for the type here
    }
    return typed;
  }

 public:
  const char* type_of(const void* event) const noexcept override {
    return static_cast<const T*>(event)->_NP_repositoryId();
  }
  void marshal(const void* event, cdrStream& out) const override {
    const T* value = static_cast<const T*>(event);
    if (of_declared_type(value)) {
      out.marshalOctet(kStateOfDeclaredType);
      value->_PR_marshal_state(out);
    } else {
      out.marshalOctet(kWholeValue);
      T::_NP_marshal(const_cast<T*>(value), out);
    }
  }
  const void* unmarshal(cdrStream& in, std::unique_ptr<ReceivedEvent>& slot) const override {
    const CORBA::Octet form = in.unmarshalOctet();
    if (form == kWholeValue) {
      T* value = T::_NP_unmarshal(in);
      slot = std::make_unique<Held>(value, of_declared_type(value));
      return value;
    }
    if (form != kStateOfDeclaredType) throw CORBA::MARSHAL(0, CORBA::COMPLETED_NO);
    auto* held = dynamic_cast<Held*>(slot.get());
    if (held == nullptr || !held->reusable()) {
      slot = std::make_unique<Held>(make_value(), true);
      held = static_cast<Held*>(slot.get());
    }
    held->value()->_PR_unmarshal_state(in);
    return held->value();
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
  // A sink takes a struct event as `const S&` for the call only: the one
  // held is always overwritten (its sequences keep their buffers).
  const void* unmarshal(cdrStream& in, std::unique_ptr<ReceivedEvent>& slot) const override {
    auto* held = dynamic_cast<Held*>(slot.get());
    if (held == nullptr) {
      slot = std::make_unique<Held>();
      held = static_cast<Held*>(slot.get());
    }
    held->value <<= in;
    return &held->value;
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
