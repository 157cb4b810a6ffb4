#include "rawtcp_open_loop.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rawtcp_protocol.hpp"

namespace rawtcp {

namespace {

std::string closed_after(std::uint64_t replies) {
  return "the server closed the connection after " + std::to_string(replies) + " replies";
}

// The longest a send waits at once for room in the socket, so that it sees a
// stop (the run's failure, SIGTERM) meanwhile.
constexpr long kSendPollNs = 50'000'000;

// The replies of one open loop, received on the sending thread without ever
// blocking in recv(): whatever the socket holds is read at once, each whole
// reply is checked and completed, and a partial one is kept for the next
// read. A wrong reply, an error or the server's close fails the run, after
// which nothing more is read.
class Replies {
 public:
  Replies(int fd, mwbench::Measurement& m, const mwbench::DriverOptions& o, bool verify)
      : fd_(fd),
        m_(m),
        operation_(o.operation),
        framed_(o.operation == "octets_out" || o.operation == "octets_inout"),
        fixed_bytes_(o.operation == "roundtrip" ? sizeof(std::uint64_t) : 1),
        payload_bytes_(o.payload_bytes),
        verify_(verify),
        buf_(std::max(kFirstRead, kPayloadOffset + o.payload_bytes)) {}

  // Run_open's wait_until: waits in ppoll() for a reply until `deadline_ns`
  // (a deadline that has passed: not at all), and takes what came.
  void wait_until(std::uint64_t deadline_ns) {
    const std::uint64_t now = mwbench::now_ns();
    const std::uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
    const timespec timeout{static_cast<time_t>(left / 1'000'000'000u),
                           static_cast<long>(left % 1'000'000'000u)};
    pollfd readable{fd_, POLLIN, 0};
    if (::ppoll(&readable, 1, &timeout, nullptr) > 0) take();
  }

  // Sends all `n` bytes. While the socket has no room (the server blocked
  // writing replies nobody reads), takes the replies, so that neither end
  // waits for the other; gives up at a stop.
  void send(const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t r = ::send(fd_, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (r >= 0) {
        p += r;
        n -= static_cast<std::size_t>(r);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) throw_errno("send");
      pollfd either{fd_, POLLIN | POLLOUT, 0};
      const timespec timeout{0, kSendPollNs};
      if (::ppoll(&either, 1, &timeout, nullptr) > 0 && (either.revents & ~POLLOUT) != 0) take();
      if (m_.stop_requested()) return;
    }
  }

 private:
  // Reads what the socket holds (again only if it filled the buffer) and
  // completes the whole replies.
  void take() {
    while (!failed_) {
      if (end_ == buf_.size()) {  // keep the partial reply, at the start
        std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
        end_ -= start_;
        start_ = 0;
      }
      const std::size_t room = buf_.size() - end_;
      const ssize_t r = ::recv(fd_, buf_.data() + end_, room, MSG_DONTWAIT);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (r <= 0) {
        fail(r == 0 ? closed_after(next_) : "recv: " + std::string(std::strerror(errno)));
        return;
      }
      end_ += static_cast<std::size_t>(r);
      complete_whole();
      if (start_ == end_) start_ = end_ = 0;
      if (static_cast<std::size_t>(r) < room) return;
    }
  }

  void complete_whole() {
    while (!failed_) {
      const std::uint8_t* reply = buf_.data() + start_;
      const std::size_t have = end_ - start_;
      std::size_t bytes = fixed_bytes_;
      std::string wrong;
      if (framed_) {
        if (have < kPayloadOffset) return;
        std::uint32_t length_be;
        std::memcpy(&length_be, reply, sizeof length_be);
        const std::size_t length = ntohl(length_be);
        if (length != payload_bytes_) {
          fail("reply of " + std::to_string(length) + " bytes, expected " +
               std::to_string(payload_bytes_));
          return;
        }
        bytes = kPayloadOffset + length;
        if (have < bytes) return;
        if (verify_) wrong = reply_mismatch(operation_, reply + kPayloadOffset, length);
      } else {
        if (have < bytes) return;
        wrong = fixed_mismatch(reply);
      }
      if (!wrong.empty()) {
        fail(wrong);
        return;
      }
      m_.completed(next_++);
      start_ += bytes;
    }
  }

  // "" or what is wrong with a reply of roundtrip, ping or octets.
  std::string fixed_mismatch(const std::uint8_t* reply) const {
    if (operation_ == "roundtrip") {
      std::uint64_t echo;
      std::memcpy(&echo, reply, sizeof echo);
      if (echo == next_) return {};
      return "roundtrip: reply " + std::to_string(next_) + " echoes call " + std::to_string(echo) +
             " (replies come in order)";
    }
    if (operation_ == "ping") {
      return *reply == kPingByte ? std::string() : "ping: server echoed a different byte";
    }
    return *reply == kStatusOk ? std::string()
                               : "octets: the server found a payload mismatch (verify=1)";
  }

  void fail(std::string message) {
    failed_ = true;
    m_.fail(std::move(message));
  }

  int fd_;
  mwbench::Measurement& m_;
  std::string operation_;
  bool framed_;              // octets_out, octets_inout: a length and the payload
  std::size_t fixed_bytes_;  // the others: roundtrip 8 bytes, ping and octets 1
  std::size_t payload_bytes_;
  bool verify_;
  std::vector<std::uint8_t> buf_;  // holds a whole reply at least
  std::size_t start_ = 0;          // the first reply not yet completed
  std::size_t end_ = 0;            // the bytes received
  std::uint64_t next_ = 0;         // its call number
  bool failed_ = false;
};

// Replies of `reply_bytes` each (roundtrip 8, ping and octets 1) until `calls`
// have come or measure_open() shuts the socket down (`closing`). check(reply,
// k) says "" or what is wrong with reply k. Several replies that one recv()
// brings were all there by then, and each is announced as it is read.
template <class Check>
void read_fixed(int fd, mwbench::Measurement& m, std::size_t reply_bytes, std::uint64_t calls,
                const std::atomic<bool>& closing, Check check) {
  alignas(8) std::uint8_t buf[4096];  // a whole number of replies of 1 or 8 bytes
  std::size_t have = 0;
  std::uint64_t next = 0;
  while (next < calls) {
    const ssize_t r = ::recv(fd, buf + have, sizeof buf - have, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (!closing.load())
        m.fail(r == 0 ? closed_after(next) : "recv: " + std::string(std::strerror(errno)));
      return;
    }
    have += static_cast<std::size_t>(r);
    std::size_t at = 0;
    for (; at + reply_bytes <= have; at += reply_bytes, ++next) {
      if (std::string wrong = check(buf + at, next); !wrong.empty()) {
        m.fail(wrong);
        return;
      }
      m.completed(next);
    }
    std::memmove(buf, buf + at, have - at);
    have -= at;
  }
}

// octets_out and octets_inout: length-prefixed replies of --payload-bytes.
void read_framed(int fd, mwbench::Measurement& m, const mwbench::DriverOptions& o, bool verify,
                 std::uint64_t calls, const std::atomic<bool>& closing) {
  MessageReader replies;
  for (std::uint64_t next = 0; next < calls; ++next) {
    std::size_t length = 0;
    try {
      if (!replies.next(fd, length)) {
        if (!closing.load()) m.fail(closed_after(next));
        return;
      }
    } catch (const std::exception& e) {
      if (!closing.load()) m.fail(e.what());
      return;
    }
    if (length != o.payload_bytes) {
      m.fail("reply of " + std::to_string(length) + " bytes, expected " +
             std::to_string(o.payload_bytes));
      return;
    }
    if (verify) {
      if (std::string wrong = reply_mismatch(o.operation, replies.payload(), length);
          !wrong.empty()) {
        m.fail(wrong);
        return;
      }
    }
    m.completed(next);
  }
}

void read_replies(int fd, mwbench::Measurement& m, const mwbench::DriverOptions& o, bool verify,
                  const std::atomic<bool>& closing) {
  const std::uint64_t calls = o.warmup + o.samples;
  if (o.operation == "roundtrip") {
    read_fixed(fd, m, sizeof(std::uint64_t), calls, closing,
               [](const std::uint8_t* reply, std::uint64_t k) {
                 std::uint64_t echo;
                 std::memcpy(&echo, reply, sizeof echo);
                 return echo == k ? std::string()
                                  : "roundtrip: reply " + std::to_string(k) + " echoes call " +
                                        std::to_string(echo) + " (replies come in order)";
               });
  } else if (o.operation == "ping") {
    read_fixed(fd, m, 1, calls, closing, [](const std::uint8_t* reply, std::uint64_t) {
      return *reply == kPingByte ? std::string() : "ping: server echoed a different byte";
    });
  } else if (o.operation == "octets") {
    read_fixed(fd, m, 1, calls, closing, [](const std::uint8_t* reply, std::uint64_t) {
      return *reply == kStatusOk ? std::string()
                                 : "octets: the server found a payload mismatch (verify=1)";
    });
  } else {
    read_framed(fd, m, o, verify, calls, closing);
  }
}

// receive=reader: a thread of its own reads the replies, blocked in recv().
void measure_with_reader(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket,
                         bool verify) {
  const int fd = socket.fd();
  std::atomic<bool> closing{false};
  std::thread reader([&] { read_replies(fd, m, o, verify, closing); });
  // However the run ends: the reader is woken (its recv() returns 0) and
  // joined before the socket and the measurement go.
  struct Join {
    std::thread& reader;
    std::atomic<bool>& closing;
    int fd;
    ~Join() {
      closing.store(true);
      ::shutdown(fd, SHUT_RDWR);
      reader.join();
    }
  } join{reader, closing, fd};
  if (o.operation == "roundtrip") {
    m.run_open([fd](std::uint64_t call) { send_all(fd, &call, sizeof call); });
  } else if (o.operation == "ping") {
    m.run_open([fd](std::uint64_t) {
      const std::uint8_t byte = kPingByte;
      send_all(fd, &byte, 1);
    });
  } else {
    const std::vector<std::uint8_t> request = octets_request(o.operation, o.payload_bytes);
    m.run_open([fd, &request](std::uint64_t) { send_all(fd, request.data(), request.size()); });
  }
}

// receive=sender: the sending thread reads the replies while it waits.
void measure_on_sender(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket,
                       bool verify) {
  Replies replies(socket.fd(), m, o, verify);
  auto wait_until = [&replies](std::uint64_t deadline_ns) { replies.wait_until(deadline_ns); };
  if (o.operation == "roundtrip") {
    m.run_open([&replies](std::uint64_t call) { replies.send(&call, sizeof call); }, wait_until);
  } else if (o.operation == "ping") {
    m.run_open(
        [&replies](std::uint64_t) {
          const std::uint8_t byte = kPingByte;
          replies.send(&byte, 1);
        },
        wait_until);
  } else {
    const std::vector<std::uint8_t> request = octets_request(o.operation, o.payload_bytes);
    m.run_open([&](std::uint64_t) { replies.send(request.data(), request.size()); }, wait_until);
  }
}

}  // namespace

void measure_open(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket,
                  bool verify) {
  if (o.option(kReceiveOption, "reader") == "sender") {
    measure_on_sender(o, m, std::move(socket), verify);
  } else {
    measure_with_reader(o, m, std::move(socket), verify);
  }
}

}  // namespace rawtcp
