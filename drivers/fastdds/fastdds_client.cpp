// The client end: ping writer, pong reader, the three wait strategies.
#include "fastdds_client.hpp"

#include <chrono>
#include <thread>

#include "common/spin_timeout.hpp"
#include "mwbench/clock.hpp"

namespace fastdds_driver {

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
  const auto s = static_cast<std::int32_t>(ns / 1'000'000'000);
  const auto rest = static_cast<std::uint32_t>(ns % 1'000'000'000);
  return {ns, {static_cast<time_t>(s), static_cast<long>(rest)}, Duration(s, rest)};
}

Client::Client(Participant& participant, Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
    : participant_(participant),
      wait_(wait),
      measurement_(measurement),
      timeout_s_(timeout_s),
      timeout_(make_timeout(timeout_s)) {
  auto& payload = ping_.payload();
  payload.resize(payload_bytes);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = pattern_byte(i);
  active_.reserve(4);

  writer_ = check(participant.publisher()->create_datawriter(participant.ping_topic(),
                                                             participant.writer_qos(), nullptr),
                  "create_datawriter (ping)");
  reader_ = check(
      participant.subscriber()->create_datareader(
          participant.pong_topic(), participant.reader_qos(),
          answers_in_listener(wait) ? this : nullptr,
          answers_in_listener(wait) ? dds::StatusMask::data_available() : dds::StatusMask::none()),
      "create_datareader (pong)");
  if (wait == Wait::waitset) {
    condition_ = check(reader_->create_readcondition(dds::ANY_SAMPLE_STATE, dds::ANY_VIEW_STATE,
                                                     dds::ANY_INSTANCE_STATE),
                       "create_readcondition (pong)");
    check(waitset_.attach_condition(*condition_), "attach_condition (pong)");
  }
}

Client::~Client() {
  if (condition_ != nullptr) {
    waitset_.detach_condition(*condition_);
    reader_->delete_readcondition(condition_);
  }
  // Deleting the reader waits for a listener that is running.
  if (reader_ != nullptr) participant_.subscriber()->delete_datareader(reader_);
  if (writer_ != nullptr) participant_.publisher()->delete_datawriter(writer_);
}

void Client::on_data_available(dds::DataReader*) {
  if (chained_.load(std::memory_order_acquire)) {
    take_pongs();
  } else {
    doorbell_.ring();  // wait=listener, or connect() of wait=chain: the waiter takes
  }
}

void Client::take_pongs() noexcept {
  for (;;) {
    const ReturnCode ret = reader_->take_next_sample(&pong_, &info_);
    if (ret == ReturnCode::RETCODE_NO_DATA) return;
    if (ret != ReturnCode::RETCODE_OK) {
      measurement_.fail("DataReader::take_next_sample (pong) failed, return code " +
                        std::to_string(ret()));
      measurement_.replied();  // the chain sees the failure and ends
      return;
    }
    if (!info_.valid_data || pong_.seq() < seq_.load()) continue;  // stale: connect()'s
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
  dds::PublicationMatchedStatus published;
  for (;;) {
    check(writer_->get_publication_matched_status(published), "publication matched status");
    if (published.current_count > 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no matching reader on topic " + e.ping_topic + after);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  dds::SubscriptionMatchedStatus subscribed;
  for (;;) {
    check(reader_->get_subscription_matched_status(subscribed), "subscription matched status");
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
  ping_.seq(seq_.load(std::memory_order_relaxed) + 1);
  ping_.stamp(mwbench::now_ns());
  seq_.store(ping_.seq(), std::memory_order_relaxed);
  stamp_.store(ping_.stamp(), std::memory_order_relaxed);
  if (!writer_->write(&ping_)) throw std::runtime_error("DataWriter::write (ping) failed");
}

Client::Await Client::await_pong(const Timeout& timeout) {
  mwbench::common::SpinTimeout spinning(timeout.ns);
  for (;;) {
    switch (wait_) {
      case Wait::waitset: {
        const ReturnCode ret = waitset_.wait(active_, timeout.duration);
        if (ret == ReturnCode::RETCODE_TIMEOUT) return Await::timed_out;
        check(ret, "WaitSet::wait (pong)");
        break;
      }
      case Wait::listener:
      case Wait::chain:  // connect(): the listener rings until the chain begins
        if (!doorbell_.wait(timeout.ts)) return Await::timed_out;
        break;
      case Wait::poll:
        if (spinning.expired()) return Await::timed_out;
        break;
    }
    // Take everything there is: with a listener, one ring may stand for
    // several samples (a late answer from connect(), then ours).
    for (;;) {
      const ReturnCode ret = reader_->take_next_sample(&pong_, &info_);
      if (ret == ReturnCode::RETCODE_NO_DATA) break;
      check(ret, "DataReader::take_next_sample (pong)");
      if (!info_.valid_data) continue;          // a state change (the server's writer went away)
      if (pong_.seq() < seq_.load()) continue;  // a late answer to a ping of connect()
      check_pong();
      return Await::answered;
    }
  }
}

void Client::check_pong() {
  if (pong_.seq() != seq_.load()) {
    measurement_.fail("pong " + std::to_string(pong_.seq()) + " answers no ping sent (last ping " +
                      std::to_string(seq_.load()) + ")");
  } else if (pong_.stamp() != stamp_.load(std::memory_order_relaxed)) {
    measurement_.fail("pong " + std::to_string(pong_.seq()) + " carries the timestamp " +
                      std::to_string(pong_.stamp()) + ", its ping " +
                      std::to_string(stamp_.load(std::memory_order_relaxed)));
  } else if (pong_.status() != 1) {
    measurement_.fail("octets: the server found a payload mismatch (verify=1)");
  }
}

}  // namespace fastdds_driver
