// What both ends of the fastdds driver share: the profiles, the domain,
// topics and address of a cell (its endpoint), the participant of a
// transport, the QoS of every reader and writer, the wait strategy, the
// payload pattern.
//
// One cell is one domain id and two topic names, chosen by the server (or the
// collocated process) from its pid: the domain keeps concurrent cells apart,
// the pid in the topic names keeps them apart even when two pids map to the
// same domain. The server publishes them as its endpoint, with its address
// (--bind), which a udp client names as an initial peer (fastdds_network.hpp).
#pragma once

#include <fastdds/rtps/common/Time_t.h>
#include <fastrtps/types/TypesBase.h>

#include <cstdint>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/publisher/qos/DataWriterQos.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/subscriber/qos/DataReaderQos.hpp>
#include <fastdds/dds/topic/Topic.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "common/dds_endpoint.hpp"
#include "common/endpoint_field.hpp"
#include "common/payload_pattern.hpp"
#include "common/wait_strategy.hpp"
#include "fastdds_network.hpp"
#include "mwbench/name_table.hpp"

namespace fastdds_driver {

namespace dds = eprosima::fastdds::dds;
using ReturnCode = eprosima::fastrtps::types::ReturnCode_t;
using Duration = eprosima::fastrtps::Duration_t;

// How a reader waits for its sample (--option wait=...; drivers/common).
using mwbench::common::parse_wait;
using mwbench::common::to_string;
using mwbench::common::Wait;

// The transport of a cell: udp and shm remote, inproc collocated.
enum class Transport { udp, shm, inproc };
inline constexpr mwbench::NameTable<Transport, 3> kTransports{
    {{{Transport::udp, "udp"}, {Transport::shm, "shm"}, {Transport::inproc, "inproc"}}}};
Transport parse_transport(const std::string& value);  // the harness has checked it
const char* to_string(Transport transport) noexcept;

// Throws std::runtime_error("<what>: <Fast DDS's return code>") unless RETCODE_OK.
void check(const ReturnCode& ret, const char* what);
[[noreturn]] void throw_null(const char* what);
// Throws std::runtime_error("<what> failed") when `entity` is null; returns it.
template <typename T>
T* check(T* entity, const char* what) {
  if (entity == nullptr) throw_null(what);
  return entity;
}

// The value of `key=` in an endpoint text "k1=v1;k2=v2" (drivers/common).
using mwbench::common::endpoint_field;

// The domain id, the topic names and the server's address of one cell
// (drivers/common/dds_endpoint.hpp).
using Endpoint = mwbench::common::DdsEndpoint;

// Loads fastdds-loopback.xml beside the program (the build copies it there)
// into Fast DDS's profile manager, after making sure that no other XML file
// is read (no DEFAULT_FASTRTPS_PROFILES.xml, no FASTRTPS_DEFAULT_PROFILES_FILE),
// sends Fast DDS's log to standard error (errors only: standard output is the
// contract's) and sets intra-process delivery to FULL. Returns the file's
// path. Must run before the first participant; throws if the file is missing
// or does not load.
std::string use_loopback_profiles();

// A DomainParticipant made from one of the loopback profiles, placed on
// `network`, deleted with everything it contains when this goes: the part
// every participant of the driver shares (the ping/pong one below, the
// fan-out's). Declared first in its owner, it is made first and deleted last,
// so that an owner whose constructor fails half-way leaves nothing behind.
class OwnedParticipant {
 public:
  OwnedParticipant(std::uint32_t domain, const std::string& profile, const Network& network);
  ~OwnedParticipant();
  OwnedParticipant(const OwnedParticipant&) = delete;
  OwnedParticipant& operator=(const OwnedParticipant&) = delete;

  // A topic of `type` (registered with the participant first).
  dds::Topic* topic(const std::string& name, dds::TypeSupport& type);
  dds::Publisher* publisher(const dds::PublisherQos& qos = dds::PUBLISHER_QOS_DEFAULT);
  dds::Subscriber* subscriber(const dds::SubscriberQos& qos = dds::SUBSCRIBER_QOS_DEFAULT);

