#include "ccmevents_replies.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/fanout_handshake.hpp"
#include "common/fanout_reply.hpp"

namespace ccmevents {

namespace {

constexpr std::size_t kReadAtOnce = 256;  // replies one recv() may take

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

sockaddr_in parse_address(const std::string& text) {
  const auto colon = text.rfind(':');
  sockaddr_in at{};
  at.sin_family = AF_INET;
  const std::string host = colon == std::string::npos ? text : text.substr(0, colon);
  if (inet_pton(AF_INET, host.c_str(), &at.sin_addr) != 1)
    throw std::runtime_error("'" + text + "' is not an IPv4 ADDRESS[:PORT]");
  if (colon != std::string::npos)
    at.sin_port = htons(static_cast<std::uint16_t>(std::stoul(text.substr(colon + 1))));
  return at;
}

void no_delay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

// ---- TallyReplies ---------------------------------------------------------------

void TallyReplies::reply(std::int32_t subscriber, std::uint64_t event, bool intact) {
  if (event == 0 || failed_) return;
  const bool over = mwbench::common::settle_reply(tally_, m_, subscriber, event, intact);
  if (over && tally_.missing() != 0) failed_ = true;
}

void TallyReplies::check_complete() {
  if (!failed_ && tally_.missing() != 0) {
    failed_ = true;
    m_.fail("fanout: " + tally_.describe_missing());
  }
}

// ---- WaitingReplies -------------------------------------------------------------

void WaitingReplies::expect(std::uint64_t event) {
  std::lock_guard lock(mutex_);
  tally_.expect(event);
  over_ = false;
}

void WaitingReplies::reply(std::int32_t subscriber, std::uint64_t event, bool intact) {
  if (event == 0) return;
  {
    std::lock_guard lock(mutex_);
    if (over_ || !mwbench::common::settle_reply(tally_, m_, subscriber, event, intact)) return;
    over_ = true;
  }
  complete_.notify_one();
}

bool WaitingReplies::await(int timeout_ms) {
  std::unique_lock lock(mutex_);
  if (complete_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return over_; }))
    return tally_.missing() == 0;
  over_ = true;  // late replies to this event are not counted
  m_.fail("fanout: no reply for " + std::to_string(timeout_ms) +
          " ms: " + tally_.describe_missing());
  return false;
}

// ---- OpenReplies ----------------------------------------------------------------

OpenReplies::OpenReplies(int subscribers, std::uint64_t calls, mwbench::Measurement& m)
    : subscribers_(subscribers), missing_(calls), m_(m) {
  for (auto& missing : missing_) missing.store(subscribers, std::memory_order_relaxed);
}

void OpenReplies::reply(std::int32_t subscriber, std::uint64_t event, bool intact) {
  if (event == 0) return;  // a late answer to a handshake probe
  if (!intact) {
    m_.fail("fanout: subscriber " + std::to_string(subscriber) +
            " found a payload mismatch (verify=1)");
  } else if (subscriber < 0 || subscriber >= subscribers_ || event > missing_.size()) {
    m_.fail("fanout: a reply from subscriber " + std::to_string(subscriber) + " to event " +
            std::to_string(event) + ", which no subscriber of this run was sent");
  } else if (const std::int32_t left = missing_[event - 1].fetch_sub(1) - 1; left == 0) {
    m_.completed(event - 1);
  } else if (left < 0) {
    m_.fail("fanout: more replies to event " + std::to_string(event) + " than its " +
            std::to_string(subscribers_) + " subscribers");
  }
}

// ---- ReplyConnection ------------------------------------------------------------

ReplyConnection::ReplyConnection(const std::string& address, double timeout_s, int hosted)
    : hosted_(static_cast<std::size_t>(hosted)),
      timeout_(static_cast<std::int64_t>(timeout_s * 1000)) {
  pending_.reserve(hosted_);  // no allocation when replying
  sockaddr_in at = parse_address(address);
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener_ < 0) throw_errno("socket");
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 ||
      ::listen(listener_, 1) != 0) {
    const int error = errno;
    ::close(listener_);
    errno = error;
    throw_errno("reply listener on " + address);
  }
  socklen_t length = sizeof at;
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&at), &length);
  char host[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &at.sin_addr, host, sizeof host);
  endpoint_ = std::string(host) + ":" + std::to_string(ntohs(at.sin_port));
  acceptor_ = std::thread([this] { accept_publisher(); });
}

ReplyConnection::~ReplyConnection() {
  shut_down();
  acceptor_.join();
  ::close(listener_);
  if (connection_ >= 0) ::close(connection_);
}

std::string ReplyConnection::endpoint() const { return endpoint_; }

void ReplyConnection::accept_publisher() {
  const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return;  // shut down
  no_delay(fd);
  {
    std::lock_guard lock(mutex_);
    if (shut_) {
      ::close(fd);
      return;
    }
    connection_ = fd;
  }
  connected_.notify_all();
}

void ReplyConnection::shut_down() noexcept {
  {
    std::lock_guard lock(mutex_);
    shut_ = true;
    if (connection_ >= 0) ::shutdown(connection_, SHUT_RDWR);
  }
  ::shutdown(listener_, SHUT_RDWR);  // wakes accept()
  connected_.notify_all();
}

