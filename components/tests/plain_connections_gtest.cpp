// Plain C++ connections (a plan's Local_Interface connections): a receptacle
// calls the facet's executor, a source pushes to the sink's executor, with
// no servant made for either; navigation still answers with references,
// made when asked for; and they are undone as CORBA connections are.
#include <string>

#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using PlainConnections = ProbeFixture;

const mwccm::ProvidedPort& provided(const ProbeNode& node, const char* name) {
  for (const auto& port : node.servant->ports().provided()) {
    if (port->name() == name) return *port;
  }
  throw std::runtime_error(std::string("no provided port ") + name);
}

TEST_F(PlainConnections, AReceptacleCallsTheFacetExecutorWithoutAServant) {
  ProbeNode a = create("a"), b = create("b");
  a.servant->ports().connect_plain("peer", b.servant->ports(), "count");
  EXPECT_EQ(a.servant->peer_.borrow()->increment(4), 4);  // the executor's hot path
  EXPECT_FALSE(provided(b, "count").has_servant());
  // The CCM accessor asks for the facet's reference: made now, reaching the same executor.
  Probe::Counter_var by_reference = a.exec->context()->get_connection_peer();
  EXPECT_TRUE(provided(b, "count").has_servant());
  EXPECT_EQ(by_reference->increment(1), 5);
  EXPECT_TRUE(by_reference->_is_equivalent(Probe::Counter_var(facet(b)).in()));
  CORBA::Object_var former = a.ref->disconnect("peer", nullptr);
  EXPECT_TRUE(CORBA::is_nil(former.in()));  // a plain connection has no reference to return
  EXPECT_FALSE(a.servant->peer_.is_connected());
}

TEST_F(PlainConnections, NoServantIsMadeUntilAReferenceIsAskedFor) {
  ProbeNode a = create("a"), b = create("b");
  a.servant->ports().connect_plain("peer", b.servant->ports(), "count");
  Components::Cookie_var cookie =
      a.servant->ports().subscribe_plain("ticks", b.servant->ports(), "echoes");
  a.servant->peer_.borrow()->increment(1);
  Probe::Tick_var tick = new Probe_glue::Tick_value(3);
  a.exec->context()->push_ticks(tick.in());
  EXPECT_FALSE(provided(b, "count").has_servant());
  EXPECT_FALSE(provided(b, "echoes").has_servant());
  EXPECT_EQ(b.exec->echoes(), std::vector<CORBA::ULongLong>{3});
}

TEST_F(PlainConnections, APublisherPushesToPlainAndCorbaSubscribersAlike) {
  ProbeNode source = create("source"), plain = create("plain"), remote = create("remote");
  Components::Cookie_var k1 =
      source.servant->ports().subscribe_plain("ticks", plain.servant->ports(), "echoes");
  Probe::TickConsumer_var consumer = remote.ref->get_consumer_echoes();
  Components::Cookie_var k2 = source.ref->subscribe_ticks(consumer.in());
  Probe::Tick_var tick = new Probe_glue::Tick_value(7);
  source.exec->context()->push_ticks(tick.in());
  EXPECT_EQ(plain.exec->echoes(), std::vector<CORBA::ULongLong>{7});
  EXPECT_EQ(remote.exec->echoes(), std::vector<CORBA::ULongLong>{7});
  // Navigation lists both subscribers, the plain one by its sink's reference.
  Components::PortDescriptions_var ports = source.ref->get_all_ports();
  EXPECT_EQ(ports[3].connections.length(), 2u);
  Components::EventConsumerBase_var gone = source.ref->unsubscribe("ticks", k1.in());
  EXPECT_TRUE(CORBA::is_nil(gone.in()));
  tick->number(8);
  source.exec->context()->push_ticks(tick.in());
  EXPECT_EQ(plain.exec->echoes(), std::vector<CORBA::ULongLong>{7});
  EXPECT_EQ(remote.exec->echoes(), (std::vector<CORBA::ULongLong>{7, 8}));
}

TEST_F(PlainConnections, AnEmitterTakesOneConsumerWhicheverWay) {
  ProbeNode source = create("source"), a = create("a"), b = create("b");
  source.servant->ports().subscribe_plain("alarms", a.servant->ports(), "echoes");
  Probe::TickConsumer_var consumer = b.ref->get_consumer_echoes();
  EXPECT_THROW(source.ref->connect_alarms(consumer.in()), Components::AlreadyConnected);
  EXPECT_THROW(source.servant->ports().subscribe_plain("alarms", b.servant->ports(), "echoes"),
               Components::AlreadyConnected);
  Components::EventConsumerBase_var former = source.ref->disconnect_consumer("alarms");
  EXPECT_THROW(source.ref->disconnect_consumer("alarms"), Components::NoConnection);
}

TEST_F(PlainConnections, ASimplexReceptacleIsConnectedOnce) {
  ProbeNode a = create("a"), b = create("b");
  a.servant->ports().connect_plain("peer", b.servant->ports(), "count");
  EXPECT_THROW(a.servant->ports().connect_plain("peer", b.servant->ports(), "count"),
               Components::AlreadyConnected);
}

TEST_F(PlainConnections, PortsOfTheWrongKindAreRefusedByName) {
  ProbeNode a = create("a"), b = create("b");
  EXPECT_THROW(a.servant->ports().connect_plain("peer", b.servant->ports(), "echoes"),
               Components::InvalidName);  // a sink is not a facet
  EXPECT_THROW(a.servant->ports().subscribe_plain("ticks", b.servant->ports(), "count"),
               Components::InvalidName);  // a facet is not a sink
  EXPECT_THROW(a.servant->ports().connect_plain("nothing", b.servant->ports(), "count"),
               Components::InvalidName);
}

TEST_F(PlainConnections, RemovingTheProviderEndsItsReferenceButNotTheCaller) {
  ProbeNode a = create("a"), b = create("b");
  a.servant->ports().connect_plain("peer", b.servant->ports(), "count");
  b.ref->remove();
  // The receptacle still holds the facet's executor (kept alive), so nothing dangles;
  // what it no longer has is a reference.
  EXPECT_EQ(a.servant->peer_.borrow()->increment(2), 2);
  EXPECT_THROW(Probe::Counter_var ref = a.exec->context()->get_connection_peer(),
               CORBA::OBJECT_NOT_EXIST);
}

}  // namespace
}  // namespace mwccm_test
