// The `zmq` delivery strategy (docs/delivery.md): a channel whose gateways
// between containers are ZeroMQ PUB/SUB over TCP. Sinks in the source's
// process are fed by its channel, as with `channel`; each other container
// with sinks binds a SUB socket (its receiver, endpoint "zmq:tcp://ADDRESS:
// PORT", on the process's channel address: loopback unless the plan says
// otherwise), and the source's channel sends each event once to it through
// an XPUB socket connected there. A message is the channel's datagram
// (channel_gateways.hpp: header, supplier, CDR), so that the receiver hands
// it to the channel as the UDP receiver does.
#include <sys/eventfd.h>
#include <unistd.h>
#include <zmq.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/delivery.hpp>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mwccm {
namespace {

constexpr int kSubscribedTimeoutMs = 10000;

// The process's ZeroMQ context, shared by its sockets (its I/O thread).
void* context() {
  static void* const shared = zmq_ctx_new();
  return shared;
}

// The sending side: an XPUB connected to one receiver. XPUB, not PUB, so
// that the gateway returns once the receiver's subscription arrived: a PUB
// drops what it sends before, silently.
class ZmqGateway final : public Gateway {
 public:
  explicit ZmqGateway(const std::string& address) : address_(address) {
    socket_ = zmq_socket(context(), ZMQ_XPUB);
    const int linger = 0, timeout = kSubscribedTimeoutMs;
    zmq_setsockopt(socket_, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(socket_, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    if (zmq_connect(socket_, address.c_str()) != 0) close_and_fail("connect to " + address);
    char subscription[8];
    if (zmq_recv(socket_, subscription, sizeof subscription, 0) < 0)
      close_and_fail("no subscription from " + address + " within 10 s");
  }
  ~ZmqGateway() override { zmq_close(socket_); }

  // The datagram's three parts in one message, from a buffer per thread
  // that keeps its size (libzmq copies it into a message of its own).
  bool send(const std::string& supplier, std::uint64_t sequence,
            std::span<const char> cdr) override {
    thread_local std::vector<char> message;
    const auto head = datagram::header(supplier, sequence);
    message.resize(head.size() + supplier.size() + cdr.size());
    std::memcpy(message.data(), head.data(), head.size());
    std::memcpy(message.data() + head.size(), supplier.data(), supplier.size());
    std::memcpy(message.data() + head.size() + supplier.size(), cdr.data(), cdr.size());
    return zmq_send(socket_, message.data(), message.size(), ZMQ_DONTWAIT) ==
           static_cast<int>(message.size());
  }
  std::string describe() const override { return "zmq " + address_; }

 private:
  [[noreturn]] void close_and_fail(const std::string& what) {
    const std::string why = zmq_strerror(zmq_errno());
    zmq_close(socket_);
    throw std::runtime_error("zmq gateway: " + what + ": " + why);
  }

  std::string address_;
  void* socket_ = nullptr;
};

// The receiving side: a SUB socket bound to the channel address and the
// thread that reads it until the receiver goes.
class ZmqReceiver final : public ChannelReceivers::Receiver {
 public:
  ZmqReceiver(EventChannel& channel, const ReceiverSettings& settings) : channel_(channel) {
    socket_ = zmq_socket(context(), ZMQ_SUB);
    stop_ = ::eventfd(0, EFD_CLOEXEC);
    const int linger = 0;
    zmq_setsockopt(socket_, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(socket_, ZMQ_SUBSCRIBE, "", 0);
    const std::string wanted = "tcp://" + settings.address + ":*";
    if (zmq_bind(socket_, wanted.c_str()) != 0) {
      const std::string why = zmq_strerror(zmq_errno());
      zmq_close(socket_);
      ::close(stop_);
      throw std::runtime_error("zmq receiver: bind " + wanted + ": " + why);
    }
    char bound[256];
    std::size_t length = sizeof bound;
    zmq_getsockopt(socket_, ZMQ_LAST_ENDPOINT, bound, &length);
    endpoint_ = std::string("zmq:") + bound;
    reader_ = std::thread([this] { read(); });
  }
  ~ZmqReceiver() override {
    const std::uint64_t one = 1;
    (void)::write(stop_, &one, sizeof one);
    reader_.join();
    zmq_close(socket_);
    ::close(stop_);
  }
  std::string endpoint() const override { return endpoint_; }

 private:
  void read() {
    std::vector<char> buffer(datagram::kMaxSize + 1);
    zmq_pollitem_t watched[] = {{socket_, 0, ZMQ_POLLIN, 0}, {nullptr, stop_, ZMQ_POLLIN, 0}};
    for (;;) {
      if (zmq_poll(watched, 2, -1) < 0 && zmq_errno() != EINTR) return;
      if (watched[1].revents != 0) return;
      for (;;) {
        const int n = zmq_recv(socket_, buffer.data(), buffer.size(), ZMQ_DONTWAIT);
        if (n < 0) break;
        const auto size = std::min(static_cast<std::size_t>(n), buffer.size());
        if (const auto decoded = datagram::decode({buffer.data(), size})) {
          channel_.receive(decoded->supplier, decoded->sequence, decoded->cdr);
        } else {
          channel_.note_unreadable();
        }
      }
    }
  }

  EventChannel& channel_;
  void* socket_ = nullptr;
  int stop_ = -1;
  std::string endpoint_;
  std::thread reader_;
};

std::unique_ptr<ChannelReceivers::Receiver> make_receiver(EventChannel& channel,
                                                          const ReceiverSettings& settings) {
  return std::make_unique<ZmqReceiver>(channel, settings);
}

std::shared_ptr<Gateway> zmq_gateway(const std::string& endpoint) {
  if (endpoint.rfind("zmq:", 0) != 0)
    throw std::invalid_argument("a zmq endpoint is zmq:tcp://ADDRESS:PORT, not '" + endpoint + "'");
  return std::make_shared<ZmqGateway>(endpoint.substr(4));
}

class ZmqWiring final : public DeliveryWiring {
 public:
  ZmqWiring(Assembly& assembly, const WiringSettings& settings)
      : assembly_(assembly), settings_(settings) {}

  void connect_local(const PortEnd& source, const PortEnd& sink,
                     const EventFilter& filter) override {
    assembly_.subscribe_channel(source, sink, filter);
  }
  std::string accept(const std::string& supplier, const PortEnd& sink,
                     const EventFilter& filter) override {
    return assembly_.accept_channel(supplier, sink, filter, "zmq", settings_.receiver);
  }
  // One gateway per receiver, however many sinks it feeds.
  void route(const PortEnd& source, const std::string& endpoint, const PortEnd& far) override {
    auto& gateway = gateways_[endpoint];
    if (!gateway) gateway = zmq_gateway(endpoint);
    assembly_.route_channel(source, gateway, far);
  }

 private:
  Assembly& assembly_;
  WiringSettings settings_;
  std::map<std::string, std::shared_ptr<Gateway>> gateways_;
};

class ZmqDelivery final : public DeliveryOf<ZmqWiring> {
 public:
  ZmqDelivery() { ChannelReceivers::add_kind("zmq", &make_receiver); }
  const char* name() const noexcept override { return "zmq"; }
  const char* summary() const noexcept override {
    return "through the containers' event channels, between processes by ZeroMQ PUB/SUB over "
           "TCP (--transport zmq)";
  }
  std::vector<std::string> transports() const override { return {"zmq"}; }
  std::shared_ptr<Gateway> gateway_to(CORBA::ORB_ptr, const std::string& endpoint,
                                      const ReceiverSettings&) const override {
    return zmq_gateway(endpoint);
  }
};

MWCCM_REGISTER_DELIVERY(ZmqDelivery);

}  // namespace
}  // namespace mwccm
