// The `dds` delivery strategy on Cyclone DDS (dds_channel.hpp).
#include <mutex>
#include <mwbench/dds/check.hpp>
#include <mwbench/dds/qos.hpp>
#include <mwbench/dds/unicast_config.hpp>
#include <mwccm/dds_channel.hpp>
#include <stdexcept>
#include <thread>

#include "MwccmDds.h"
#include "dds/dds.h"

namespace mwccm {
namespace {

using mwbench::dds::check;

std::string where(const DdsDomain& domain) {
  return "domain " + std::to_string(domain.id) + " on " + domain.address +
         (domain.partition.empty() ? "" : ", partition " + domain.partition);
}

// This process's participant, shared by its writers and readers: the first
// makes it (a domain on one interface, with no multicast), the last deletes
// it, and with it Cyclone's threads and sockets.
class Participant {
 public:
  explicit Participant(const DdsDomain& domain) {
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    if (s.users == 0) {
      const std::string config = mwbench::dds::unicast_config(domain.address, domain.peers);
      const std::string what = "dds_create_domain (" + where(domain) + ")";
      s.domain = check(dds_create_domain(domain.id, config.c_str()), what.c_str());
      const dds_entity_t participant = dds_create_participant(domain.id, nullptr, nullptr);
      if (participant < 0) dds_delete(s.domain);
      s.participant = check(participant, "dds_create_participant");
      s.id = domain.id;
      s.address = domain.address;
    } else if (s.id != domain.id || s.address != domain.address) {
      throw std::runtime_error(
          "this process's DDS participant is in domain " + std::to_string(s.id) + " on " +
          s.address + "; one process has one participant, so none is made in " + where(domain));
    }
    ++s.users;
    handle_ = s.participant;
  }
  ~Participant() {
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    if (--s.users == 0) dds_delete(s.domain);  // its participant and everything under it
  }
  Participant(const Participant&) = delete;
  Participant& operator=(const Participant&) = delete;
  dds_entity_t handle() const noexcept { return handle_; }

 private:
  struct Shared {
    std::mutex mutex;
    int users = 0;
    dds_entity_t domain = 0;
    dds_entity_t participant = 0;
    std::uint32_t id = 0;
    std::string address;
  };
  static Shared& shared() {
    static Shared the;
    return the;
  }
  dds_entity_t handle_ = 0;
};

// A publisher's or subscriber's QoS: the launch's partition.
class PartitionQos {
 public:
  explicit PartitionQos(const std::string& partition) : qos_(dds_create_qos()) {
    const char* name = partition.c_str();
    if (!partition.empty()) dds_qset_partition(qos_, 1, &name);
  }
  ~PartitionQos() { dds_delete_qos(qos_); }
  PartitionQos(const PartitionQos&) = delete;
  PartitionQos& operator=(const PartitionQos&) = delete;
  const dds_qos_t* get() const noexcept { return qos_; }