void ReplyConnection::reply(std::int32_t subscriber, std::uint64_t event, bool intact) {
  const WireReply wire{subscriber, intact ? 1u : 0u, event};
  std::unique_lock lock(mutex_);
  if (!connected_.wait_for(lock, timeout_, [this] { return connection_ >= 0 || shut_; })) return;
  if (shut_) return;
  if (event == 0) {  // a probe's answer: at once, alone
    (void)::send(connection_, &wire, sizeof wire, MSG_NOSIGNAL);
    return;
  }
  // A reply to another event while some of this one's are missing: the
  // publisher will name who is missing; these go now.
  if (!pending_.empty() && pending_.front().event != event) send_pending();
  pending_.push_back(wire);
  if (pending_.size() == hosted_) send_pending();
}

void ReplyConnection::send_pending() {
  (void)::send(connection_, pending_.data(), pending_.size() * sizeof(WireReply), MSG_NOSIGNAL);
  pending_.clear();
}

// ---- ReplyReader ----------------------------------------------------------------

ReplyReader::ReplyReader(const std::vector<std::string>& endpoints) {
  for (const auto& endpoint : endpoints) {
    sockaddr_in at = parse_address(endpoint);
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw_errno("socket");
    connections_.push_back(fd);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0)
      throw_errno("connect to the replies of " + endpoint);
    no_delay(fd);
    watched_.push_back({fd, POLLIN, 0});
    received_.push_back({std::vector<WireReply>(kReadAtOnce), 0, 0});
  }
}

ReplyReader::~ReplyReader() {
  for (const int fd : connections_) ::close(fd);
}

template <class Take>
bool ReplyReader::read(int timeout_ms, Take&& take) {
  // Replies already received and not taken first: a call that ended with
  // the last reply of its event left what came with it.
  for (Received& in : received_) {
    while (in.taken < in.bytes / sizeof(WireReply)) {
      if (take(in.replies[in.taken++])) return true;
    }
  }
  for (;;) {
    const int ready = ::poll(watched_.data(), watched_.size(), timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw_errno("poll");
    if (ready == 0) return false;
    for (std::size_t i = 0; i < watched_.size(); ++i) {
      if (watched_[i].revents == 0) continue;
      Received& in = received_[i];
      // Keep the start of a split reply, drop what was taken.
      const std::size_t kept = in.bytes - in.taken * sizeof(WireReply);
      auto* bytes = reinterpret_cast<char*>(in.replies.data());
      std::memmove(bytes, bytes + in.taken * sizeof(WireReply), kept);
      in.bytes = kept;
      in.taken = 0;
      const ssize_t n =
          ::recv(watched_[i].fd, bytes + kept, in.replies.size() * sizeof(WireReply) - kept, 0);
      if (n <= 0)
        throw std::runtime_error("subscriber process " + std::to_string(i) +
                                 " closed its reply connection");
      in.bytes += static_cast<std::size_t>(n);
      while (in.taken < in.bytes / sizeof(WireReply)) {
        if (take(in.replies[in.taken++])) return true;
      }
    }
  }
}

void ReplyReader::pass_replies(ReplySink& sink, mwbench::Measurement& m) {
  try {
    read(-1, [&sink](const WireReply& wire) {
      sink.reply(wire.subscriber, wire.event, wire.intact != 0);
      return false;
    });
  } catch (const std::runtime_error& e) {
    if (!interrupted_.load()) m.fail(std::string("fanout: ") + e.what());
  }
}

void ReplyReader::interrupt() noexcept {
  interrupted_.store(true);
  for (const int fd : connections_) ::shutdown(fd, SHUT_RDWR);  // wakes poll()
}

void ReplyReader::handshake(int subscribers, const std::function<void()>& probe, double timeout_s) {
  mwbench::common::Handshake answered(subscribers);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!answered.complete()) {
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error(answered.describe_missing());
    probe();
    read(100, [&](const WireReply& wire) {
      if (wire.event == 0) answered.answered(wire.subscriber);
      return answered.complete();
    });
  }
}

void ReplyReader::await(mwbench::ReplyTally& tally, mwbench::Measurement& m, int timeout_ms) {
  const bool complete = read(timeout_ms, [&](const WireReply& wire) {
    if (wire.event == 0) return false;  // a late answer to a handshake probe
    return mwbench::common::settle_reply(tally, m, wire.subscriber, wire.event, wire.intact != 0);
  });
  if (!complete)
    m.fail("fanout: no reply for " + std::to_string(timeout_ms) +
           " ms: " + tally.describe_missing());
}

// ---- ReplyPassing ---------------------------------------------------------------

ReplyPassing::ReplyPassing(ReplyReader* reader, ReplySink& sink, mwbench::Measurement& m)
    : reader_(reader) {
  if (reader_ != nullptr)
    thread_ = std::thread([this, &sink, &m] { reader_->pass_replies(sink, m); });
}

ReplyPassing::~ReplyPassing() {
  if (reader_ == nullptr) return;
  reader_->interrupt();
  thread_.join();
}

}  // namespace ccmevents
