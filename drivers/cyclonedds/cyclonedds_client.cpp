// The client end: ping writer, pong reader, the three wait strategies.
#include "cyclonedds_client.hpp"

#include <chrono>
#include <thread>

#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace cyclonedds {

namespace {

// How long connect() waits for the answer to one ping before sending another.
constexpr double kHandshakeAttemptS = 0.1;

std::string seconds(double s) {
  std::string text = std::to_string(s);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

Client::Timeout Client::make_timeout(double seconds) noexcept {
  const auto ns = static_cast<std::int64_t>(seconds * 1e9);
  return {ns, {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)}};
}

Client::Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : participant_(participant),
      wait_(wait),
      measurement_(measurement),
      timeout_s_(timeout_s),
      timeout_(make_timeout(timeout_s)),
      payload_(payload_bytes) {
  for (std::size_t i = 0; i < payload_.size(); ++i) payload_[i] = pattern_byte(i);
  ping_.payload._buffer = payload_.data();
  ping_.payload._length = ping_.payload._maximum = static_cast<std::uint32_t>(payload_.size());
  ping_.payload._release = false;

  const EndpointQos qos;
  writer_ =
      check(dds_create_writer(participant.handle(), participant.ping_topic(), qos.get(), nullptr),
            "dds_create_writer (ping)");
  dds_listener_t* listener = nullptr;
  if (wait == Wait::listener) {
    listener = dds_create_listener(&doorbell_);
    dds_lset_data_available(listener, &Client::on_data_available);
  } else if (wait == Wait::chain) {
    listener = dds_create_listener(this);
    dds_lset_data_available(listener, &Client::on_pong);
  }
  reader_ = dds_create_reader(participant.handle(), participant.pong_topic(), qos.get(), listener);
  if (listener != nullptr) dds_delete_listener(listener);  // the reader keeps a copy
  check(reader_, "dds_create_reader (pong)");
  if (wait == Wait::waitset) {
    waitset_ = check(dds_create_waitset(participant.handle()), "dds_create_waitset");
    const dds_entity_t condition =
        check(dds_create_readcondition(reader_, DDS_ANY_STATE), "dds_create_readcondition");
    check(dds_waitset_attach(waitset_, condition, 0), "dds_waitset_attach");
  }
}

Client::~Client() {
  if (reader_ > 0) dds_delete(reader_);  // its read condition with it
  if (waitset_ > 0) dds_delete(waitset_);
  if (writer_ > 0) dds_delete(writer_);
}

void Client::on_data_available(dds_entity_t, void* doorbell) {
  static_cast<Doorbell*>(doorbell)->ring();
}

void Client::on_pong(dds_entity_t, void* client) {
  auto* self = static_cast<Client*>(client);
  if (self->chained_.load(std::memory_order_acquire)) {
    self->take_pongs();
  } else {
    self->doorbell_.ring();  // connect() is waiting, and takes the pong itself
  }
}

void Client::take_pongs() noexcept {
  void* into = &pong_.get();
  for (;;) {
    const dds_return_t taken = dds_take(reader_, &into, &info_, 1, 1);
    if (taken < 0) {
      measurement_.fail(std::string("dds_take (pong): ") + dds_strretcode(taken));
      measurement_.replied();  // the chain sees the failure and ends
      return;
    }
    if (taken == 0) return;
    if (!info_.valid_data || pong_.get().seq < seq_.load()) continue;  // stale: connect()'s pings
    check_pong();
    measurement_.replied();  // writes the next ping, from this thread
  }
}

void Client::run_chained() {
  chained_.store(true, std::memory_order_release);
  measurement_.run_chained([this] { write_ping(); });
}

void Client::connect() {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s_);
  const Endpoint& e = participant_.endpoint();
  const std::string after = " after " + seconds(timeout_s_) + " s (domain " +
                            std::to_string(e.domain) + "; is the server running?)";
  dds_publication_matched_status_t published{};
  for (;;) {
    check(dds_get_publication_matched_status(writer_, &published), "publication matched status");
    if (published.current_count > 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no matching reader on topic " + e.ping_topic + after);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  dds_subscription_matched_status_t subscribed{};
  for (;;) {
    check(dds_get_subscription_matched_status(reader_, &subscribed), "subscription matched status");
    if (subscribed.current_count > 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no matching writer on topic " + e.pong_topic + after);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Matched here does not mean matched there: until the server has
  // discovered this reader, its pongs go nowhere. So ping until answered.
  const Timeout attempt = make_timeout(kHandshakeAttemptS);
  while (std::chrono::steady_clock::now() < deadline) {
    write_ping();
    if (await_pong(attempt) == Await::answered) return;
  }
  throw std::runtime_error("no pong on topic " + e.pong_topic + " answered a ping on " +
                           e.ping_topic + after);
}

void Client::call() {
  write_ping();
  if (await_pong(timeout_) == Await::timed_out) {
    throw std::runtime_error("no pong for ping " + std::to_string(seq_.load()) + " on topic " +
                             participant_.endpoint().pong_topic + " within " + seconds(timeout_s_) +
                             " s (--timeout)");
  }
}

void Client::write_ping() {
  ping_.seq = seq_.load(std::memory_order_relaxed) + 1;
  ping_.stamp = mwbench::now_ns();
  seq_.store(ping_.seq, std::memory_order_relaxed);
  stamp_.store(ping_.stamp, std::memory_order_relaxed);
  check(dds_write(writer_, &ping_), "dds_write (ping)");
}

Client::Await Client::await_pong(const Timeout& timeout) {
  void* into = &pong_.get();
  mwbench::common::SpinTimeout spinning(timeout.ns);
  for (;;) {
    switch (wait_) {
      case Wait::waitset:
        if (check(dds_waitset_wait(waitset_, nullptr, 0, timeout.ns), "dds_waitset_wait") == 0) {
          return Await::timed_out;
        }
        break;
      case Wait::listener:
      case Wait::chain:  // connect(): the listener rings until the chain begins
        if (!doorbell_.wait(timeout.ts)) return Await::timed_out;
        break;
      case Wait::poll:
        if (spinning.expired()) return Await::timed_out;
        break;
    }
    if (check(dds_take(reader_, &into, &info_, 1, 1), "dds_take (pong)") == 0) continue;
    if (!info_.valid_data) continue;  // a state change (the server's writer went away)
    const mwbench_dds_Sample& pong = pong_.get();
    if (pong.seq < seq_.load()) continue;  // a late answer to an earlier ping of connect()
    check_pong();
    return Await::answered;
  }
}

void Client::check_pong() {
  const mwbench_dds_Sample& pong = pong_.get();
  if (pong.seq != seq_.load()) {
    measurement_.fail("pong " + std::to_string(pong.seq) + " answers no ping sent (last ping " +
                      std::to_string(seq_.load()) + ")");
  } else if (pong.stamp != stamp_.load(std::memory_order_relaxed)) {
    measurement_.fail("pong " + std::to_string(pong.seq) + " carries the timestamp " +
                      std::to_string(pong.stamp) + ", its ping " +
                      std::to_string(stamp_.load(std::memory_order_relaxed)));
  } else if (pong.status != 1) {
    measurement_.fail("octets: the server found a payload mismatch (verify=1)");
  }
}

}  // namespace cyclonedds