 private:
  dds_qos_t* qos_;
};

// A participant's own handle on the topic, deleted after its reader or writer.
dds_entity_t make_topic(dds_entity_t participant, const DdsTopic& topic) {
  const dds_entity_t made = dds_create_topic(participant, &MwccmDds_ChannelEvent_desc,
                                             topic.name.c_str(), nullptr, nullptr);
  if (made < 0) {
    throw std::runtime_error("DDS topic '" + topic.name + "': " + dds_strretcode(made) +
                             (made == DDS_RETCODE_BAD_PARAMETER
                                  ? " (a topic name is letters, digits, '_' and '/', and does "
                                    "not start with a digit)"
                                  : ""));
  }
  return made;
}

mwbench::dds::Qos endpoint_qos(const DdsTopic& topic) {
  return mwbench::dds::Qos({topic.reliable, topic.history_depth});
}

std::size_t matched(dds_entity_t entity, bool writer) {
  if (writer) {
    dds_publication_matched_status_t status;
    check(dds_get_publication_matched_status(entity, &status), "publication matched status");
    return status.current_count;
  }
  dds_subscription_matched_status_t status;
  check(dds_get_subscription_matched_status(entity, &status), "subscription matched status");
  return status.current_count;
}

// Waits, on the entity's matched status, until `wanted` peers match it.
void wait_matched(dds_entity_t participant, dds_entity_t entity, bool writer, std::size_t wanted,
                  std::chrono::milliseconds timeout, const std::string& topic) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  check(dds_set_status_mask(
            entity, writer ? DDS_PUBLICATION_MATCHED_STATUS : DDS_SUBSCRIPTION_MATCHED_STATUS),
        "dds_set_status_mask");
  const dds_entity_t waitset = check(dds_create_waitset(participant), "dds_create_waitset");
  std::size_t count = 0;
  try {
    check(dds_waitset_attach(waitset, entity, 0), "dds_waitset_attach");
    while ((count = matched(entity, writer)) < wanted) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      check(dds_waitset_wait(waitset, nullptr, 0,
                             std::chrono::duration_cast<std::chrono::nanoseconds>(left).count()),
            "dds_waitset_wait");
    }
  } catch (...) {
    dds_delete(waitset);
    throw;
  }
  dds_delete(waitset);
  if (count < wanted) {
    throw std::runtime_error("DDS topic '" + topic + "': the " + (writer ? "writer" : "reader") +
                             " matched " + std::to_string(count) + " of the " +
                             std::to_string(wanted) + " " + (writer ? "readers" : "writers") +
                             " the plan connects within " + std::to_string(timeout.count()) +
                             " ms (are their processes running, in the same " +
                             "domain and on the same address?)");
  }
}

class Writer final : public DdsWriter {
 public:
  Writer(const DdsDomain& domain, const DdsTopic& topic) : participant_(domain), topic_(topic) {
    const PartitionQos partition(domain.partition);
    publisher_ = check(dds_create_publisher(participant_.handle(), partition.get(), nullptr),
                       "dds_create_publisher");
    try {
      topic_entity_ = make_topic(participant_.handle(), topic);
      writer_ =
          check(dds_create_writer(publisher_, topic_entity_, endpoint_qos(topic).get(), nullptr),
                "dds_create_writer");
    } catch (...) {
      dds_delete(publisher_);
      if (topic_entity_ > 0) dds_delete(topic_entity_);
      throw;
    }
  }
  ~Writer() override {
    dds_delete(publisher_);  // and its writer, before the topic
    dds_delete(topic_entity_);
  }

  // The event's bytes are lent to the sample, not copied: dds_write
  // serializes them before it returns.
  bool send(const std::string& supplier, std::uint64_t sequence,
            std::span<const char> cdr) override {
    MwccmDds_ChannelEvent sample{};
    sample.supplier = const_cast<char*>(supplier.c_str());
    sample.sequence_number = sequence;
    sample.cdr._buffer = reinterpret_cast<std::uint8_t*>(const_cast<char*>(cdr.data()));
    sample.cdr._length = sample.cdr._maximum = static_cast<std::uint32_t>(cdr.size());
    sample.cdr._release = false;
    return dds_write(writer_, &sample) == DDS_RETCODE_OK;
  }
  std::string describe() const override { return "dds topic " + topic_.name; }
  void wait_for_readers(std::size_t readers, std::chrono::milliseconds timeout) override {
    wait_matched(participant_.handle(), writer_, true, readers, timeout, topic_.name);
  }

 private:
  Participant participant_;
  DdsTopic topic_;
  dds_entity_t publisher_ = 0;
  dds_entity_t topic_entity_ = 0;
  dds_entity_t writer_ = 0;
};

