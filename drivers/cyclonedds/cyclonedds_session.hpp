// What both ends of the cyclonedds driver share: the configuration (one
// address, unicast only), the domain, topics and address of a cell (its
// endpoint), the QoS of every reader and writer, the wait strategy, and the
// ping/pong sample with its payload.
//
// One cell is one domain id and two topic names, chosen by the server (or the
// collocated process) from its pid: the domain keeps concurrent cells apart
// on the wire, the pid in the topic names keeps them apart even when two pids
// map to the same domain. The server publishes them as its endpoint, with
// the address its participant is on (--bind): there is no multicast to
// discover it by, so the client names that address as a unicast peer.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "PingPong.h"
#include "common/dds_endpoint.hpp"
#include "common/endpoint_field.hpp"
#include "common/payload_pattern.hpp"
#include "common/wait_strategy.hpp"
#include "dds/dds.h"
#include "mwbench/dds/check.hpp"
#include "mwbench/dds/qos.hpp"

namespace cyclonedds {

// How a reader waits for its sample (--option wait=...; drivers/common).
using mwbench::common::parse_wait;
using mwbench::common::to_string;
using mwbench::common::Wait;

// Throws std::runtime_error("<what>: <Cyclone's reason>") when `ret` < 0
// (dds_common/, shared with mwccm's `dds` delivery).
using mwbench::dds::check;

// The value of `key=` in an endpoint text "k1=v1;k2=v2" (drivers/common).
using mwbench::common::endpoint_field;

// The domain id, the topic names and the server's address of one cell
// (drivers/common/dds_endpoint.hpp).
using Endpoint = mwbench::common::DdsEndpoint;

// Sets CYCLONEDDS_URI, replacing any value the environment had, to the one
// configuration this driver runs with: the interface of `address` (--bind)
// only, no multicast, discovery by unicast to `address` and to `peers` (the
// servers' addresses, for a client) (mwbench/dds/unicast_config.hpp); and
// confines Cyclone's sockets to `address` (mwbench/dds/confine.hpp). Returns
// the configuration. Must run before the first DDS call.
std::string use_config(const std::string& address, const std::vector<std::string>& peers = {});

// A domain participant with the cell's two topics, whose readers and
// writers keep `history_depth` samples (common/open_loop_pings.hpp,
// ping_queue_depth()); deleting it deletes every reader, writer, condition
// and waitset created under it.
class Participant {
 public:
  Participant(const Endpoint& endpoint, int history_depth);
  ~Participant();
  Participant(const Participant&) = delete;
  Participant& operator=(const Participant&) = delete;

  dds_entity_t handle() const noexcept { return participant_; }
  dds_entity_t ping_topic() const noexcept { return ping_; }
  dds_entity_t pong_topic() const noexcept { return pong_; }
  const Endpoint& endpoint() const noexcept { return endpoint_; }
  int history_depth() const noexcept { return history_depth_; }

 private:
  Endpoint endpoint_;
  int history_depth_;
  dds_entity_t participant_ = 0;
  dds_entity_t ping_ = 0;
  dds_entity_t pong_ = 0;
};

// The QoS of every reader and writer of the driver: reliable, KEEP_LAST
// `history_depth` (1 but for the ping and pong of an open loop, or of a
// server), volatile (README, "What is measured").
class EndpointQos : public mwbench::dds::Qos {
 public:
  explicit EndpointQos(int history_depth = 1)
      : Qos({.reliable = true, .history_depth = static_cast<std::uint32_t>(history_depth)}) {}
};

// How the middleware was configured, for the result header.
nlohmann::json middleware_config(const std::string& config, const Participant& participant,
                                 Wait wait);

// A sample (of any type with a `payload` sequence of octets) whose payload
// points at a buffer of its own, allocated here, never by Cyclone as long as
// what arrives fits: taking into it, and writing from it, allocates nothing.
// If Cyclone had to grow it (a payload larger than `capacity` arrived), the
// destructor frees what Cyclone allocated.
template <class Sample>
class Owned {
 public:
  explicit Owned(std::size_t capacity) : buffer_(capacity) {
    sample_.payload._buffer = buffer_.data();
    sample_.payload._maximum = static_cast<std::uint32_t>(capacity);
    sample_.payload._length = 0;
    sample_.payload._release = false;  // ours: Cyclone must neither free nor grow it
  }
  ~Owned() {
    if (sample_.payload._release) dds_free(sample_.payload._buffer);
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

  Sample& get() noexcept { return sample_; }

 private:
  std::vector<std::uint8_t> buffer_;
  Sample sample_{};
};
using OwnedSample = Owned<mwbench_dds_Sample>;

// The payload pattern of the `octets` ping: byte i is i mod 251 (as in rawtcp).
using mwbench::common::pattern_byte;

// Takes the next sample with valid data (not a state change) into the
// buffer `into` points to; false when none is left. Throws on an error,
// naming `what`.
bool take_valid(dds_entity_t reader, void* into, dds_sample_info_t& info, const char* what);

// A reader of `topic` under `parent`; with `arg`, its data-available
// listener calls `on_data(reader, arg)` on Cyclone's thread. Throws naming
// `what`.
dds_entity_t create_reader(dds_entity_t parent, dds_entity_t topic, const dds_qos_t* qos, void* arg,
                           void (*on_data)(dds_entity_t, void*), const char* what);

// Attaches a read condition of `reader` (any sample) to `waitset`.
void attach_reader(dds_entity_t waitset, dds_entity_t reader, const char* what);

// Lends `buffer`, filled with the payload pattern, to a sample's `payload`
// sequence: Cyclone neither frees nor grows it.
template <class Sequence>
void lend_payload(Sequence& payload, std::vector<std::uint8_t>& buffer) {
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = pattern_byte(i);
  payload._buffer = buffer.data();
  payload._length = payload._maximum = static_cast<std::uint32_t>(buffer.size());
  payload._release = false;
}

}  // namespace cyclonedds
