// The container's event channel (docs/events.md): local sinks get the very
// object pushed, each exactly once and in order; filters; a gateway's events
// are marshalled once per container and unmarshalled once on the other
// side; a gateway that fails is counted while the local sinks still get
// everything; and through the ports, as a deployment connects them.
#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <mwccm/event_channel.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using mwccm::EventChannel;
using mwccm::EventFilter;

const std::string kTick = "IDL:Probe/Tick:1.0";

// A sink that records what it was given: the object and its number. With
// `yields`, it lets another thread run before it records, as a sink that
// does some work would.
class Recorder final : public mwccm::LocalConsumer<Probe::Tick*> {
 public:
  void push(Probe::Tick* tick) override {
    if (yields) std::this_thread::yield();
    const std::lock_guard lock(mutex);
    objects.push_back(tick);
    numbers.push_back(tick->number());
  }
  bool yields = false;
  std::mutex mutex;
  std::vector<const void*> objects;
  std::vector<CORBA::ULongLong> numbers;
};

struct Sink {
  Recorder* recorder;
  std::shared_ptr<mwccm::ProvidedPort> port;
};

Sink sink(const char* name) {
  auto recorder = std::make_unique<Recorder>();
  Recorder* raw = recorder.get();
  auto port = std::make_shared<mwccm::ProvidedPort>(
      name, Components::CONSUMER, "IDL:Probe/TickConsumer:1.0", CORBA::Object::_nil(),
      std::move(recorder), []() -> PortableServer::ServantBase* {
        throw std::logic_error("a channel never asks a sink for its servant");
      });
  return {raw, port};
}

EventChannel::Supplier& ticks(EventChannel& channel, const char* id = "source.ticks") {
  return channel.supplier(id, kTick, mwccm::event_codec<Probe::Tick*>());
}

void publish(EventChannel& channel, EventChannel::Supplier& supplier, CORBA::ULongLong n) {
  Probe::Tick_var tick = new Probe_glue::Tick_value(n);
  channel.publish(supplier, tick.in());
}

// Hands what it is sent to another channel, as a gateway's receiver would.
class LoopGateway final : public mwccm::Gateway {
 public:
  explicit LoopGateway(EventChannel* to) : to_(to) {}
  bool send(const std::string& supplier, std::uint64_t sequence,
            std::span<const char> cdr) override {
    ++sent;
    if (to_ == nullptr) return false;  // a peer gone
    to_->receive(supplier, sequence, cdr);
    return true;
  }
  std::string describe() const override { return "loop"; }
  int sent = 0;

 private:
  EventChannel* to_;
};

TEST(EventChannel, EveryLocalSinkGetsThePushedObjectOnceInOrder) {
  EventChannel channel("c");
  auto& supplier = ticks(channel);
  Sink a = sink("a"), b = sink("b");
  channel.subscribe(supplier, 1, a.port, {});
  channel.subscribe(supplier, 2, b.port, {});
  Probe::Tick_var first = new Probe_glue::Tick_value(1);
  channel.publish(supplier, first.in());
  publish(channel, supplier, 2);
  EXPECT_EQ(a.recorder->numbers, (std::vector<CORBA::ULongLong>{1, 2}));
  EXPECT_EQ(b.recorder->numbers, (std::vector<CORBA::ULongLong>{1, 2}));
  // One physical copy, many logical ones.
  EXPECT_EQ(a.recorder->objects[0], static_cast<const void*>(first.in()));
  EXPECT_EQ(b.recorder->objects[0], static_cast<const void*>(first.in()));
  EXPECT_EQ(channel.counters().published, 2u);
  EXPECT_EQ(channel.counters().delivered, 4u);
  EXPECT_TRUE(channel.remove(supplier, 1));
  EXPECT_FALSE(channel.remove(supplier, 1));
  publish(channel, supplier, 3);
  EXPECT_EQ(a.recorder->numbers.size(), 2u);
  EXPECT_EQ(b.recorder->numbers.size(), 3u);
}

// A sink that runs `during` while it is being called.
class Hooked final : public mwccm::LocalConsumer<Probe::Tick*> {
 public:
  explicit Hooked(std::function<void()> during) : during_(std::move(during)) {}
  void push(Probe::Tick*) override { during_(); }

 private:
  std::function<void()> during_;
};

std::shared_ptr<mwccm::ProvidedPort> hooked_sink(std::function<void()> during) {
  return std::make_shared<mwccm::ProvidedPort>(
      "hooked", Components::CONSUMER, "IDL:Probe/TickConsumer:1.0", CORBA::Object::_nil(),
      std::make_unique<Hooked>(std::move(during)), []() -> PortableServer::ServantBase* {
        throw std::logic_error("a channel never asks a sink for its servant");
      });
}

