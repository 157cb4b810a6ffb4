// Ports by kind, through the typed (glue) and the by-name (CCM) operations,
// and every CCM error with its message.
#include <string>

#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using Ports = ProbeFixture;

template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.message.in();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

TEST_F(Ports, FacetByNameIsTheTypedFacet) {
  ProbeNode a = create("a");
  CORBA::Object_var by_name = a.ref->provide_facet("count");
  Probe::Counter_var typed = facet(a);
  EXPECT_TRUE(by_name->_is_equivalent(typed.in()));
  EXPECT_EQ(typed->increment(2), 2);
  EXPECT_EQ(typed->increment(3), 5);
}

TEST_F(Ports, SimplexReceptacleConnectsUsesAndDisconnects) {
  ProbeNode a = create("a"), b = create("b");
  Probe::Counter_var target = facet(b);
  EXPECT_TRUE(CORBA::is_nil(a.servant->peer_.borrow()));
  a.ref->connect("peer", target.in());                    // by name, type checked once
  EXPECT_EQ(a.servant->peer_.borrow()->increment(4), 4);  // the executor's hot path
  Probe::Counter_var from_context = a.exec->context()->get_connection_peer();
  EXPECT_EQ(from_context->increment(1), 5);
  Components::ConnectionDescriptions_var conns = a.ref->get_connections("peer");
  ASSERT_EQ(conns->length(), 1u);
  CORBA::Object_var former = a.ref->disconnect("peer", nullptr);
  EXPECT_TRUE(former->_is_equivalent(target.in()));
  EXPECT_FALSE(a.servant->peer_.is_connected());
}

TEST_F(Ports, MultiplexReceptacleKeepsConnectionsByCookie) {
  ProbeNode a = create("a"), b = create("b"), c = create("c");
  Probe::Counter_var fb = facet(b), fc = facet(c);
  Components::Cookie_var kb = a.ref->connect_peers(fb.in());
  Components::Cookie_var kc = a.ref->connect("peers", fc.in());
  EXPECT_EQ(a.servant->peers_.size(), 2u);
  int calls = 0;
  a.servant->peers_.for_each([&](Probe::CCM_Counter_ptr p) { calls += p->increment(1); });
  EXPECT_EQ(calls, 2);
  Probe::peersConnections_var typed = a.exec->context()->get_connections_peers();
  EXPECT_EQ(typed->length(), 2u);
  Probe::Counter_var former = a.ref->disconnect_peers(kb.in());
  EXPECT_TRUE(former->_is_equivalent(fb.in()));
  EXPECT_EQ(a.servant->peers_.size(), 1u);
}

TEST_F(Ports, GetAllPortsDescribesEveryPort) {
  ProbeNode a = create("a");
  Components::PortDescriptions_var ports = a.ref->get_all_ports();
  ASSERT_EQ(ports->length(), 6u);
  EXPECT_STREQ(ports[0].name.in(), "count");
  EXPECT_EQ(ports[0].kind, Components::FACET);
  EXPECT_STREQ(ports[0].type_id.in(), "IDL:Probe/Counter:1.0");
  EXPECT_EQ(ports[1].kind, Components::SIMPLEX_RECEPTACLE);
  EXPECT_EQ(ports[2].kind, Components::MULTIPLEX_RECEPTACLE);
  EXPECT_EQ(ports[3].kind, Components::PUBLISHER);
  EXPECT_EQ(ports[4].kind, Components::EMITTER);
  EXPECT_EQ(ports[5].kind, Components::CONSUMER);
}

TEST_F(Ports, UnknownNameIsInvalidName) {
  ProbeNode a = create("sender");
  auto m = message_of<Components::InvalidName>(
      [&] { CORBA::Object_var o = a.ref->provide_facet("nope"); });
  EXPECT_EQ(m, "component 'sender' has no port 'nope'");
  message_of<Components::InvalidName>([&] { a.ref->connect("count", a.ref.in()); });  // a facet
  message_of<Components::InvalidName>(
      [&] { a.ref->subscribe("alarms", Components::EventConsumerBase::_nil()); });  // an emitter
}

TEST_F(Ports, IncompatibleTypeIsInvalidConnection) {
  ProbeNode a = create("sender");
  auto m = message_of<Components::InvalidConnection>([&] { a.ref->connect("peer", a.ref.in()); });
  EXPECT_NE(m.find("receptacle 'peer' of component 'sender' takes IDL:Probe/Counter:1.0"),
            std::string::npos)
      << m;
  EXPECT_FALSE(a.servant->peer_.is_connected());
}

TEST_F(Ports, SecondSimplexConnectionIsAlreadyConnected) {
  ProbeNode a = create("sender"), b = create("b");
  Probe::Counter_var fb = facet(b);
  a.ref->connect_peer(fb.in());
  auto m = message_of<Components::AlreadyConnected>([&] { a.ref->connect_peer(fb.in()); });
  EXPECT_EQ(m, "receptacle 'peer' of component 'sender' already connected; connect_peer refused");
}

TEST_F(Ports, UnconnectedUseIsNoConnection) {
  ProbeNode a = create("sender");
  auto m = message_of<Components::NoConnection>([&] { a.servant->peer_.connected(); });
  EXPECT_EQ(m, "receptacle 'peer' of component 'sender' is not connected; use refused");
  message_of<Components::NoConnection>(
      [&] { CORBA::Object_var o = a.ref->disconnect("peer", nullptr); });
  message_of<Components::NoConnection>(
      [&] { Probe::TickConsumer_var c = a.ref->disconnect_alarms(); });
}

TEST_F(Ports, BadCookieIsInvalidConnection) {
  ProbeNode a = create("sender"), b = create("b");
  Probe::Counter_var fb = facet(b);
  Probe::TickConsumer_var sink = b.ref->get_consumer_echoes();
  Components::Cookie_var subscription = a.ref->subscribe_ticks(sink.in());
  // A cookie of another port is not this port's.
  auto m = message_of<Components::InvalidConnection>(
      [&] { CORBA::Object_var o = a.ref->disconnect("peers", subscription.in()); });
  EXPECT_NE(m.find("multiplex receptacle 'peers' of component 'sender'"), std::string::npos) << m;
  Components::Cookie_var made_up = mwccm::make_cookie(987654321);
  message_of<Components::InvalidConnection>(
      [&] { Probe::TickConsumer_var c = a.ref->unsubscribe_ticks(made_up.in()); });
  message_of<Components::CookieRequired>(
      [&] { CORBA::Object_var o = a.ref->disconnect("peers", nullptr); });
}

}  // namespace
}  // namespace mwccm_test
