#include "rawtcp_open_loop.hpp"

#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#include "rawtcp_protocol.hpp"

namespace rawtcp {

namespace {

std::string closed_after(std::uint64_t replies) {
  return "the server closed the connection after " + std::to_string(replies) + " replies";
}

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

}  // namespace

void measure_open(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket,
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

}  // namespace rawtcp
