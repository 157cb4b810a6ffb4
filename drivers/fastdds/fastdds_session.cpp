// The loopback profiles, the cell's endpoint, participant and QoS.
#include "fastdds_session.hpp"

#include <fastrtps/attributes/LibrarySettingsAttributes.h>
#include <fastrtps/xmlparser/XMLProfileManager.h>

#include <algorithm>
#include <cstdlib>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/log/Log.hpp>
#include <fastdds/dds/log/StdoutErrConsumer.hpp>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "PingPongPubSubTypes.h"
#include "mwbench/options.hpp"

namespace fastdds_driver {

namespace {

const char* retcode_name(std::uint32_t code) noexcept {
  switch (code) {
    case ReturnCode::RETCODE_ERROR:
      return "RETCODE_ERROR";
    case ReturnCode::RETCODE_UNSUPPORTED:
      return "RETCODE_UNSUPPORTED";
    case ReturnCode::RETCODE_BAD_PARAMETER:
      return "RETCODE_BAD_PARAMETER";
    case ReturnCode::RETCODE_PRECONDITION_NOT_MET:
      return "RETCODE_PRECONDITION_NOT_MET";
    case ReturnCode::RETCODE_OUT_OF_RESOURCES:
      return "RETCODE_OUT_OF_RESOURCES";
    case ReturnCode::RETCODE_NOT_ENABLED:
      return "RETCODE_NOT_ENABLED";
    case ReturnCode::RETCODE_IMMUTABLE_POLICY:
      return "RETCODE_IMMUTABLE_POLICY";
    case ReturnCode::RETCODE_INCONSISTENT_POLICY:
      return "RETCODE_INCONSISTENT_POLICY";
    case ReturnCode::RETCODE_ALREADY_DELETED:
      return "RETCODE_ALREADY_DELETED";
    case ReturnCode::RETCODE_TIMEOUT:
      return "RETCODE_TIMEOUT";
    case ReturnCode::RETCODE_NO_DATA:
      return "RETCODE_NO_DATA";
    case ReturnCode::RETCODE_ILLEGAL_OPERATION:
      return "RETCODE_ILLEGAL_OPERATION";
    default:
      return "unknown return code";
  }
}

// The generated type, bounded by one payload size: its largest sample is one
// carrying `payload_bytes` (Fast DDS's data sharing preallocates samples of
// that size and refuses unbounded types).
class BoundedSampleType final : public mwbench_fastdds::SamplePubSubType {
 public:
  explicit BoundedSampleType(std::size_t payload_bytes) {
    mwbench_fastdds::Sample largest;
    largest.payload().resize(payload_bytes);
    m_typeSize = static_cast<std::uint32_t>(mwbench_fastdds::Sample::getCdrSerializedSize(largest) +
                                            kEncapsulationBytes);
  }
  bool is_bounded() const override { return true; }

