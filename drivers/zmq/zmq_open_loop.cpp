// The zmq driver's open loop (zmq_open_loop.hpp).
#include "zmq_open_loop.hpp"

#include <poll.h>
#include <zmq.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "mwbench/clock.hpp"

namespace zmq_driver {

namespace {

enum class Operation { roundtrip, ping, octets };

Operation operation_of(const std::string& name) {
  if (name == "roundtrip") return Operation::roundtrip;
  if (name == "ping") return Operation::ping;
  return Operation::octets;
}

// A socket of the open loop: closing it never waits, and no queue of it has
// a limit (zmq_open_loop.hpp).
zmq::socket_t unbounded_socket(zmq::context_t& context, zmq::socket_type type) {
  zmq::socket_t socket(context, type);
  socket.set(zmq::sockopt::linger, 0);
  socket.set(zmq::sockopt::sndhwm, 0);
  socket.set(zmq::sockopt::rcvhwm, 0);
  return socket;
}

// The DEALER, owned by the harness's sending thread: send() writes a
// request, and wait_until() (run_open's) waits on the socket's ZMQ_FD with
// ppoll() to the deadline, taking every reply that is there. ZMQ_FD only
// says that the socket has something to process, so ZMQ_EVENTS (which
// processes it) says whether a reply waits, before every poll, as ZeroMQ's
// manual asks.
class Caller {
 public:
  Caller(zmq::context_t& context, const mwbench::DriverOptions& o, const std::string& endpoint,
         Wait wait, mwbench::Measurement& m)
      : m_(m),
        wait_(wait),
        operation_(operation_of(o.operation)),
        dealer_(unbounded_socket(context, zmq::socket_type::dealer)),
        sent_ns_(o.warmup + o.samples, 0),
        request_(operation_ == Operation::octets ? octets_request(o.payload_bytes)
                                                 : std::vector<std::uint8_t>{kPingByte}) {
    dealer_.connect(endpoint);
    fd_ = dealer_.get(zmq::sockopt::fd);
  }

  // Receives until `deadline_ns` (wait=spin: polling without sleep), or
  // returns after the replies that came.
  void wait_until(std::uint64_t deadline_ns) noexcept {
    try {
      for (;;) {
        if ((dealer_.get(zmq::sockopt::events) & ZMQ_POLLIN) != 0) {
          while (take_reply()) {
          }
          return;
        }
        const std::uint64_t now = mwbench::now_ns();
        if (now >= deadline_ns) return;
        const std::uint64_t left = wait_ == Wait::spin ? 0 : deadline_ns - now;
        const timespec timeout{static_cast<time_t>(left / 1'000'000'000u),
                               static_cast<long>(left % 1'000'000'000u)};
        pollfd ready{fd_, POLLIN, 0};
        if (::ppoll(&ready, 1, &timeout, nullptr) < 0 && errno == EINTR) return;  // a signal
      }
    } catch (const std::exception& e) {
      m_.fail(std::string("the open loop's replies: ") + e.what());
    }
  }

  void send_request(std::uint64_t call) {
    const std::uint64_t stamp = mwbench::now_ns();
    sent_ns_[call] = stamp;  // in flight; roundtrip: what the echo must be
    dealer_.send(zmq::buffer(&call, sizeof call), zmq::send_flags::sndmore);
    dealer_.send(zmq::const_buffer(), zmq::send_flags::sndmore);  // the envelope's end
    if (operation_ == Operation::roundtrip) {
      dealer_.send(zmq::buffer(&stamp, sizeof stamp), zmq::send_flags::none);
    } else {
      dealer_.send(zmq::buffer(request_.data(), request_.size()), zmq::send_flags::none);
    }
  }

 private:
  bool more() { return dealer_.get(zmq::sockopt::rcvmore) != 0; }

  // One reply, if one is waiting: [call number][empty][reply].
  bool take_reply() {
    std::uint64_t call = 0;
    const auto head = dealer_.recv(zmq::buffer(&call, sizeof call), zmq::recv_flags::dontwait);
    if (!head) return false;
    // A message's frames arrive together: once the first is here, so are the others.
    if (head->untruncated_size != sizeof call || !more() ||
        dealer_.recv(zmq::mutable_buffer(), zmq::recv_flags::none)->untruncated_size != 0 ||
        !more()) {
      throw std::runtime_error("a reply without the envelope [call number][empty]");
    }
    const std::size_t size =
        dealer_.recv(zmq::buffer(reply_, sizeof reply_), zmq::recv_flags::none)->untruncated_size;
    if (more()) throw std::runtime_error("a reply of more frames than [call number][empty][reply]");
    if (call >= sent_ns_.size() || sent_ns_[call] == 0) {
      throw std::runtime_error("a reply to call " + std::to_string(call) +
                               ", which is not in flight");
    }
    m_.completed(call);
    check(sent_ns_[call], size);
    sent_ns_[call] = 0;
    return true;
  }

  void check(std::uint64_t stamp, std::size_t size) {
    switch (operation_) {
      case Operation::roundtrip:
        if (size != sizeof stamp || std::memcmp(reply_, &stamp, sizeof stamp) != 0) {
          m_.fail("roundtrip: the echo differs from the timestamp sent");
        }
        return;
      case Operation::ping:
        if (size != 1 || reply_[0] != kPingByte)
          m_.fail("ping: the echo differs from the byte sent");
        return;
      case Operation::octets:
        if (size != 1 || reply_[0] != kStatusOk) {
          m_.fail("octets: the REP side found a payload mismatch (verify=1)");
        }
        return;
    }
  }

  mwbench::Measurement& m_;
  const Wait wait_;
  const Operation operation_;
  zmq::socket_t dealer_;
  int fd_ = -1;                              // ZMQ_FD of the DEALER
  std::vector<std::uint64_t> sent_ns_;       // per call: when its request left; 0 = not in flight
  const std::vector<std::uint8_t> request_;  // ping and octets: the request's body
  std::uint8_t reply_[sizeof(std::uint64_t) + 1] = {};  // one byte more shows a longer reply
};

}  // namespace

void measure_open_loop(zmq::context_t& context, const mwbench::DriverOptions& o,
                       const std::string& endpoint, Wait wait, mwbench::Measurement& m) {
  Caller caller(context, o, endpoint, wait, m);
  m.run_open([&caller](std::uint64_t call) { caller.send_request(call); },
             [&caller](std::uint64_t deadline_ns) { caller.wait_until(deadline_ns); });
}

}  // namespace zmq_driver