// A component is destroyed once its routes are removed: removing one must
// wait for a delivery still calling its sink (a receiver's thread).
TEST(EventChannel, RemovingARouteWaitsForTheDeliveryThatUsesIt) {
  EventChannel channel("c");
  std::promise<void> entered, release;
  std::shared_future<void> gate = release.get_future().share();
  std::atomic<bool> sink_finished{false};
  auto& supplier = ticks(channel);
  channel.subscribe(supplier, 1, hooked_sink([&] {
                      entered.set_value();
                      gate.wait();
                      sink_finished = true;
                    }),
                    {});
  std::thread publisher([&] { publish(channel, supplier, 1); });
  entered.get_future().wait();
  std::atomic<bool> removing{false};
  bool finished_when_removed = false;
  std::thread remover([&] {
    removing = true;
    EXPECT_TRUE(channel.remove(supplier, 1));
    finished_when_removed = sink_finished;
  });
  while (!removing) std::this_thread::yield();
  release.set_value();
  remover.join();
  publisher.join();
  EXPECT_TRUE(finished_when_removed);
}

TEST(EventChannel, ASinkMayRemoveItsOwnRouteWhileCalled) {
  EventChannel channel("c");
  auto& supplier = ticks(channel);
  int calls = 0;
  channel.subscribe(supplier, 1, hooked_sink([&] {
                      ++calls;
                      EXPECT_TRUE(channel.remove(supplier, 1));  // returns: no self-wait
                    }),
                    {});
  publish(channel, supplier, 1);
  publish(channel, supplier, 2);
  EXPECT_EQ(calls, 1);
}

TEST(EventChannel, FiltersWithholdAndCount) {
  EventChannel channel("c");
  auto& gps = ticks(channel, "gps.ready");
  auto& rate = ticks(channel, "rate_gen.tick");
  Sink only_gps = sink("g"), typed = sink("t");
  channel.subscribe(gps, 1, only_gps.port, EventFilter::parse("disjunction: source=gps.ready"));
  channel.subscribe(rate, 2, only_gps.port, EventFilter::parse("disjunction: source=gps.ready"));
  channel.subscribe(rate, 3, typed.port,
                    EventFilter::parse("conjunction: source=rate_gen.tick, type=" + kTick));
  publish(channel, gps, 1);
  publish(channel, rate, 2);
  EXPECT_EQ(only_gps.recorder->numbers, std::vector<CORBA::ULongLong>{1});
  EXPECT_EQ(typed.recorder->numbers, std::vector<CORBA::ULongLong>{2});
  EXPECT_EQ(channel.counters().filtered, 1u);
}

TEST(EventFilter, ParsesAndRefusesWhatIsNotOne) {
  const auto filter = EventFilter::parse(" conjunction : source=a.b ,type=IDL:M/E:1.0");
  EXPECT_EQ(filter.text(), "conjunction: source=a.b, type=IDL:M/E:1.0");
  EXPECT_TRUE(filter.passes("a.b", "IDL:M/E:1.0", ""));
  EXPECT_FALSE(filter.passes("a.b", "IDL:M/F:1.0", ""));
  EXPECT_TRUE(filter.passes("a.b", nullptr, "IDL:M/E:1.0"));  // the declared type
  EXPECT_TRUE(EventFilter().passes("anything", nullptr, ""));
  for (const char* bad : {"", "source=a.b", "either: source=a.b",
                          "disjunction:", "disjunction: sauce=a.b", "disjunction: source="}) {
    EXPECT_THROW(EventFilter::parse(bad), std::invalid_argument) << bad;
  }
}

TEST(EventChannel, AGatewaySendsOncePerContainerAndTheOtherSideUnmarshalsOnce) {
  Probe_glue::register_value_factories(orb());  // to unmarshal a Tick
  EventChannel here("here"), there("there");
  auto& supplier = ticks(here);
  Sink local = sink("local"), far1 = sink("far1"), far2 = sink("far2");
  here.subscribe(supplier, 1, local.port, {});
  there.accept("source.ticks", kTick, 7, far1.port, {});
  there.accept("source.ticks", kTick, 8, far2.port, {});
  auto gateway = std::make_shared<LoopGateway>(&there);
  here.route(supplier, 2, gateway);
  publish(here, supplier, 41);
  publish(here, supplier, 42);
  EXPECT_EQ(gateway->sent, 2);  // once per event, for two sinks over there
  EXPECT_EQ(far1.recorder->numbers, (std::vector<CORBA::ULongLong>{41, 42}));
  EXPECT_EQ(far2.recorder->numbers, (std::vector<CORBA::ULongLong>{41, 42}));
  EXPECT_EQ(far1.recorder->objects[0], far2.recorder->objects[0]);  // unmarshalled once
  EXPECT_EQ(there.counters().received, 2u);
  EXPECT_EQ(there.counters().delivered, 4u);
  EXPECT_EQ(here.counters().sent, 2u);
}

