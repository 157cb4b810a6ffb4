// The `dds` delivery strategy (docs/events.md section 5): a channel's events
// carried on Cyclone DDS, a topic per event source, as DDS4CCM's connectors
// do. The publishing process has one writer per topic, a Gateway its
// channels route suppliers through; each consuming container has one reader
// per topic, whose thread hands every sample to EventChannel::receive(), so
// that its sinks get each event once however many they are. Sinks in the
// publisher's own process are fed through DDS too (data-centric, as a
// connector is), by the reader of their container.
//
// One participant per process, made by the first writer or reader and
// deleted (with Cyclone's threads and sockets) with the last. It is bound to
// one interface address, without multicast (mwbench/dds/unicast_config.hpp).
// A launch's readers and writers share a partition of their own, so that
// two deployments of one plan on a host never see each other's events.
//
// This header needs no Cyclone header: an mwccm built without Cyclone DDS
// has it too, and its make_* functions throw saying so.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mwccm/event_channel.hpp>
#include <string>
#include <vector>

namespace mwccm {

// Whether this mwccm was built with Cyclone DDS.
bool dds_available() noexcept;

// Where this process's participant is (docs/deployment.md section 10).
struct DdsDomain {
  static constexpr std::uint32_t kDefaultId = 77;
  std::uint32_t id = kDefaultId;
  std::string address = "127.0.0.1";  // the interface it sends, receives and discovers on
  std::string partition;              // a launch's own ("" is DDS's default partition)
  // Other hosts' addresses it discovers participants at, by unicast (there is
  // no multicast): a publisher names its subscribers' hosts, which learn the
  // publisher from its announcement. A deployment gives each process the
  // other localities' channel addresses (MwccmDeployment::ServerSettings).
  std::vector<std::string> peers;
};

// A topic and its QoS, as the plan gives them. Durability is volatile.
struct DdsTopic {
  std::string name;
  bool reliable = true;
  std::uint32_t history_depth = 0;  // KEEP_LAST depth; 0: KEEP_ALL
};

// The writer of a topic: the gateway a channel routes a supplier through.
class DdsWriter : public Gateway {
 public:
  // Returns once `readers` readers match it; std::runtime_error naming the
  // topic if they do not within `timeout`.
  virtual void wait_for_readers(std::size_t readers, std::chrono::milliseconds timeout) = 0;
};

// The reader of a topic in a container; stops its thread when destroyed.
class DdsReader {
 public:
  virtual ~DdsReader() = default;
  virtual void wait_for_writers(std::size_t writers, std::chrono::milliseconds timeout) = 0;
};

// std::runtime_error naming the topic (or the domain) if it cannot be made:
// a participant of this process already in another domain or on another
// address, a topic name DDS refuses, an mwccm without Cyclone DDS.
std::shared_ptr<DdsWriter> make_dds_writer(const DdsDomain& domain, const DdsTopic& topic);
std::unique_ptr<DdsReader> make_dds_reader(EventChannel& channel, const DdsDomain& domain,
                                           const DdsTopic& topic);

}  // namespace mwccm
