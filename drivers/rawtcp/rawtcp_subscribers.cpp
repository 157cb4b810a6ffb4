// The fan-out subscribers' listeners and threads (rawtcp_subscribers.hpp).
#include "rawtcp_subscribers.hpp"

#include <iostream>

#include "rawtcp_protocol.hpp"
#include "rawtcp_server.hpp"

namespace rawtcp {

Subscribers::Subscribers(const mwbench::DriverOptions& o, bool nodelay, bool verify,
                         std::function<void()> on_fatal)
    : options_(o), nodelay_(nodelay), verify_(verify), on_fatal_(std::move(on_fatal)) {
  subscribers_.reserve(static_cast<std::size_t>(o.subscribers));
  for (int i = 0; i < o.subscribers; ++i) {
    subscribers_.push_back(Subscriber{listen_on(o.transport, o.bind_address), Socket(), 0});
  }
}

Subscribers::~Subscribers() {
  shut_down();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

std::string Subscribers::endpoint() const {
  std::string line;
  for (const auto& s : subscribers_) line += (line.empty() ? "" : " ") + s.listener.endpoint;
  return line;
}

void Subscribers::start() {
  for (std::size_t i = 0; i < subscribers_.size(); ++i) {
    const auto number = static_cast<std::uint32_t>(options_.first_subscriber + static_cast<int>(i));
    threads_.emplace_back([this, &s = subscribers_[i], number] {
      try {
        serve(s, number);
      } catch (const PayloadMismatch&) {
        {
          std::lock_guard lock(mutex_);
          if (!fatal_) fatal_ = std::current_exception();
        }
        on_fatal_();
      } catch (const std::exception& e) {
        // A publisher that dies mid-run must not take the subscribers down:
        // the counts they report say what was delivered.
        std::lock_guard lock(mutex_);
        if (!shut_) {
          std::cerr << "mwbench-driver-rawtcp: warning: subscriber " << number
                    << ": connection ended: " << e.what() << '\n';
        }
      }
    });
  }
}

void Subscribers::shut_down() noexcept {
  std::lock_guard lock(mutex_);
  shut_ = true;
  for (auto& s : subscribers_) {
    ::shutdown(s.listener.socket.fd(), SHUT_RDWR);  // wakes accept()
    if (s.connection.fd() >= 0) ::shutdown(s.connection.fd(), SHUT_RDWR);
  }
}

std::vector<std::uint64_t> Subscribers::join() {
  for (auto& thread : threads_) thread.join();
  threads_.clear();
  std::lock_guard lock(mutex_);
  if (fatal_) std::rethrow_exception(fatal_);
  std::vector<std::uint64_t> received;
  for (const auto& s : subscribers_) received.push_back(s.received);
  return received;
}

void Subscribers::adopt(Subscriber& s, int fd) {
  std::lock_guard lock(mutex_);
  s.connection = Socket(fd);
  if (shut_) ::shutdown(fd, SHUT_RDWR);  // the stop callback ran before it was here
}

void Subscribers::serve(Subscriber& s, std::uint32_t number) {
  const int fd = ::accept4(s.listener.socket.fd(), nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) {
    std::lock_guard lock(mutex_);
    if (shut_) return;
    throw_errno("accept");
  }
  adopt(s, fd);
  set_nodelay(fd, nodelay_);
  std::vector<std::uint8_t> payload(options_.payload_bytes);
  send_all(fd, &number, sizeof number);  // the hello: this subscriber reads from now on

  std::uint8_t header[kEventHeaderBytes];
  std::uint8_t reply[kFanoutReplyBytes];
  std::uint64_t event = 0;
  std::size_t length = 0;
  const std::string who = "fanout: subscriber " + std::to_string(number);
  while (recv_all(fd, header, sizeof header)) {
    parse_event_header(header, event, length);
    // A length other than --payload-bytes is checked always (it costs
    // nothing); the bytes only with verify=1.
    if (length != options_.payload_bytes) {
      throw PayloadMismatch(who + ": event " + std::to_string(event) + " carries " +
                            std::to_string(length) + " bytes, expected " +
                            std::to_string(options_.payload_bytes) + " (--payload-bytes)");
    }
    recv_payload(fd, payload, length);
    if (verify_) {
      const std::size_t bad = first_difference(payload.data(), length, pattern_byte);
      if (bad != length) {
        throw PayloadMismatch(who + ": payload mismatch at byte " + std::to_string(bad) + " of " +
                              std::to_string(length) + " (verify=1)");
      }
    }
    // Counted before the reply leaves: once the publisher has every reply,
    // every count includes the event.
    ++s.received;
    make_reply(reply, number, event);
    send_all(fd, reply, sizeof reply);
  }
}

}  // namespace rawtcp
