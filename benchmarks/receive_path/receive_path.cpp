// The receiving side of an event channel, alone: EventChannel::receive() of
// one remote supplier's events into one sink, in a loop on one thread, and
// beside it what the per-supplier ordering lock (Inbound::in_order, a
// std::recursive_mutex taken once per event) costs by itself, uncontended:
// the share of the receive path that lock is. Prints both in ns per event.
//
//   build/benchmarks/receive_path/mwccm-receive-path [EVENTS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <mwccm/event_channel.hpp>
#include <mwccm/local_consumer.hpp>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// An event as a struct event of one number (a struct codec: no value factory).
class Sink final : public mwccm::LocalConsumer<const CORBA::ULongLong&> {
 public:
  void push(const CORBA::ULongLong& number) override { last = number; }
  volatile CORBA::ULongLong last = 0;
};

double ns_per(Clock::duration elapsed, std::uint64_t count) {
  return std::chrono::duration<double, std::nano>(elapsed).count() / static_cast<double>(count);
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  mwccm::EventChannel channel("there");
  auto consumer = std::make_unique<Sink>();
  Sink& sink = *consumer;
  channel.accept(
      "source.numbers", "IDL:Numbers:1.0", 1,
      std::make_shared<mwccm::ProvidedPort>(
          "numbers", Components::CONSUMER, "IDL:NumbersConsumer:1.0", CORBA::Object::_nil(),
          std::move(consumer), []() -> PortableServer::ServantBase* { return nullptr; }),
      {});
  // The bytes a sending channel makes for one event, made once.
  cdrEncapsulationStream cdr;
  mwccm::event_codec<const CORBA::ULongLong&>().marshal(&events, cdr);
  const std::vector<char> bytes(static_cast<const char*>(cdr.bufPtr()),
                                static_cast<const char*>(cdr.bufPtr()) + cdr.bufSize());

  for (std::uint64_t n = 1; n <= events / 10; ++n) channel.receive("source.numbers", n, bytes);
  const auto start = Clock::now();
  for (std::uint64_t n = events / 10 + 1; n <= events / 10 + events; ++n)
    channel.receive("source.numbers", n, bytes);
  const double receive = ns_per(Clock::now() - start, events);

  std::recursive_mutex in_order;
  const auto locked = Clock::now();
  for (std::uint64_t n = 0; n < events; ++n) {
    const std::lock_guard lock(in_order);
    sink.last = n;
  }
  const double lock = ns_per(Clock::now() - locked, events);
  std::printf("receive() %.1f ns/event; the in_order lock and unlock alone %.1f ns (%.0f%%)\n",
              receive, lock, 100.0 * lock / receive);
  return sink.last == 0 ? 1 : 0;
}
