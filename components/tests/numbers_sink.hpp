// A sink of Probe ticks that records their numbers, for the tests of
// channels and their gateways: a test waits until it has some.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <mwccm/local_consumer.hpp>
#include <mwccm/port.hpp>
#include <vector>

#include "probe/probe_executor.hpp"

namespace mwccm_test {

// A sink that records the numbers it is pushed, on whatever thread the
// receiver delivers on, and lets a test wait until it has `count` of them.
class Numbers final : public mwccm::LocalConsumer<Probe::Tick*> {
 public:
  void push(Probe::Tick* tick) override {
    {
      std::lock_guard lock(mutex_);
      seen_.push_back(tick->number());
    }
    grown_.notify_all();
  }
  // The numbers, once there are `count` (or after a minute: a hang).
  std::vector<CORBA::ULongLong> wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    grown_.wait_for(lock, std::chrono::minutes(1), [&] { return seen_.size() >= count; });
    return seen_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable grown_;
  std::vector<CORBA::ULongLong> seen_;
};

inline std::shared_ptr<mwccm::ProvidedPort> sink(Numbers*& numbers) {
  auto consumer = std::make_unique<Numbers>();
  numbers = consumer.get();
  return std::make_shared<mwccm::ProvidedPort>(
      "echoes", Components::CONSUMER, "IDL:Probe/TickConsumer:1.0", CORBA::Object::_nil(),
      std::move(consumer), []() -> PortableServer::ServantBase* { return nullptr; });
}

}  // namespace mwccm_test
