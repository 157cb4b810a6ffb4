// The gateways between channels over real sockets in this process: UDP and
// IIOP carry every event once, in order, to every sink of the receiving
// channel; datagrams round-trip and junk is refused; a multicast group on
// an interface this host does not have is refused naming the interface.
#include <chrono>
#include <mutex>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/channel_receivers.hpp>
#include <stdexcept>

#include "numbers_sink.hpp"
#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using mwccm::EventChannel;

class ChannelGateways : public ProbeFixture {
 protected:
  // Two events of "source.ticks" from `here` through a gateway of `kind` to
  // two sinks of `there`'s channel.
  void carry(const std::string& kind) {
    Probe_glue::register_value_factories(orb());
    EventChannel here("here"), there("there");
    mwccm::ChannelReceivers receivers(there, orb(), container_->poa());
    Numbers *first = nullptr, *second = nullptr;
    there.accept("source.ticks", "IDL:Probe/Tick:1.0", 1, sink(first), {});
    there.accept("source.ticks", "IDL:Probe/Tick:1.0", 2, sink(second), {});
    const auto endpoint = mwccm::parse_endpoint(receivers.endpoint(kind, {}));
    auto& supplier =
        here.supplier("source.ticks", "IDL:Probe/Tick:1.0", mwccm::event_codec<Probe::Tick*>());
    here.route(supplier, 3, mwccm::make_gateway(orb(), endpoint));
    for (CORBA::ULongLong n : {1, 2}) {
      Probe::Tick_var tick = new Probe_glue::Tick_value(n);
      here.publish(supplier, tick.in());
    }
    EXPECT_EQ(second->wait_for(2), (std::vector<CORBA::ULongLong>{1, 2}));
    EXPECT_EQ(first->wait_for(2), (std::vector<CORBA::ULongLong>{1, 2}));
    EXPECT_EQ(here.counters().sent, 2u);
    EXPECT_EQ(there.counters().unreadable, 0u);
    EXPECT_EQ(there.counters().received, 2u);
  }
};

TEST_F(ChannelGateways, UdpCarriesEveryEventOnceToEverySink) { carry("udp"); }

TEST_F(ChannelGateways, IiopCarriesEveryEventOnceToEverySink) { carry("iiop"); }

TEST_F(ChannelGateways, APeerThatIsGoneIsCountedAndLocalSinksGoOn) {
  Probe_glue::register_value_factories(orb());
  EventChannel here("here"), there("there");
  auto& supplier =
      here.supplier("source.ticks", "IDL:Probe/Tick:1.0", mwccm::event_codec<Probe::Tick*>());
  Numbers *local = nullptr, *far = nullptr;
  here.subscribe(supplier, 1, sink(local), {});
  there.accept("source.ticks", "IDL:Probe/Tick:1.0", 2, sink(far), {});
  {
    mwccm::ChannelReceivers receivers(there, orb(), container_->poa());
    const auto endpoint = mwccm::parse_endpoint(receivers.endpoint("iiop", {}));
    here.route(supplier, 3, mwccm::make_gateway(orb(), endpoint));
    Probe::Tick_var tick = new Probe_glue::Tick_value(1);
    here.publish(supplier, tick.in());
  }  // the receiving side is gone: its channel object no longer exists
  Probe::Tick_var tick = new Probe_glue::Tick_value(2);
  here.publish(supplier, tick.in());
  EXPECT_EQ(here.counters().sent, 1u);
  EXPECT_EQ(here.counters().undeliverable, 1u);
  EXPECT_EQ(local->wait_for(2), (std::vector<CORBA::ULongLong>{1, 2}));
  EXPECT_EQ(far->wait_for(1), std::vector<CORBA::ULongLong>{1});
}

TEST(ChannelDatagram, RoundTripsAndRefusesJunk) {
  const char cdr[] = {1, 2, 3};
  const auto bytes = mwccm::datagram::encode("gps.ready", 77, cdr);
  const auto decoded = mwccm::datagram::decode(bytes);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->supplier, "gps.ready");
  EXPECT_EQ(decoded->sequence, 77u);
  EXPECT_EQ(std::vector<char>(decoded->cdr.begin(), decoded->cdr.end()),
            (std::vector<char>{1, 2, 3}));
  EXPECT_FALSE(mwccm::datagram::decode(std::vector<char>{'M', 'W', 'E', 'V'}).has_value());
  std::vector<char> short_supplier = bytes;
  short_supplier.resize(18);
  EXPECT_FALSE(mwccm::datagram::decode(short_supplier).has_value());
}

TEST(ChannelEndpoint, ParsesTheThreeKindsAndRefusesOthers) {
  EXPECT_EQ(mwccm::parse_endpoint("udp:198.18.0.2:4000").port, 4000);
  const auto group = mwccm::parse_endpoint("multicast:239.255.1.1:45000@198.18.0.2");
  EXPECT_EQ(group.address, "239.255.1.1");
  EXPECT_EQ(group.interface, "198.18.0.2");
  EXPECT_EQ(group.text(), "multicast:239.255.1.1:45000@198.18.0.2");
  for (const char* bad :
       {"tcp:1.2.3.4:5", "udp:1.2.3.4", "udp:1.2.3.4:0", "multicast:1.2.3.4:5", "iiop:"}) {
    EXPECT_THROW(mwccm::parse_endpoint(bad), std::invalid_argument) << bad;
  }
}

TEST_F(ChannelGateways, AGroupOnAnInterfaceThisHostLacksIsRefusedNamingIt) {
  EventChannel there("there");
  mwccm::ChannelReceivers receivers(there, orb(), container_->poa());
  mwccm::ReceiverSettings settings;
  settings.multicast_interface = "198.18.254.254";  // no interface of this host has it
  try {
    receivers.endpoint("multicast", settings);
    FAIL() << "joined a group on an interface this host does not have";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("interface 198.18.254.254"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace mwccm_test
