#include "rawtcp_server.hpp"

#include <arpa/inet.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "rawtcp_protocol.hpp"

namespace rawtcp {

namespace {

void serve_octets(int fd, bool verify, StallClock& stall) {
  MessageReader requests;
  std::size_t length = 0;
  while (requests.next(fd, length)) {
    const std::uint8_t* payload = requests.payload();
    const std::size_t bad = verify ? first_difference(payload, length, pattern_byte) : length;
    const std::uint8_t status = bad == length ? kStatusOk : kStatusMismatch;
    stall.before_reply();
    send_all(fd, &status, 1);
    if (status != kStatusOk) {
      throw PayloadMismatch("octets: payload mismatch at byte " + std::to_string(bad) + " of " +
                            std::to_string(length) + " (verify=1): expected " +
                            std::to_string(pattern_byte(bad)) + ", got " +
                            std::to_string(payload[bad]));
    }
  }
}

// octets_out and octets_inout: the reply is `length` bytes of reply_byte(),
// from a message built once per connection (rebuilt only if a client asks
// for more than --payload-bytes).
void serve_replies(int fd, const mwbench::DriverOptions& o, bool verify, StallClock& stall) {
  const bool inout = o.operation == "octets_inout";
  std::vector<std::uint8_t> reply = framed(o.payload_bytes, reply_byte);
  MessageReader requests;
  std::size_t length = 0;
  // out: the request is its length alone; inout: the length and the payload.
  while (inout ? requests.next(fd, length) : recv_length(fd, length)) {
    if (verify && length != o.payload_bytes) {
      throw PayloadMismatch(o.operation + ": " + std::to_string(length) + " bytes, expected " +
                            std::to_string(o.payload_bytes) + " (verify=1)");
    }
    if (verify && inout) {
      const std::size_t bad = first_difference(requests.payload(), length, pattern_byte);
      if (bad != length) {
        throw PayloadMismatch("octets_inout: payload mismatch at byte " + std::to_string(bad) +
                              " of " + std::to_string(length) + " (verify=1)");
      }
    }
    if (length + sizeof(std::uint32_t) != reply.size()) reply = framed(length, reply_byte);
    stall.before_reply();
    send_all(fd, reply.data(), reply.size());
  }
}

}  // namespace

void serve_connection(int fd, const mwbench::DriverOptions& o, bool verify, StallPlan& stalls) {
  StallClock stall(stalls);
  if (o.operation == "roundtrip") {
    std::uint64_t stamp;
    while (recv_all(fd, &stamp, sizeof stamp)) {
      stall.before_reply();
      send_all(fd, &stamp, sizeof stamp);
    }
  } else if (o.operation == "ping") {
    std::uint8_t byte;
    while (recv_all(fd, &byte, 1)) {
      stall.before_reply();
      send_all(fd, &byte, 1);
    }
  } else if (o.operation == "octets") {
    serve_octets(fd, verify, stall);
  } else {  // octets_out, octets_inout
    serve_replies(fd, o, verify, stall);
  }
}

ConnectionSet::~ConnectionSet() {
  shut_down();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void ConnectionSet::serve(Socket socket, std::function<void(int)> serve) {
  std::lock_guard lock(mutex_);
  const int fd = socket.fd();
  open_.insert(fd);
  if (shut_) ::shutdown(fd, SHUT_RDWR);  // the stop callback ran before it was here
  threads_.emplace_back([this, fd, socket = std::move(socket), serve = std::move(serve)] {
    try {
      serve(fd);
    } catch (const PayloadMismatch&) {
      {
        std::lock_guard fatal_lock(mutex_);
        if (!fatal_) fatal_ = std::current_exception();
      }
      on_fatal_();  // verify=1 asked for a loud failure
    } catch (const std::exception& e) {
      // A client that dies mid-call must not take the server down.
      std::lock_guard warn_lock(mutex_);
      if (!shut_)
        std::cerr << "mwbench-driver-rawtcp: warning: connection ended: " << e.what() << '\n';
    }
    // Forgotten before `socket` closes it, so that shut_down() never touches
    // a descriptor that was closed and perhaps reused.
    std::lock_guard erase_lock(mutex_);
    open_.erase(fd);
  });
}

void ConnectionSet::shut_down() noexcept {
  std::lock_guard lock(mutex_);
  shut_ = true;
  for (const int fd : open_) ::shutdown(fd, SHUT_RDWR);
}

void ConnectionSet::join() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    threads.swap(threads_);
  }
  for (auto& thread : threads) thread.join();
  std::lock_guard lock(mutex_);
  if (fatal_) std::rethrow_exception(fatal_);
}

}  // namespace rawtcp
