// The fan-out subscribers' sockets and threads (zmq_subscribers.hpp).
#include "zmq_subscribers.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace zmq_driver {

namespace {

zmq::socket_t bound(zmq::context_t& context, zmq::socket_type type, const std::string& address) {
  zmq::socket_t socket(context, type);
  socket.set(zmq::sockopt::linger, 0);  // stopping never waits for the publisher
  if (type == zmq::socket_type::sub) socket.set(zmq::sockopt::subscribe, "");
  socket.bind(address);
  return socket;
}

void reply(zmq::socket_t& push, std::uint64_t number, std::uint32_t kind, std::uint32_t who) {
  const FanoutHeader header{number, kind, who};
  push.send(zmq::buffer(&header, sizeof header), zmq::send_flags::none);
}

}  // namespace

Subscribers::Subscribers(zmq::context_t& context, const mwbench::DriverOptions& options, int count,
                         int first, const PrivateDir* dir,
                         std::function<void(const std::string&)> on_fatal)
    : context_(context),
      options_(options),
      wait_(wait_option(options)),
      verify_(options.option_flag("verify", false)),
      threads_(std::move(on_fatal)) {
  subscribers_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const std::string n = std::to_string(first + i);
    Subscriber s{bound(context_, zmq::socket_type::sub, bind_endpoint(options, "sub-" + n, dir)),
                 bound(context_, zmq::socket_type::push, bind_endpoint(options, "reply-" + n, dir)),
                 static_cast<std::uint32_t>(first + i), 0};
    endpoints_.push_back(s.sub.get(zmq::sockopt::last_endpoint));
    endpoints_.push_back(s.push.get(zmq::sockopt::last_endpoint));
    subscribers_.push_back(std::move(s));
  }
}

Subscribers::~Subscribers() { context_.shutdown(); }  // threads_ joins after

void Subscribers::start() {
  // Thread creation orders the memory, as ZeroMQ asks of a socket that
  // changes threads; join() orders it back.
  for (auto& s : subscribers_) {
    threads_.start([this, &s] { serve(s); }, "subscriber " + std::to_string(s.number));
  }
}

std::vector<std::uint64_t> Subscribers::join() {
  threads_.join();
  std::vector<std::uint64_t> received;
  for (const auto& s : subscribers_) received.push_back(s.received);
  return received;
}

void Subscribers::serve(Subscriber& s) {
  // Room for an event plus one byte, so that a longer one shows as longer
  // (ZeroMQ reports its full size while it truncates the copy).
  const std::size_t event_size = sizeof(FanoutHeader) + options_.payload_bytes;
  std::vector<std::uint8_t> buf(event_size + 1);
  const zmq::mutable_buffer into(buf.data(), buf.size());
  const std::string who = "fanout: subscriber " + std::to_string(s.number);
  FanoutHeader header{};
  for (;;) {
    const std::size_t n = receive(s.sub, into, wait_);
    if (n < sizeof header) {
      throw std::runtime_error(who + ": a message of " + std::to_string(n) + " bytes");
    }
    std::memcpy(&header, buf.data(), sizeof header);
    if (header.kind == kProbe) {  // the handshake: not an event
      reply(s.push, header.number, kProbe, s.number);
      continue;
    }
    if (header.kind != kEvent || n != event_size) {
      throw std::runtime_error(who + ": event " + std::to_string(header.number) + " of kind " +
                               std::to_string(header.kind) + " carries " +
                               std::to_string(n - sizeof header) + " bytes, expected " +
                               std::to_string(options_.payload_bytes) + " (--payload-bytes)");
    }
    if (verify_) {
      const std::uint8_t* payload = buf.data() + sizeof header;
      std::size_t at = 0;
      while (at < options_.payload_bytes && payload[at] == pattern_byte(at)) ++at;
      if (at != options_.payload_bytes) {
        throw std::runtime_error(who + ": payload mismatch at byte " + std::to_string(at) +
                                 " of event " + std::to_string(header.number) + " (verify=1)");
      }
    }
    // Counted before the reply leaves: once the publisher has every reply,
    // every count includes the event.
    ++s.received;
    reply(s.push, header.number, kEvent, s.number);
  }
}

}  // namespace zmq_driver