 private:
  dds::DomainParticipant* participant_ = nullptr;
};

// What a ping-pong cell may change of the QoS below: --option
// reliability=reliable|best_effort and data_sharing=off|on (README, "QoS"),
// and the history depth of its ping and pong (common/open_loop_pings.hpp,
// ping_queue_depth(); 1 with data sharing, whose pool is depth + 1 samples
// of the payload's size).
struct QosChoice {
  bool best_effort = false;
  bool data_sharing = false;
  int history_depth = 1;
};

// A domain participant created from the transport's profile (udp:
// mwbench_udp; shm: mwbench_shm; inproc: mwbench_udp, whose transport carries
// discovery only, the samples never leave the process) and placed on
// `network` (udp and inproc), with the registered
// type, the cell's two topics, one publisher and one subscriber, and the QoS
// of their readers and writers. Deleting it deletes everything created under
// it. With data sharing the type is bounded by the cell's payload (Fast DDS
// shares only bounded samples), as eProsima's latency test sizes its type
// per payload.
class Participant {
 public:
  Participant(const Endpoint& endpoint, Transport transport, const Network& network,
              QosChoice qos = {}, std::size_t payload_bytes = 0);
  Participant(const Participant&) = delete;
  Participant& operator=(const Participant&) = delete;

  dds::Topic* ping_topic() const noexcept { return ping_; }
  dds::Topic* pong_topic() const noexcept { return pong_; }
  dds::Publisher* publisher() const noexcept { return publisher_; }
  dds::Subscriber* subscriber() const noexcept { return subscriber_; }
  const Endpoint& endpoint() const noexcept { return endpoint_; }
  const QosChoice& qos() const noexcept { return qos_; }
  const Network& network() const noexcept { return network_; }
  dds::DataWriterQos writer_qos() const;
  dds::DataReaderQos reader_qos() const;

 private:
  Endpoint endpoint_;
  QosChoice qos_;
  Network network_;
  OwnedParticipant participant_;
  dds::TypeSupport type_;
  dds::Topic* ping_ = nullptr;
  dds::Topic* pong_ = nullptr;
  dds::Publisher* publisher_ = nullptr;
  dds::Subscriber* subscriber_ = nullptr;
};

// The QoS of every writer and reader of the driver: reliable, KEEP_LAST 1
// (a ping-pong cell: its QosChoice's depth), volatile, synchronous publication, data sharing off
// (so that `udp` and `shm` are exactly the transport the cell names; README, "What is measured");
// a ping-pong cell may choose best effort, and data sharing over `shm`.
dds::DataWriterQos writer_qos(QosChoice choice = {});
dds::DataReaderQos reader_qos(QosChoice choice = {});

// What carries a cell of `transport`, in words, for the result header.
std::string transport_text(Transport transport, const Network& network);

// How the middleware was configured, for the result header.
nlohmann::json middleware_config(const std::string& profiles, const Participant& participant,
                                 Transport transport, Wait wait, const nlohmann::json& stale_shm);

// The payload pattern of the `octets` ping: byte i is i mod 251 (as in rawtcp).
using mwbench::common::pattern_byte;

// Takes the next sample with valid data (not a state change) into `sample`;
// false when none is left. Throws on an error, naming `what`.
template <class Sample>
bool take_valid(dds::DataReader* reader, Sample& sample, dds::SampleInfo& info, const char* what) {
  for (;;) {
    const ReturnCode ret = reader->take_next_sample(&sample, &info);
    if (ret == ReturnCode::RETCODE_NO_DATA) return false;
    check(ret, what);
    if (info.valid_data) return true;
  }
}

// A DataReader of `topic` in `subscriber`; with `listener`, it hears
// data_available. Throws naming `what`.
dds::DataReader* create_reader(dds::Subscriber* subscriber, dds::Topic* topic,
                               const dds::DataReaderQos& qos, dds::DataReaderListener* listener,
                               const char* what);

// A ReadCondition of `reader` (any sample) attached to `waitset`.
dds::ReadCondition* attach_reader(dds::WaitSet& waitset, dds::DataReader* reader, const char* what);

// Deletes `reader` (after detaching and deleting its `condition`, if any)
// and `writer`; either may be null. Deleting a reader waits for a listener
// that is running.
void delete_endpoints(dds::Subscriber* subscriber, dds::DataReader* reader,
                      dds::ReadCondition* condition, dds::WaitSet& waitset,
                      dds::Publisher* publisher, dds::DataWriter* writer);

}  // namespace fastdds_driver
