// The REP sockets and their serving threads (zmq_replier.hpp).
#include "zmq_replier.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace zmq_driver {

namespace {

// A payload that fails verify=1: the REP side replies kStatusMismatch, then
// fails loudly, as rawtcp's server does.
class PayloadMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace

std::string bind_endpoint(const mwbench::DriverOptions& options, const std::string& name,
                          const PrivateDir* dir) {
  const std::string& transport = options.transport;
  if (transport == "tcp") return "tcp://" + options.bind_address + ":*";  // the kernel's port
  if (transport == "uds") return "ipc://" + dir->path() + "/" + name;
  if (transport == "inproc") return "inproc://mwbench-" + name;
  throw std::logic_error("unknown transport " + transport);
}

void ServingThreads::start(std::function<void()> serve, std::string what) {
  threads_.emplace_back([this, serve = std::move(serve), what = std::move(what)] {
    try {
      serve();
    } catch (const zmq::error_t& e) {
      if (e.num() == ETERM) return;  // the context was shut down: stop
      keep(std::current_exception());
      on_fatal_(what + ": " + e.what());
    } catch (const std::exception& e) {
      keep(std::current_exception());
      on_fatal_(e.what());
    }
  });
}

void ServingThreads::keep(std::exception_ptr failure) noexcept {
  std::lock_guard lock(mutex_);
  if (!failure_) failure_ = std::move(failure);
}

void ServingThreads::wait() noexcept {
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void ServingThreads::join() {
  wait();
  std::lock_guard lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
}

Repliers::Repliers(zmq::context_t& context, const mwbench::DriverOptions& options, int count,
                   const PrivateDir* dir, std::function<void(const std::string&)> on_fatal)
    : context_(context),
      options_(options),
      wait_(wait_option(options)),
      verify_(options.option_flag("verify", false)),
      threads_(std::move(on_fatal)) {
  for (int i = 0; i < count; ++i) {
    zmq::socket_t socket(context_, zmq::socket_type::rep);
    socket.set(zmq::sockopt::linger, 0);  // stopping never waits for a client
    socket.bind(bind_endpoint(options, "rep-" + std::to_string(i + 1), dir));
    endpoints_.push_back(socket.get(zmq::sockopt::last_endpoint));
    sockets_.push_back(std::move(socket));
  }
}

Repliers::~Repliers() { context_.shutdown(); }  // threads_ joins after

void Repliers::start() {
  // Each socket moves to its thread; thread creation orders the memory, as
  // ZeroMQ asks of a socket that changes threads.
  for (auto& socket : sockets_) {
    // std::function needs a copyable callable: the socket goes in a shared one.
    auto own = std::make_shared<zmq::socket_t>(std::move(socket));
    threads_.start([this, own] { serve(*own); }, "REP socket");
  }
  sockets_.clear();
}

void Repliers::join() { threads_.join(); }

void Repliers::serve(zmq::socket_t& socket) {
  // Room for the largest request plus one byte, so that a longer one shows
  // as longer (ZeroMQ reports its full size while it truncates the copy).
  std::vector<std::uint8_t> buf(std::max<std::size_t>(options_.payload_bytes, 8) + 1);
  const zmq::mutable_buffer into(buf.data(), buf.size());
  if (options_.operation != "octets") {  // roundtrip, ping: echo the request
    for (;;) {
      const std::size_t n = std::min(receive(socket, into, wait_), buf.size());
      socket.send(zmq::buffer(buf.data(), n), zmq::send_flags::none);
    }
  }
  for (;;) {
    const std::size_t n = receive(socket, into, wait_);
    std::string wrong;
    if (verify_ && n != options_.payload_bytes) {
      wrong = std::to_string(n) + " bytes, expected " + std::to_string(options_.payload_bytes);
    } else if (verify_) {
      std::size_t at = 0;
      while (at < n && buf[at] == pattern_byte(at)) ++at;
      if (at != n) {
        wrong = "payload mismatch at byte " + std::to_string(at) + " of " + std::to_string(n) +
                ": expected " + std::to_string(pattern_byte(at)) + ", got " +
                std::to_string(buf[at]);
      }
    }
    const std::uint8_t status = wrong.empty() ? kStatusOk : kStatusMismatch;
    socket.send(zmq::buffer(&status, 1), zmq::send_flags::none);
    if (wrong.empty()) continue;
    // Let the status reach the client before the socket closes, so that it
    // fails too instead of waiting for a reply forever.
    socket.set(zmq::sockopt::linger, 1000);
    throw PayloadMismatch("octets: " + wrong + " (verify=1)");
  }
}

}  // namespace zmq_driver
