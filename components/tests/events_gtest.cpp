// Event sources: publisher fan-out with cookies, emitter with one consumer,
// the sink's type check, and a DeliveryStrategy other than the default.
#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using Events = ProbeFixture;

Probe::Tick_var tick(CORBA::ULongLong n) { return new Probe_glue::Tick_value(n); }

TEST_F(Events, PublisherReachesEverySubscriberInOrder) {
  ProbeNode source = create("source"), s1 = create("s1"), s2 = create("s2");
  Probe::TickConsumer_var c1 = s1.ref->get_consumer_echoes();
  Components::EventConsumerBase_var c2 = s2.ref->get_consumer("echoes");
  Components::Cookie_var k1 = source.ref->subscribe_ticks(c1.in());
  Components::Cookie_var k2 = source.ref->subscribe("ticks", c2.in());  // by name
  auto t = tick(7);
  source.exec->context()->push_ticks(t.in());
  EXPECT_EQ(s1.exec->echoes(), std::vector<CORBA::ULongLong>{7});
  EXPECT_EQ(s2.exec->echoes(), std::vector<CORBA::ULongLong>{7});
  Components::EventConsumerBase_var gone = source.ref->unsubscribe("ticks", k1.in());
  EXPECT_TRUE(gone->_is_equivalent(c1.in()));
  auto t2 = tick(8);
  source.exec->context()->push_ticks(t2.in());
  EXPECT_EQ(s1.exec->echoes().size(), 1u);
  EXPECT_EQ(s2.exec->echoes(), (std::vector<CORBA::ULongLong>{7, 8}));
}

TEST_F(Events, EmitterTakesOneConsumer) {
  ProbeNode source = create("source"), s1 = create("s1");
  Probe::TickConsumer_var c1 = s1.ref->get_consumer_echoes();
  source.ref->connect_consumer("alarms", c1.in());
  EXPECT_THROW(source.ref->connect_alarms(c1.in()), Components::AlreadyConnected);
  auto t = tick(3);
  source.exec->context()->push_alarms(t.in());
  EXPECT_EQ(s1.exec->echoes(), std::vector<CORBA::ULongLong>{3});
  Components::EventConsumerBase_var former = source.ref->disconnect_consumer("alarms");
  EXPECT_THROW(source.ref->disconnect_consumer("alarms"), Components::NoConnection);
}

TEST_F(Events, PushWithoutSubscribersDoesNothing) {
  ProbeNode source = create("source");
  auto t = tick(1);
  source.exec->context()->push_ticks(t.in());
  source.exec->context()->push_alarms(t.in());
}

TEST_F(Events, SubscribingTheWrongTypeIsInvalidConnection) {
  ProbeNode source = create("source");
  Components::EventConsumerBase_var not_a_tick_consumer =
      Components::EventConsumerBase::_unchecked_narrow(source.ref.in());
  EXPECT_THROW(source.ref->subscribe("ticks", not_a_tick_consumer.in()),
               Components::InvalidConnection);
}

TEST_F(Events, GenericPushEventReachesTheSink) {
  ProbeNode sink = create("sink");
  Components::EventConsumerBase_var c = sink.ref->get_consumer("echoes");
  auto t = tick(11);
  c->push_event(t.in());
  EXPECT_EQ(sink.exec->echoes(), std::vector<CORBA::ULongLong>{11});
}

class CountingDelivery final : public mwccm::DeliveryStrategy {
 public:
  void deliver(const mwccm::DeliveryTarget& target) override {
    ++pushes;
    for (std::size_t i = target.size(); i-- > 0;) target.push(i);  // reverse order
  }
  const char* name() const noexcept override { return "counting"; }
  int pushes = 0;
};

TEST_F(Events, SourceUsesItsDeliveryStrategy) {
  ProbeNode source = create("source"), s1 = create("s1");
  EXPECT_STREQ(source.servant->ticks_.delivery().name(), "direct");
  CountingDelivery counting;
  source.servant->ticks_.set_delivery(counting);
  Probe::TickConsumer_var c1 = s1.ref->get_consumer_echoes();
  Components::Cookie_var k = source.ref->subscribe_ticks(c1.in());
  auto t = tick(5);
  source.exec->context()->push_ticks(t.in());
  EXPECT_EQ(counting.pushes, 1);
  EXPECT_EQ(s1.exec->echoes(), std::vector<CORBA::ULongLong>{5});
  source.servant->ticks_.set_delivery(mwccm::direct_delivery());
}

}  // namespace
}  // namespace mwccm_test