// A plan chooses the gateway per connection: one source may reach a process
// by two gateways. Every sink there still gets each event once.
TEST(EventChannel, AnEventThatComesByTwoGatewaysIsDeliveredOnce) {
  Probe_glue::register_value_factories(orb());
  EventChannel here("here"), there("there");
  auto& supplier = ticks(here);
  Sink by_udp = sink("by_udp"), by_multicast = sink("by_multicast");
  there.accept("source.ticks", kTick, 7, by_udp.port, {});
  there.accept("source.ticks", kTick, 8, by_multicast.port, {});
  here.route(supplier, 1, std::make_shared<LoopGateway>(&there));
  here.route(supplier, 2, std::make_shared<LoopGateway>(&there));
  for (CORBA::ULongLong n = 1; n <= 3; ++n) publish(here, supplier, n);
  EXPECT_EQ(by_udp.recorder->numbers, (std::vector<CORBA::ULongLong>{1, 2, 3}));
  EXPECT_EQ(by_multicast.recorder->numbers, (std::vector<CORBA::ULongLong>{1, 2, 3}));
  const EventChannel::Counters counted = there.counters();
  EXPECT_EQ(counted.received, 6u);
  EXPECT_EQ(counted.duplicates, 3u);
  EXPECT_EQ(counted.delivered, 6u);  // 3 events × 2 sinks
  EXPECT_EQ(counted.lost, 0u);
}

// Keeps what it is sent, to be received later, as a gateway's socket would.
class HeldGateway final : public mwccm::Gateway {
 public:
  struct Sent {
    std::string supplier;
    std::uint64_t sequence;
    std::vector<char> cdr;
  };
  bool send(const std::string& supplier, std::uint64_t sequence,
            std::span<const char> cdr) override {
    held.push_back({supplier, sequence, {cdr.begin(), cdr.end()}});
    return true;
  }
  std::string describe() const override { return "held"; }
  std::vector<Sent> held;
};

// Each gateway's receiver takes its copies in the order sent, on a thread
// of its own; a sink sees the events in that order, whichever copy comes
// first, even while both receivers deliver at once.
TEST(EventChannel, ASinkSeesEventsInOrderWhileTwoGatewaysDeliverAtOnce) {
  Probe_glue::register_value_factories(orb());
  EventChannel here("here"), there("there");
  auto& supplier = ticks(here);
  auto gateway = std::make_shared<HeldGateway>();
  here.route(supplier, 1, gateway);
  constexpr CORBA::ULongLong kEvents = 2000;
  for (CORBA::ULongLong n = 1; n <= kEvents; ++n) publish(here, supplier, n);
  Sink sink_there = sink("sink");
  sink_there.recorder->yields = true;
  there.accept("source.ticks", kTick, 7, sink_there.port, {});
  const auto receiver = [&] {
    for (const auto& sent : gateway->held) there.receive(sent.supplier, sent.sequence, sent.cdr);
  };
  std::thread udp(receiver), multicast(receiver);
  udp.join();
  multicast.join();
  std::vector<CORBA::ULongLong> expected(kEvents);
  for (CORBA::ULongLong n = 1; n <= kEvents; ++n) expected[n - 1] = n;
  EXPECT_EQ(sink_there.recorder->numbers, expected);
  EXPECT_EQ(there.counters().duplicates, kEvents);
}

// Sequence numbers 1 2 4 3 6, then 4 again: 5 is lost, 3 came late, the
// second 4 is dropped; each that came first is delivered.
TEST(EventChannel, ArrivalsAreCountedLostLateOrTwiceBySequence) {
  Probe_glue::register_value_factories(orb());
  EventChannel here("here"), there("there");
  auto& supplier = ticks(here);
  Sink far = sink("far");
  there.accept("source.ticks", kTick, 1, far.port, {});
  struct Capture final : mwccm::Gateway {
    bool send(const std::string&, std::uint64_t, std::span<const char> cdr) override {
      events.emplace_back(cdr.begin(), cdr.end());
      return true;
    }
    std::string describe() const override { return "capture"; }
    std::vector<std::vector<char>> events;
  };
  auto capture = std::make_shared<Capture>();
  here.route(supplier, 2, capture);
  for (CORBA::ULongLong n = 1; n <= 6; ++n) publish(here, supplier, n);
  for (std::uint64_t sequence : {1, 2, 4, 3, 6, 4}) {
    there.receive("source.ticks", sequence, capture->events[sequence - 1]);
  }
  EXPECT_EQ(far.recorder->numbers, (std::vector<CORBA::ULongLong>{1, 2, 4, 3, 6}));
  const std::vector<EventChannel::InboundCounters> inbound = there.inbound();
  ASSERT_EQ(inbound.size(), 1u);
  EXPECT_EQ(inbound[0].supplier, "source.ticks");
  EXPECT_EQ(inbound[0].received, 6u);
  EXPECT_EQ(inbound[0].lost, 1u);
  EXPECT_EQ(inbound[0].out_of_order, 1u);
  EXPECT_EQ(inbound[0].duplicates, 1u);
}

