// How an event source reaches its consumers. A source hands each push to a
// DeliveryStrategy; DirectDelivery (the baseline) makes one CORBA call per
// consumer, in subscription order, on the pushing thread. Channel and
// federation strategies plug in here without touching sources or glue.
#pragma once

#include <omniORB4/CORBA.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace mwccm {

// One push, seen by a strategy: the consumers of the source at the moment of
// the push, and the typed call that delivers the event to consumer i.
class DeliveryTarget {
 public:
  virtual std::size_t size() const noexcept = 0;
  virtual CORBA::Object_ptr consumer(std::size_t i) const noexcept = 0;  // borrowed
  virtual void push(std::size_t i) const = 0;                            // may throw CORBA errors
  virtual const std::string& source_name() const noexcept = 0;

 protected:
  ~DeliveryTarget() = default;
};

class DeliveryStrategy {
 public:
  virtual ~DeliveryStrategy() = default;
  // Delivers the event to every consumer of `target`. A target lives only for
  // the call: a strategy that defers delivery must copy the event first.
  virtual void deliver(const DeliveryTarget& target) = 0;
  virtual const char* name() const noexcept = 0;
};

// One CORBA call per consumer on the pushing thread. A consumer that fails
// (gone, unreachable) does not stop delivery to the others; failures are
// counted, not thrown, because a publisher must not depend on its sinks.
class DirectDelivery final : public DeliveryStrategy {
 public:
  void deliver(const DeliveryTarget& target) override;
  const char* name() const noexcept override { return "direct"; }
  std::uint64_t failures() const noexcept { return failures_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> failures_{0};
};

// The process-wide DirectDelivery every source starts with.
DirectDelivery& direct_delivery() noexcept;

}  // namespace mwccm
