// The subscribers: take each event, write the reply, count.
#include "cyclonedds_subscribers.hpp"

#include <stdexcept>

namespace cyclonedds {

namespace {

constexpr std::uint8_t kIntact = 1;
constexpr std::uint8_t kMismatch = 0;

}  // namespace

struct Subscribers::Subscriber {
  Subscriber(Subscribers& owner, int number, std::size_t payload_bytes)
      : owner(owner), number(number), event(payload_bytes) {}
  Subscribers& owner;
  const int number;
  dds_entity_t reader = 0;
  dds_entity_t writer = 0;
  dds_entity_t waitset = 0;  // wait=waitset
  OwnedEvent event;
  mwbench_dds_Reply reply{};
  dds_sample_info_t info{};
  alignas(64) std::atomic<std::uint64_t> received{0};  // written by one thread only
  std::thread thread;
};

Subscribers::Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
                         std::size_t payload_bytes, bool verify)
    : participant_(participant), wait_(wait), payload_bytes_(payload_bytes), verify_(verify) {
  const EndpointQos qos;
  waitset_ = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
  guard_ = check(dds_create_guardcondition(participant.handle()), "dds_create_guardcondition");
  check(dds_waitset_attach(waitset_, guard_, 0), "dds_waitset_attach (guard)");
  for (int k = 0; k < count; ++k) {
    auto& s =
        *subscribers_.emplace_back(std::make_unique<Subscriber>(*this, first + k, payload_bytes));
    s.reply.subscriber = s.number;
    s.writer = check(
        dds_create_writer(participant.publisher(), participant.reply_topic(), qos.get(), nullptr),
        "dds_create_writer (reply)");
    dds_listener_t* listener = nullptr;
    if (wait == Wait::listener) {
      listener = dds_create_listener(&s);
      dds_lset_data_available(listener, &Subscribers::on_data_available);
    }
    s.reader =
        dds_create_reader(participant.subscriber(), participant.event_topic(), qos.get(), listener);
    if (listener != nullptr) dds_delete_listener(listener);  // the reader keeps a copy
    check(s.reader, "dds_create_reader (event)");
    if (wait == Wait::waitset) {
      s.waitset = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
      const dds_entity_t condition =
          check(dds_create_readcondition(s.reader, DDS_ANY_STATE), "dds_create_readcondition");
      check(dds_waitset_attach(s.waitset, condition, 0), "dds_waitset_attach (event)");
      check(dds_waitset_attach(s.waitset, guard_, 0), "dds_waitset_attach (guard)");
    }
  }
}

Subscribers::~Subscribers() {
  stop();
  for (auto& s : subscribers_) {
    if (s->thread.joinable()) s->thread.join();
  }
  for (auto& s : subscribers_) {
    if (s->reader > 0) dds_delete(s->reader);  // its read condition with it
    if (s->waitset > 0) dds_delete(s->waitset);
    if (s->writer > 0) dds_delete(s->writer);
  }
  if (waitset_ > 0) dds_delete(waitset_);
  if (guard_ > 0) dds_delete(guard_);
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
  if (guard_ > 0) dds_set_guardcondition(guard_, true);
}

void Subscribers::serve() {
  while (!stop_.load(std::memory_order_relaxed)) {
    check(dds_waitset_wait(waitset_, nullptr, 0, DDS_INFINITY), "dds_waitset_wait");
  }
}

void Subscribers::join() {
  stop();
  for (auto& s : subscribers_) {
    if (s->thread.joinable()) s->thread.join();
    // Waits for a listener that is running; none runs after.
    if (wait_ == Wait::listener) dds_set_listener(s->reader, nullptr);
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
      const dds_return_t ret = dds_waitset_wait(s.waitset, nullptr, 0, DDS_INFINITY);
      if (ret < 0) {
        record_failure("subscriber " + std::to_string(s.number) +
                       ": dds_waitset_wait: " + dds_strretcode(ret));
        return;
      }
    }
    answer_all(s);
  }
}

void Subscribers::on_data_available(dds_entity_t, void* subscriber) {
  auto& s = *static_cast<Subscriber*>(subscriber);
  s.owner.answer_all(s);
}

void Subscribers::answer_all(Subscriber& s) noexcept {
  void* into = &s.event.get();
  for (;;) {
    const dds_return_t taken = dds_take(s.reader, &into, &s.info, 1, 1);
    if (taken < 0) {
      record_failure("subscriber " + std::to_string(s.number) +
                     ": dds_take (event): " + dds_strretcode(taken));
      stop();
      return;
    }
    if (taken == 0) return;
    if (!s.info.valid_data) continue;
    const mwbench_dds_Event& event = s.event.get();
    s.reply.event_number = event.number;
    s.reply.status = kIntact;
    if (verify_) {
      const std::size_t length = event.payload._length;
      std::size_t bad = 0;
      while (bad < length && event.payload._buffer[bad] == pattern_byte(bad)) ++bad;
      if (length != payload_bytes_ || bad != length) {
        s.reply.status = kMismatch;
        record_failure("subscriber " + std::to_string(s.number) + ": payload mismatch at byte " +
                       std::to_string(bad) + " of " + std::to_string(length) + " (expected " +
                       std::to_string(payload_bytes_) + " bytes; verify=1)");
      }
    }
    const dds_return_t written = dds_write(s.writer, &s.reply);
    if (written < 0) {
      record_failure("subscriber " + std::to_string(s.number) +
                     ": dds_write (reply): " + dds_strretcode(written));
      stop();
      return;
    }
    // Event 0 is a handshake probe (cyclonedds_publisher.hpp), not an event.
    if (event.number != 0) {
      s.received.store(s.received.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
  }
}

void Subscribers::record_failure(std::string message) noexcept {
  const std::lock_guard lock(failure_mutex_);
  if (failure_.empty()) failure_ = std::move(message);
}

}  // namespace cyclonedds