TEST(EventChannel, AGatewayThatFailsIsCountedAndLocalSinksGoOn) {
  EventChannel here("here");
  auto& supplier = ticks(here);
  Sink local = sink("local");
  here.subscribe(supplier, 1, local.port, {});
  here.route(supplier, 2, std::make_shared<LoopGateway>(nullptr));
  publish(here, supplier, 1);
  publish(here, supplier, 2);
  EXPECT_EQ(local.recorder->numbers, (std::vector<CORBA::ULongLong>{1, 2}));
  EXPECT_EQ(here.counters().undeliverable, 2u);
}

TEST(EventChannel, BytesOfNoKnownSourceOrNoEventAreCounted) {
  EventChannel there("there");
  const char garbage[] = {0, 1, 2, 3};
  there.receive("nobody.here", 1, garbage);
  Sink far = sink("far");
  there.accept("source.ticks", kTick, 1, far.port, {});
  there.receive("source.ticks", 1, garbage);
  EXPECT_EQ(there.counters().unreadable, 2u);
  EXPECT_TRUE(far.recorder->numbers.empty());
}

using ChannelPorts = ProbeFixture;

TEST_F(ChannelPorts, APublisherReachesSinksThroughItsContainersChannel) {
  ProbeNode source = create("source"), s1 = create("s1"), s2 = create("s2");
  EventChannel& channel = container_->channel();
  Components::Cookie_var k1 = source.servant->ports().subscribe_channel(
      "ticks", channel, "source.ticks", s1.servant->ports(), "echoes", {});
  Components::Cookie_var k2 = source.servant->ports().subscribe_channel(
      "ticks", channel, "source.ticks", s2.servant->ports(), "echoes", {});
  Probe::Tick_var tick = new Probe_glue::Tick_value(5);
  source.exec->context()->push_ticks(tick.in());
  EXPECT_EQ(s1.exec->echoes(), std::vector<CORBA::ULongLong>{5});
  EXPECT_EQ(s2.exec->echoes(), std::vector<CORBA::ULongLong>{5});
  Components::EventConsumerBase_var gone = source.ref->unsubscribe("ticks", k1.in());
  tick->number(6);
  source.exec->context()->push_ticks(tick.in());
  EXPECT_EQ(s1.exec->echoes(), std::vector<CORBA::ULongLong>{5});
  EXPECT_EQ(s2.exec->echoes(), (std::vector<CORBA::ULongLong>{5, 6}));
}

TEST_F(ChannelPorts, AnEmitterTakesOneConsumerThroughTheChannelToo) {
  ProbeNode source = create("source"), a = create("a"), b = create("b");
  EventChannel& channel = container_->channel();
  source.servant->ports().subscribe_channel("alarms", channel, "source.alarms", a.servant->ports(),
                                            "echoes", {});
  EXPECT_THROW(source.servant->ports().subscribe_channel("alarms", channel, "source.alarms",
                                                         b.servant->ports(), "echoes", {}),
               Components::AlreadyConnected);
  Components::EventConsumerBase_var former = source.ref->disconnect_consumer("alarms");
  EXPECT_THROW(source.ref->disconnect_consumer("alarms"), Components::NoConnection);
}

TEST_F(ChannelPorts, ASourcePublishesThroughOneChannel) {
  ProbeNode source = create("source"), a = create("a");
  EventChannel other("elsewhere");
  Components::Cookie_var k = source.servant->ports().subscribe_channel(
      "ticks", container_->channel(), "source.ticks", a.servant->ports(), "echoes", {});
  EXPECT_THROW(source.servant->ports().subscribe_channel("ticks", other, "source.ticks",
                                                         a.servant->ports(), "echoes", {}),
               Components::InvalidConnection);
}

}  // namespace
}  // namespace mwccm_test
