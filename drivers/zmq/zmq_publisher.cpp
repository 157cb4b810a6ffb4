// The fan-out publisher's sockets, handshake and measured call
// (zmq_publisher.hpp).
#include "zmq_publisher.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace zmq_driver {

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds(double s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

// The subscribers whose last answered probe (0: none) is not `wanted`, or
// with `wanted` 0 those that answered none.
std::string list_missing(const std::vector<std::uint64_t>& answered, std::uint64_t wanted) {
  std::string list;
  int count = 0;
  for (std::size_t s = 0; s < answered.size(); ++s) {
    if (wanted == 0 ? answered[s] != 0 : answered[s] == wanted) continue;
    if (++count <= 8) list += (list.empty() ? "" : ", ") + std::to_string(s);
  }
  if (count > 8) list += ", ...";
  return std::to_string(count) + " of " + std::to_string(answered.size()) + " subscribers (" +
         list + ")";
}

}  // namespace

Publisher::Publisher(zmq::context_t& context, const mwbench::DriverOptions& o,
                     const std::vector<std::string>& endpoints, Wait wait)
    : pub_(context, zmq::socket_type::pub),
      pull_(context, zmq::socket_type::pull),
      event_(sizeof(FanoutHeader) + o.payload_bytes),
      tally_(o.subscribers),
      wait_(wait),
      timeout_ms_(static_cast<int>(std::ceil(o.timeout_s * 1000))) {
  if (endpoints.size() != 2 * static_cast<std::size_t>(o.subscribers)) {
    throw std::runtime_error("the subscriber processes host " +
                             std::to_string(endpoints.size() / 2) + " subscribers, --subscribers " +
                             std::to_string(o.subscribers) +
                             " needs as many: give each process its share in --subscribers");
  }
  const FanoutHeader header{0, kEvent, 0};
  std::memcpy(event_.data(), &header, sizeof header);
  for (std::size_t i = 0; i < o.payload_bytes; ++i) {
    event_[sizeof header + i] = pattern_byte(i);
  }
  pub_.set(zmq::sockopt::linger, 0);
  pull_.set(zmq::sockopt::linger, 0);
  pull_.set(zmq::sockopt::rcvtimeo, timeout_ms_);  // wait=block: a receive ends after --timeout
  for (std::size_t i = 0; i < endpoints.size(); i += 2) {
    pub_.connect(endpoints[i]);
    pull_.connect(endpoints[i + 1]);
  }
  handshake(o.timeout_s);
}

void Publisher::handshake(double timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  std::vector<std::uint64_t> answered(static_cast<std::size_t>(tally_.subscribers()), 0);
  std::uint64_t probe = 0;
  std::size_t joined = 0;
  // Every answer that has arrived, each subscriber's last kept; then waits
  // up to 1 ms for more.
  auto take_answers = [&] {
    zmq::pollitem_t item{pull_.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, std::chrono::milliseconds(1));
    while (const auto got =
               pull_.recv(zmq::buffer(&reply_, sizeof reply_), zmq::recv_flags::dontwait)) {
      const auto who = static_cast<std::size_t>(reply_.subscriber);
      if (got->untruncated_size != sizeof reply_ || reply_.kind != kProbe ||
          who >= answered.size() || reply_.number > probe) {
        throw std::runtime_error("fanout: a wrong answer to the handshake (" +
                                 std::to_string(got->untruncated_size) + " bytes, kind " +
                                 std::to_string(reply_.kind) + ", subscriber " +
                                 std::to_string(reply_.subscriber) + ")");
      }
      if (answered[who] == 0) ++joined;
      answered[who] = reply_.number;
    }
  };
  auto give_up = [&](std::uint64_t wanted, const char* what) {
    throw std::runtime_error("fanout: " + list_missing(answered, wanted) + " " + what + " within " +
                             seconds(timeout_s) + " (--timeout)");
  };
  while (joined < answered.size()) {  // until every subscription has arrived
    if (Clock::now() > deadline) give_up(0, "did not answer");
    const FanoutHeader header{++probe, kProbe, 0};
    pub_.send(zmq::buffer(&header, sizeof header), zmq::send_flags::none);
    take_answers();
  }
  for (;;) {  // until no probe is left in flight
    bool all = true;
    for (const auto last : answered) all = all && last == probe;
    if (all) return;
    if (Clock::now() > deadline) give_up(probe, "did not answer the last probe");
    take_answers();
  }
}

std::optional<std::size_t> Publisher::receive_reply() {
  const zmq::mutable_buffer into(&reply_, sizeof reply_);
  if (wait_ == Wait::block) {  // ZMQ_RCVTIMEO: empty after --timeout
    if (const auto got = pull_.recv(into, zmq::recv_flags::none)) return got->untruncated_size;
    return std::nullopt;
  }
  // wait=spin: the thread is busy anyway, so the clock it reads costs nothing.
  if (const auto got = pull_.recv(into, zmq::recv_flags::dontwait)) return got->untruncated_size;
  const std::uint64_t until = mwbench::now_ns() + std::uint64_t(timeout_ms_) * 1000000;
  for (;;) {
    if (const auto got = pull_.recv(into, zmq::recv_flags::dontwait)) return got->untruncated_size;
    if (mwbench::now_ns() > until) return std::nullopt;
  }
}

void Publisher::publish(mwbench::Measurement& m) {
  if (failed_) return;
  const std::uint64_t event = ++next_event_;
  tally_.expect(event);
  std::memcpy(event_.data(), &event, sizeof event);  // FanoutHeader::number comes first
  try {
    pub_.send(zmq::buffer(event_.data(), event_.size()), zmq::send_flags::none);
    for (;;) {
      const auto size = receive_reply();
      if (!size) return fail(m, "no reply for " + seconds(timeout_ms_ / 1000.0) + " (--timeout)");
      if (*size != sizeof reply_ || reply_.kind != kEvent) {
        return fail(m, "a wrong reply (" + std::to_string(*size) + " bytes, kind " +
                           std::to_string(reply_.kind) + ")");
      }
      const int who = static_cast<int>(reply_.subscriber);
      switch (tally_.count(who, reply_.number)) {
        case mwbench::ReplyTally::Reply::counted:
          break;
        case mwbench::ReplyTally::Reply::last:
          return;
        case mwbench::ReplyTally::Reply::unexpected:
          return fail(m, tally_.describe(who, reply_.number));
      }
    }
  } catch (const zmq::error_t& e) {
    fail(m, e.what());
  }
}

void Publisher::fail(mwbench::Measurement& m, const std::string& why) {
  failed_ = true;
  m.fail("fanout: " + why + "; " + tally_.describe_missing());
}

}  // namespace zmq_driver
