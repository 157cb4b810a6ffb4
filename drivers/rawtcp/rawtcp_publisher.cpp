// The fan-out publisher's connections, handshake and measured call
// (rawtcp_publisher.hpp).
#include "rawtcp_publisher.hpp"

#include <sys/time.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "rawtcp_protocol.hpp"

namespace rawtcp {

namespace {

// Every subscriber's endpoint, in subscriber order: the lines of the
// subscriber processes (in order) split at spaces (rawtcp_subscribers.hpp).
std::vector<std::string> subscriber_endpoints(const std::vector<std::string>& lines) {
  std::vector<std::string> endpoints;
  for (const auto& line : lines) {
    std::istringstream in(line);
    for (std::string endpoint; in >> endpoint;) endpoints.push_back(endpoint);
  }
  return endpoints;
}

// A send() or recv() that blocks longer than --timeout fails with EAGAIN: a
// subscriber that stopped reading cannot hold a large event's write for ever.
void set_io_timeout(int fd, double timeout_s) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout_s);
  tv.tv_usec = static_cast<suseconds_t>((timeout_s - static_cast<double>(tv.tv_sec)) * 1e6);
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) {
    throw_errno("setsockopt SO_SNDTIMEO/SO_RCVTIMEO");
  }
}

std::string seconds(double s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

}  // namespace

Publisher::Publisher(const mwbench::DriverOptions& o, const std::vector<std::string>& lines,
                     bool nodelay)
    : event_(fanout_event(o.payload_bytes)),
      tally_(o.subscribers),
      timeout_ms_(static_cast<int>(std::ceil(o.timeout_s * 1000))) {
  const std::vector<std::string> endpoints = subscriber_endpoints(lines);
  if (endpoints.size() != static_cast<std::size_t>(o.subscribers)) {
    throw std::runtime_error("the " + std::to_string(lines.size()) +
                             " subscriber process(es) host " + std::to_string(endpoints.size()) +
                             " subscribers, --subscribers " + std::to_string(o.subscribers) +
                             " needs as many: give each process its share in --subscribers");
  }
  const int ep = ::epoll_create1(EPOLL_CLOEXEC);
  if (ep < 0) throw_errno("epoll_create1");
  epoll_ = Socket(ep);
  for (std::size_t s = 0; s < endpoints.size(); ++s) {
    try {
      Socket sock = connect_to(endpoints[s]);
      set_nodelay(sock.fd(), nodelay);
      set_io_timeout(sock.fd(), o.timeout_s);
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u32 = static_cast<std::uint32_t>(s);
      if (::epoll_ctl(ep, EPOLL_CTL_ADD, sock.fd(), &ev) != 0) throw_errno("epoll_ctl");
      subscribers_.push_back(std::move(sock));
    } catch (const std::exception& e) {
      throw std::runtime_error("fanout: subscriber " + std::to_string(s) + ": " + e.what());
    }
  }
  ready_.resize(endpoints.size());
  await_hellos(o.timeout_s);
}

// The handshake: every subscriber has accepted its connection and reads. The
// hellos are checked once all have come, in subscriber order, so that a
// mix-up of endpoint files is reported the same whichever hello came first.
void Publisher::await_hellos(double timeout_s) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  std::vector<bool> answered(subscribers_.size());
  std::vector<std::uint32_t> hellos(subscribers_.size());
  std::size_t missing = subscribers_.size();
  while (missing > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    const int n = left > 0 ? ::epoll_wait(epoll_.fd(), ready_.data(),
                                          static_cast<int>(ready_.size()), static_cast<int>(left))
                           : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_errno("epoll_wait");
    if (n == 0) {
      std::string list;
      for (std::size_t s = 0; s < answered.size(); ++s) {
        if (!answered[s]) list += (list.empty() ? "" : ", ") + std::to_string(s);
      }
      throw std::runtime_error("fanout: " + std::to_string(missing) + " of " +
                               std::to_string(answered.size()) + " subscribers (" + list +
                               ") did not answer within " + seconds(timeout_s) + " (--timeout)");
    }
    for (int i = 0; i < n; ++i) {
      const std::uint32_t s = ready_[static_cast<std::size_t>(i)].data.u32;
      std::uint32_t hello = 0;
      if (!recv_all(subscribers_[s].fd(), &hello, sizeof hello)) {
        throw std::runtime_error("fanout: subscriber " + std::to_string(s) +
                                 " closed its connection before it was ready");
      }
      hellos[s] = hello;
      answered[s] = true;
      --missing;
    }
  }
  for (std::size_t s = 0; s < hellos.size(); ++s) {
    if (hellos[s] != s) {
      throw std::runtime_error(
          "fanout: the connection to subscriber " + std::to_string(s) + " reached subscriber " +
          std::to_string(hellos[s]) +
          ": give the --endpoint-file arguments in the order of the subscriber numbers");
    }
  }
}

void Publisher::publish(mwbench::Measurement& m) {
  if (failed_) return;
  const std::uint64_t event = ++next_event_;
  tally_.expect(event);
  set_event(event_, event);
  std::size_t s = 0;
  try {
    for (; s < subscribers_.size(); ++s)
      send_all(subscribers_[s].fd(), event_.data(), event_.size());
  } catch (const std::exception& e) {
    fail(m, "subscriber " + std::to_string(s) + ": " + e.what());
    return;
  }
  await_replies(m);
}

void Publisher::await_replies(mwbench::Measurement& m) {
  std::uint8_t reply[kFanoutReplyBytes];
  for (;;) {
    // Each wait lasts at most --timeout: a subscriber that never replies
    // fails the run within --timeout of the last reply that came.
    const int n =
        ::epoll_wait(epoll_.fd(), ready_.data(), static_cast<int>(ready_.size()), timeout_ms_);
    if (n == 0) return fail(m, "no reply for " + seconds(timeout_ms_ / 1000.0) + " (--timeout)");
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(m, std::string("epoll_wait: ") + std::strerror(errno));
    }
    for (int i = 0; i < n; ++i) {
      const std::uint32_t from = ready_[static_cast<std::size_t>(i)].data.u32;
      try {
        if (!recv_all(subscribers_[from].fd(), reply, sizeof reply)) {
          return fail(m, "subscriber " + std::to_string(from) + " closed its connection");
        }
      } catch (const std::exception& e) {
        return fail(m, "subscriber " + std::to_string(from) + ": " + e.what());
      }
      std::uint32_t subscriber = 0;
      std::uint64_t event = 0;
      parse_reply(reply, subscriber, event);
      const int who = static_cast<int>(subscriber);
      switch (tally_.count(who, event)) {
        case mwbench::ReplyTally::Reply::counted:
          break;
        case mwbench::ReplyTally::Reply::last:
          return;
        case mwbench::ReplyTally::Reply::unexpected:
          return fail(m, tally_.describe(who, event));
      }
    }
  }
}

void Publisher::fail(mwbench::Measurement& m, const std::string& why) {
  failed_ = true;
  m.fail("fanout: " + why + "; " + tally_.describe_missing());
}

}  // namespace rawtcp