// A reader and the thread that takes its samples, in order, until the
// reader goes: each is one event for the channel, whatever its sinks.
class Reader final : public DdsReader {
 public:
  Reader(EventChannel& channel, const DdsDomain& domain, const DdsTopic& topic)
      : channel_(channel), participant_(domain), topic_(topic.name) {
    const dds_entity_t owner = participant_.handle();
    const PartitionQos partition(domain.partition);
    subscriber_ =
        check(dds_create_subscriber(owner, partition.get(), nullptr), "dds_create_subscriber");
    try {
      topic_entity_ = make_topic(owner, topic);
      reader_ =
          check(dds_create_reader(subscriber_, topic_entity_, endpoint_qos(topic).get(), nullptr),
                "dds_create_reader");
      waitset_ = check(dds_create_waitset(owner), "dds_create_waitset");
      guard_ = check(dds_create_guardcondition(owner), "dds_create_guardcondition");
      check(dds_waitset_attach(waitset_, guard_, 0), "dds_waitset_attach (guard)");
      const dds_entity_t data =
          check(dds_create_readcondition(reader_, DDS_ANY_STATE), "dds_create_readcondition");
      check(dds_waitset_attach(waitset_, data, 0), "dds_waitset_attach (reader)");
    } catch (...) {
      remove_entities();
      throw;
    }
    thread_ = std::thread([this] { run(); });
  }
  ~Reader() override {
    dds_set_guardcondition(guard_, true);
    thread_.join();
    remove_entities();
    for (auto& sample : samples_)
      dds_sample_free(&sample, &MwccmDds_ChannelEvent_desc, DDS_FREE_CONTENTS);
  }
  void wait_for_writers(std::size_t writers, std::chrono::milliseconds timeout) override {
    wait_matched(participant_.handle(), reader_, false, writers, timeout, topic_);
  }

 private:
  void remove_entities() {
    for (const dds_entity_t entity : {waitset_, guard_, subscriber_, topic_entity_}) {
      if (entity > 0) dds_delete(entity);
    }
  }

  void run() {
    for (;;) {
      if (dds_waitset_wait(waitset_, nullptr, 0, DDS_INFINITY) < 0) return;
      bool stop = false;
      dds_read_guardcondition(guard_, &stop);
      if (stop) return;
      take();
    }
  }

  // Taken into samples of this reader's own, handed over in the order they
  // arrived: Cyclone reads a sample's supplier and bytes into the buffers
  // the last sample left (a string or sequence it reuses when large
  // enough), so the steady state allocates nothing per event.
  void take() {
    void* samples[kBatch];
    for (std::size_t i = 0; i < kBatch; ++i) samples[i] = &samples_[i];
    dds_sample_info_t infos[kBatch];
    for (;;) {
      const dds_return_t taken = dds_take(reader_, samples, infos, kBatch, kBatch);
      if (taken <= 0) return;
      for (dds_return_t i = 0; i < taken; ++i) {
        if (!infos[i].valid_data) continue;  // a writer gone, not an event
        const MwccmDds_ChannelEvent& event = samples_[i];
        channel_.receive(event.supplier, event.sequence_number,
                         {reinterpret_cast<const char*>(event.cdr._buffer), event.cdr._length});
      }
    }
  }

  static constexpr std::size_t kBatch = 64;
  MwccmDds_ChannelEvent samples_[kBatch] = {};
  EventChannel& channel_;
  Participant participant_;
  std::string topic_;
  dds_entity_t subscriber_ = 0;
  dds_entity_t topic_entity_ = 0;
  dds_entity_t reader_ = 0;
  dds_entity_t waitset_ = 0;
  dds_entity_t guard_ = 0;
  std::thread thread_;
};

}  // namespace

bool dds_available() noexcept { return true; }

std::shared_ptr<DdsWriter> make_dds_writer(const DdsDomain& domain, const DdsTopic& topic) {
  return std::make_shared<Writer>(domain, topic);
}

std::unique_ptr<DdsReader> make_dds_reader(EventChannel& channel, const DdsDomain& domain,
                                           const DdsTopic& topic) {
  return std::make_unique<Reader>(channel, domain, topic);
}

}  // namespace mwccm
