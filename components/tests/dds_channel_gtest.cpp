// The `dds` delivery strategy over real Cyclone DDS in this process: a
// writer carries every event once, in order, to every sink of every
// container whose reader takes its topic (the publishing container's own
// too); a container's sinks share one sample per event; the channels'
// counters count the traffic; and nothing of DDS outlives the last reader
// and writer.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mwccm/channel_receivers.hpp>
#include <mwccm/dds_channel.hpp>
#include <stdexcept>

#include "numbers_sink.hpp"
#include "probe_fixture.hpp"

namespace mwccm_test {
namespace {

using mwccm::EventChannel;
using namespace std::chrono_literals;

constexpr auto kMatch = 10s;

// A partition of this test's own: concurrent runs never share a topic.
mwccm::DdsDomain test_domain() {
  mwccm::DdsDomain domain;
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  domain.partition = "gtest_" + std::to_string(::getpid()) + "_" + test->name();
  return domain;
}

std::size_t threads_of_this_process() {
  const std::filesystem::directory_iterator tasks("/proc/self/task");
  return static_cast<std::size_t>(std::distance(begin(tasks), end(tasks)));
}

std::vector<CORBA::ULongLong> one_to(CORBA::ULongLong last) {
  std::vector<CORBA::ULongLong> numbers;
  for (CORBA::ULongLong n = 1; n <= last; ++n) numbers.push_back(n);
  return numbers;
}

class DdsChannel : public ProbeFixture {
 protected:
  void publish(EventChannel& channel, EventChannel::Supplier& supplier, CORBA::ULongLong count) {
    for (CORBA::ULongLong n = 1; n <= count; ++n) {
      Probe::Tick_var tick = new Probe_glue::Tick_value(n);
      channel.publish(supplier, tick.in());
    }
  }
  mwccm::ReceiverSettings settings_{.dds = test_domain()};
  mwccm::DdsTopic topic_{.name = "gtest/ticks"};
};

TEST_F(DdsChannel, EveryEventOnceInOrderToEverySinkOfEveryContainer) {
  constexpr CORBA::ULongLong kEvents = 300;
  EventChannel here("here"), there("there");
  mwccm::ChannelReceivers here_receivers(here, orb(), container_->poa());
  mwccm::ChannelReceivers there_receivers(there, orb(), container_->poa());
  // Two sinks in the other container, one in the publisher's own: all through DDS.
  Numbers *first = nullptr, *second = nullptr, *local = nullptr;
  there.accept("source.ticks", "IDL:Probe/Tick:1.0", 1, sink(first), {});
  there.accept("source.ticks", "IDL:Probe/Tick:1.0", 2, sink(second), {});
  here.accept("source.ticks", "IDL:Probe/Tick:1.0", 3, sink(local), {});
  EXPECT_EQ(there_receivers.endpoint("dds", settings_, topic_), "dds:gtest/ticks@there");
  EXPECT_EQ(here_receivers.endpoint("dds", settings_, topic_), "dds:gtest/ticks@here");

  auto writer = mwccm::make_dds_writer(settings_.dds, topic_);
  auto& supplier =
      here.supplier("source.ticks", "IDL:Probe/Tick:1.0", mwccm::event_codec<Probe::Tick*>());
  here.route(supplier, 4, writer);
  here.route(supplier, 5, writer);  // a second route through one writer sends nothing more
  writer->wait_for_readers(2, kMatch);
  here_receivers.wait_for_dds_writers(kMatch);
  there_receivers.wait_for_dds_writers(kMatch);

  publish(here, supplier, kEvents);
  EXPECT_EQ(first->wait_for(kEvents), one_to(kEvents));
  EXPECT_EQ(second->wait_for(kEvents), one_to(kEvents));
  EXPECT_EQ(local->wait_for(kEvents), one_to(kEvents));
  EXPECT_EQ(here.counters().published, kEvents);
  EXPECT_EQ(here.counters().sent, kEvents);  // one write per event, whatever the readers
  EXPECT_EQ(here.counters().undeliverable, 0u);
  EXPECT_EQ(there.counters().received, kEvents);  // one sample per event for two sinks
  EXPECT_EQ(there.counters().delivered, 2 * kEvents);
  EXPECT_EQ(there.counters().unreadable, 0u);
  EXPECT_EQ(here.counters().received, kEvents);
}

TEST_F(DdsChannel, ASampleOfASupplierNoSinkTakesIsCountedUnreadable) {
  EventChannel here("here"), there("there");
  mwccm::ChannelReceivers receivers(there, orb(), container_->poa());
  Numbers* far = nullptr;
  there.accept("source.ticks", "IDL:Probe/Tick:1.0", 1, sink(far), {});
  receivers.endpoint("dds", settings_, topic_);
  auto writer = mwccm::make_dds_writer(settings_.dds, topic_);
  auto& supplier =
      here.supplier("source.ticks", "IDL:Probe/Tick:1.0", mwccm::event_codec<Probe::Tick*>());
  auto& stranger =
      here.supplier("stranger.ticks", "IDL:Probe/Tick:1.0", mwccm::event_codec<Probe::Tick*>());
  here.route(supplier, 2, writer);
  here.route(stranger, 3, writer);
  writer->wait_for_readers(1, kMatch);
  receivers.wait_for_dds_writers(kMatch);
  publish(here, stranger, 1);
  publish(here, supplier, 1);  // after the stranger's, in the order written
  EXPECT_EQ(far->wait_for(1), one_to(1));
  EXPECT_EQ(there.counters().received, 2u);
  EXPECT_EQ(there.counters().unreadable, 1u);
}

TEST_F(DdsChannel, NoThreadOutlivesTheLastReaderAndWriter) {
  const std::size_t before = threads_of_this_process();
  {
    EventChannel there("there");
    mwccm::ChannelReceivers receivers(there, orb(), container_->poa());
    receivers.endpoint("dds", settings_, topic_);
    auto writer = mwccm::make_dds_writer(settings_.dds, topic_);
    writer->wait_for_readers(1, kMatch);
    EXPECT_GT(threads_of_this_process(), before);
  }
  EXPECT_EQ(threads_of_this_process(), before);
}

TEST_F(DdsChannel, AWriterWithoutItsReadersFailsNamingTheTopic) {
  auto writer = mwccm::make_dds_writer(settings_.dds, topic_);
  try {
    writer->wait_for_readers(1, 100ms);
    FAIL() << "matched a reader nobody made";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("'gtest/ticks'"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("0 of the 1 readers"), std::string::npos)
        << error.what();
  }
}

TEST_F(DdsChannel, ABadTopicOrASecondDomainIsRefusedNamingIt) {
  try {
    mwccm::make_dds_writer(settings_.dds, {.name = "gps.ready"});
    FAIL() << "DDS took a topic name with a '.'";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("'gps.ready'"), std::string::npos) << error.what();
  }
  auto writer = mwccm::make_dds_writer(settings_.dds, topic_);
  mwccm::DdsDomain other = settings_.dds;
  other.id = settings_.dds.id + 1;
  try {
    mwccm::make_dds_writer(other, topic_);
    FAIL() << "a second participant in another domain";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("domain " + std::to_string(other.id)),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace mwccm_test
