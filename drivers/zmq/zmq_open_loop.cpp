// The zmq driver's open loop (zmq_open_loop.hpp).
#include "zmq_open_loop.hpp"

#include <zmq.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mwbench/clock.hpp"

namespace zmq_driver {

namespace {

// Where the sending thread hands call numbers to the reader.
constexpr const char* kCallsEndpoint = "inproc://mwbench-open-loop-calls";

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

// The reader thread's half: the DEALER and the inner end of the PAIR, made
// on the measuring thread and used only by the reader after (a thread's
// start orders the memory, as ZeroMQ asks of a socket that changes threads).
class Reader {
 public:
  Reader(zmq::context_t& context, const mwbench::DriverOptions& o, const std::string& endpoint,
         Wait wait, mwbench::Measurement& m)
      : m_(m),
        wait_ms_(wait == Wait::block ? -1 : 0),
        operation_(operation_of(o.operation)),
        calls_(unbounded_socket(context, zmq::socket_type::pair)),
        dealer_(unbounded_socket(context, zmq::socket_type::dealer)),
        sent_ns_(o.warmup + o.samples, 0),
        request_(operation_ == Operation::octets ? octets_request(o.payload_bytes)
                                                 : std::vector<std::uint8_t>{kPingByte}) {
    calls_.bind(kCallsEndpoint);
    dealer_.connect(endpoint);
  }

  // Until the sending thread says the sends are over (an empty message).
  void run() noexcept {
    try {
      zmq_pollitem_t items[] = {{dealer_.handle(), 0, ZMQ_POLLIN, 0},
                                {calls_.handle(), 0, ZMQ_POLLIN, 0}};
      for (;;) {
        if (zmq_poll(items, 2, wait_ms_) < 0) {
          if (zmq_errno() == EINTR) continue;  // a signal; the harness decides what it means
          throw zmq::error_t();
        }
        // Replies first: each one's time is taken when it is handed over.
        if ((items[0].revents & ZMQ_POLLIN) != 0) {
          while (take_reply()) {
          }
        }
        if ((items[1].revents & ZMQ_POLLIN) != 0 && !forward_calls()) return;
      }
    } catch (const std::exception& e) {
      m_.fail(std::string("the open loop's reader: ") + e.what());
    }
  }

 private:
  bool more() { return dealer_.get(zmq::sockopt::rcvmore) != 0; }

  // Every call number waiting on the PAIR, each sent as a request. False
  // once the sends are over.
  bool forward_calls() {
    for (;;) {
      std::uint64_t call = 0;
      const auto got = calls_.recv(zmq::buffer(&call, sizeof call), zmq::recv_flags::dontwait);
      if (!got) return true;
      if (got->untruncated_size == 0) return false;
      send_request(call);
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
  const long wait_ms_;
  const Operation operation_;
  zmq::socket_t calls_;
  zmq::socket_t dealer_;
  std::vector<std::uint64_t> sent_ns_;       // per call: when its request left; 0 = not in flight
  const std::vector<std::uint8_t> request_;  // ping and octets: the request's body
  std::uint8_t reply_[sizeof(std::uint64_t) + 1] = {};  // one byte more shows a longer reply
};

}  // namespace

void measure_open_loop(zmq::context_t& context, const mwbench::DriverOptions& o,
                       const std::string& endpoint, Wait wait, mwbench::Measurement& m) {
  Reader reader(context, o, endpoint, wait, m);
  zmq::socket_t calls = unbounded_socket(context, zmq::socket_type::pair);
  calls.connect(kCallsEndpoint);
  std::thread reader_thread([&reader] { reader.run(); });
  // However run_open() ends (the last reply, the timeout, a stop, a
  // failure), the reader hears that the sends are over and is joined.
  struct SendsOver {
    zmq::socket_t& calls;
    std::thread& reader;
    ~SendsOver() {
      // Fails only once the context is shut down, which ends the reader's wait too.
      zmq_send(calls.handle(), nullptr, 0, 0);
      reader.join();
    }
  } sends_over{calls, reader_thread};
  m.run_open([&calls](std::uint64_t call) {
    calls.send(zmq::buffer(&call, sizeof call), zmq::send_flags::none);
  });
}

}  // namespace zmq_driver