 private:
  static constexpr std::size_t kEncapsulationBytes = 4;  // as SamplePubSubType counts it
};

dds::TopicDataType* sample_type(QosChoice qos, std::size_t payload_bytes) {
  if (qos.data_sharing) return new BoundedSampleType(payload_bytes);
  return new mwbench_fastdds::SamplePubSubType();
}

const char* profile_of(Transport transport) noexcept {
  return transport == Transport::shm ? "mwbench_shm" : "mwbench_udp";
}

}  // namespace

Transport parse_transport(const std::string& value) {
  return kTransports.parse(value, "--transport ");
}

const char* to_string(Transport transport) noexcept { return kTransports.name(transport); }

void check(const ReturnCode& ret, const char* what) {
  if (ret != ReturnCode::RETCODE_OK) {
    throw std::runtime_error(std::string(what) + ": " + retcode_name(ret()));
  }
}

dds::DataReader* create_reader(dds::Subscriber* subscriber, dds::Topic* topic,
                               const dds::DataReaderQos& qos, dds::DataReaderListener* listener,
                               const char* what) {
  return check(subscriber->create_datareader(topic, qos, listener,
                                             listener != nullptr ? dds::StatusMask::data_available()
                                                                 : dds::StatusMask::none()),
               what);
}

dds::ReadCondition* attach_reader(dds::WaitSet& waitset, dds::DataReader* reader,
                                  const char* what) {
  dds::ReadCondition* condition =
      check(reader->create_readcondition(dds::ANY_SAMPLE_STATE, dds::ANY_VIEW_STATE,
                                         dds::ANY_INSTANCE_STATE),
            what);
  check(waitset.attach_condition(*condition), what);
  return condition;
}

void delete_endpoints(dds::Subscriber* subscriber, dds::DataReader* reader,
                      dds::ReadCondition* condition, dds::WaitSet& waitset,
                      dds::Publisher* publisher, dds::DataWriter* writer) {
  if (condition != nullptr) {
    waitset.detach_condition(*condition);
    reader->delete_readcondition(condition);
  }
  if (reader != nullptr) subscriber->delete_datareader(reader);
  if (writer != nullptr) publisher->delete_datawriter(writer);
}

void throw_null(const char* what) { throw std::runtime_error(std::string(what) + " failed"); }

std::string transport_text(Transport transport, const Network& network) {
  switch (transport) {
    case Transport::udp:
      return "UDPv4 on " + network.address + " only (builtin transports off)";
    case Transport::shm:
      return "SHM only (builtin transports off)";
    case Transport::inproc:
      return "intra-process delivery (discovery on UDPv4 " + network.address + ")";
  }
  return "?";
}

std::string use_loopback_profiles() {
  const std::filesystem::path file =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "fastdds-loopback.xml";
  if (!std::filesystem::exists(file)) {
    throw std::runtime_error("no loopback profiles '" + file.string() +
                             "' (the build copies drivers/fastdds/fastdds-loopback.xml there); "
                             "refusing to run on Fast DDS's default network settings");
  }
  // Before the factory exists: it reads the default XML file when created.
  ::unsetenv("FASTRTPS_DEFAULT_PROFILES_FILE");
  ::setenv("SKIP_DEFAULT_XML_FILE", "1", 1);
  dds::Log::ClearConsumers();
  dds::Log::RegisterConsumer(std::make_unique<dds::StdoutErrConsumer>());
  dds::Log::SetVerbosity(dds::Log::Error);

  eprosima::fastrtps::LibrarySettingsAttributes library;
  library.intraprocess_delivery = eprosima::fastrtps::INTRAPROCESS_FULL;
  eprosima::fastrtps::xmlparser::XMLProfileManager::library_settings(library);

  check(dds::DomainParticipantFactory::get_instance()->load_XML_profiles_file(file.string()),
        ("loading the profiles " + file.string()).c_str());
  return file.string();
}

OwnedParticipant::OwnedParticipant(std::uint32_t domain, const std::string& profile,
                                   const Network& network) {
  auto* factory = dds::DomainParticipantFactory::get_instance();
  dds::DomainParticipantQos qos;
  check(factory->get_participant_qos_from_profile(profile, qos),
        ("get_participant_qos_from_profile " + profile).c_str());
  network.place(qos);
  participant_ = check(factory->create_participant(static_cast<dds::DomainId_t>(domain), qos),
                       "create_participant");
}

OwnedParticipant::~OwnedParticipant() {
  participant_->delete_contained_entities();
  dds::DomainParticipantFactory::get_instance()->delete_participant(participant_);
}

dds::Topic* OwnedParticipant::topic(const std::string& name, dds::TypeSupport& type) {
  if (participant_->find_type(type.get_type_name()).empty()) {
    check(type.register_type(participant_), "register_type");
  }
  return check(participant_->create_topic(name, type.get_type_name(), dds::TOPIC_QOS_DEFAULT),
               ("create_topic (" + name + ")").c_str());
}

dds::Publisher* OwnedParticipant::publisher(const dds::PublisherQos& qos) {
  return check(participant_->create_publisher(qos), "create_publisher");
}

dds::Subscriber* OwnedParticipant::subscriber(const dds::SubscriberQos& qos) {
  return check(participant_->create_subscriber(qos), "create_subscriber");
}

Participant::Participant(const Endpoint& endpoint, Transport transport, const Network& network,
                         QosChoice qos, std::size_t payload_bytes)
    : endpoint_(endpoint),
      qos_(qos),
      network_(network),
      participant_(endpoint.domain, profile_of(transport), network),
      type_(sample_type(qos, payload_bytes)),
      ping_(participant_.topic(endpoint.ping_topic, type_)),
      pong_(participant_.topic(endpoint.pong_topic, type_)),
      publisher_(participant_.publisher()),
      subscriber_(participant_.subscriber()) {}

dds::DataWriterQos Participant::writer_qos() const { return fastdds_driver::writer_qos(qos_); }

dds::DataReaderQos Participant::reader_qos() const { return fastdds_driver::reader_qos(qos_); }

namespace {

// What writers and readers share.
template <class Qos>
void set_common_qos(Qos& qos, QosChoice choice) {
  qos.reliability().kind =
      choice.best_effort ? dds::BEST_EFFORT_RELIABILITY_QOS : dds::RELIABLE_RELIABILITY_QOS;
  qos.history().kind = dds::KEEP_LAST_HISTORY_QOS;
  qos.history().depth = choice.history_depth;
  qos.durability().kind = dds::VOLATILE_DURABILITY_QOS;
  if (choice.data_sharing) {
    qos.data_sharing().on("");  // Fast DDS's default directory for the segments (/dev/shm)
  } else {
    qos.data_sharing().off();
  }
}

}  // namespace

dds::DataWriterQos writer_qos(QosChoice choice) {
  dds::DataWriterQos qos = dds::DATAWRITER_QOS_DEFAULT;
  set_common_qos(qos, choice);
  qos.publish_mode().kind = dds::SYNCHRONOUS_PUBLISH_MODE;
  return qos;
}

dds::DataReaderQos reader_qos(QosChoice choice) {
  dds::DataReaderQos qos = dds::DATAREADER_QOS_DEFAULT;
  set_common_qos(qos, choice);
  return qos;
}

nlohmann::json middleware_config(const std::string& profiles, const Participant& participant,
                                 Transport transport, Wait wait, const nlohmann::json& stale_shm) {
  const Endpoint& endpoint = participant.endpoint();
  const QosChoice& qos = participant.qos();
  const bool intraprocess =
      eprosima::fastrtps::xmlparser::XMLProfileManager::library_settings().intraprocess_delivery ==
      eprosima::fastrtps::INTRAPROCESS_FULL;
  return {
      {"profiles_file", profiles},
      {"participant_profile", profile_of(transport)},
      {"transport", transport_text(transport, participant.network())},
      {"network", transport == Transport::shm ? nlohmann::json() : participant.network().to_json()},
      {"intraprocess_delivery", intraprocess ? "FULL" : "not FULL"},
      {"domain_id", endpoint.domain},
      {"topics", {{"ping", endpoint.ping_topic}, {"pong", endpoint.pong_topic}}},
      {"type", "mwbench_fastdds::Sample (PingPong.idl)"},
      {"qos",
       {{"reliability", qos.best_effort ? "best_effort" : "reliable"},
        {"history", "keep_last " + std::to_string(qos.history_depth)},
        {"durability", "volatile"},
        {"publish_mode", "synchronous"},
        {"data_sharing", qos.data_sharing ? "on (type bounded by the cell's payload)" : "off"}}},
      {"wait", to_string(wait)},
      {"stale_shm", stale_shm},
  };
}

}  // namespace fastdds_driver
