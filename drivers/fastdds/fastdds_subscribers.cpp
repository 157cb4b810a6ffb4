// The subscribers: take each event, write the reply, count.
#include "fastdds_subscribers.hpp"

#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/ReadCondition.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <stdexcept>
#include <thread>

#include "Fanout.h"

namespace fastdds_driver {

namespace {

constexpr std::uint8_t kIntact = 1;
constexpr std::uint8_t kMismatch = 0;

}  // namespace

class Subscribers::Subscriber : public dds::DataReaderListener {
 public:
  Subscriber(Subscribers& owner, int number) : owner(owner), number(number) {}
  void on_data_available(dds::DataReader*) override { owner.answer_all(*this); }

  Subscribers& owner;
  const int number;
  dds::DataReader* reader = nullptr;
  dds::DataWriter* writer = nullptr;
  dds::ReadCondition* condition = nullptr;  // wait=waitset
  dds::GuardCondition guard;                // triggered by stop()
  dds::WaitSet waitset;
  dds::ConditionSeq active;
  mwbench_fastdds::Event event;
  mwbench_fastdds::Reply reply;
  dds::SampleInfo info;
  alignas(64) std::atomic<std::uint64_t> received{0};  // written by one thread only
  std::thread thread;
};

Subscribers::Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
                         std::size_t payload_bytes, bool verify)
    : participant_(participant), wait_(wait), payload_bytes_(payload_bytes), verify_(verify) {
  active_.reserve(4);
  check(waitset_.attach_condition(guard_), "attach_condition (guard)");
  for (int k = 0; k < count; ++k) {
    auto& s = *subscribers_.emplace_back(std::make_unique<Subscriber>(*this, first + k));
    s.event.payload().reserve(payload_bytes);  // taking an event allocates nothing
    s.reply.subscriber(s.number);
    s.active.reserve(4);
    s.writer = check(participant.publisher()->create_datawriter(participant.reply_topic(),
                                                                writer_qos(), nullptr),
                     "create_datawriter (reply)");
    s.reader = check(
        participant.subscriber()->create_datareader(
            participant.event_topic(), reader_qos(), wait == Wait::listener ? &s : nullptr,
            wait == Wait::listener ? dds::StatusMask::data_available() : dds::StatusMask::none()),
        "create_datareader (event)");
    if (wait == Wait::waitset) {
      s.condition = check(s.reader->create_readcondition(dds::ANY_SAMPLE_STATE, dds::ANY_VIEW_STATE,
                                                         dds::ANY_INSTANCE_STATE),
                          "create_readcondition (event)");
      check(s.waitset.attach_condition(*s.condition), "attach_condition (event)");
      check(s.waitset.attach_condition(s.guard), "attach_condition (guard)");
    }
  }
}

Subscribers::~Subscribers() {
  stop();
  for (auto& s : subscribers_) {
    if (s->thread.joinable()) s->thread.join();
  }
  for (auto& s : subscribers_) {
    if (s->condition != nullptr) {
      s->waitset.detach_condition(*s->condition);
      s->reader->delete_readcondition(s->condition);
    }
    if (wait_ == Wait::waitset) s->waitset.detach_condition(s->guard);
    // Deleting the reader waits for a listener that is running.
    if (s->reader != nullptr) participant_.subscriber()->delete_datareader(s->reader);
    if (s->writer != nullptr) participant_.publisher()->delete_datawriter(s->writer);
  }
  waitset_.detach_condition(guard_);
}

void Subscribers::start() {
  if (wait_ == Wait::listener) return;
  for (auto& s : subscribers_) {
    Subscriber* const own = s.get();
    s->thread = std::thread([this, own] { run(*own); });
  }
}

void Subscribers::stop() noexcept {
  stop_.store(true, std::memory_order_relaxed);
  guard_.set_trigger_value(true);
  for (auto& s : subscribers_) s->guard.set_trigger_value(true);
}

void Subscribers::serve() {
  while (!stop_.load(std::memory_order_relaxed)) {
    const ReturnCode ret = waitset_.wait(active_, eprosima::fastrtps::c_TimeInfinite);
    if (ret != ReturnCode::RETCODE_TIMEOUT) check(ret, "WaitSet::wait (stop)");
  }
}

void Subscribers::join() {
  stop();
  for (auto& s : subscribers_) {
    if (s->thread.joinable()) s->thread.join();
  }
  const std::lock_guard lock(failure_mutex_);
  if (!failure_.empty()) throw std::runtime_error(failure_);
}

std::vector<std::uint64_t> Subscribers::received() const {
  std::vector<std::uint64_t> counts;
  for (const auto& s : subscribers_) counts.push_back(s->received.load(std::memory_order_relaxed));
  return counts;
}

void Subscribers::run(Subscriber& s) noexcept {
  while (!stop_.load(std::memory_order_relaxed)) {
    if (wait_ == Wait::waitset) {
      const ReturnCode ret = s.waitset.wait(s.active, eprosima::fastrtps::c_TimeInfinite);
      if (ret != ReturnCode::RETCODE_OK && ret != ReturnCode::RETCODE_TIMEOUT) {
        record_failure("subscriber " + std::to_string(s.number) +
                       ": WaitSet::wait failed, return code " + std::to_string(ret()));
        return;
      }
    }
    answer_all(s);
  }
}

void Subscribers::answer_all(Subscriber& s) noexcept {
  for (;;) {
    const ReturnCode taken = s.reader->take_next_sample(&s.event, &s.info);
    if (taken == ReturnCode::RETCODE_NO_DATA) return;
    if (taken != ReturnCode::RETCODE_OK) {
      record_failure("subscriber " + std::to_string(s.number) +
                     ": DataReader::take_next_sample (event) failed, return code " +
                     std::to_string(taken()));
      stop();
      return;
    }
    if (!s.info.valid_data) continue;
    s.reply.event_number(s.event.number());
    s.reply.status(kIntact);
    if (verify_) {
      const std::vector<std::uint8_t>& payload = s.event.payload();
      const std::size_t length = payload.size();
      std::size_t bad = 0;
      while (bad < length && payload[bad] == pattern_byte(bad)) ++bad;
      if (length != payload_bytes_ || bad != length) {
        s.reply.status(kMismatch);
        record_failure("subscriber " + std::to_string(s.number) + ": payload mismatch at byte " +
                       std::to_string(bad) + " of " + std::to_string(length) + " (expected " +
                       std::to_string(payload_bytes_) + " bytes; verify=1)");
      }
    }
    if (!s.writer->write(&s.reply)) {
      record_failure("subscriber " + std::to_string(s.number) +
                     ": DataWriter::write (reply) failed");
      stop();
      return;
    }
    // Event 0 is a handshake probe (fastdds_publisher.hpp), not an event.
    if (s.event.number() != 0) {
      s.received.store(s.received.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
  }
}

void Subscribers::record_failure(std::string message) noexcept {
  const std::lock_guard lock(failure_mutex_);
  if (failure_.empty()) failure_ = std::move(message);
}

}  // namespace fastdds_driver
