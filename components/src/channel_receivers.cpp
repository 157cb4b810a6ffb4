// The receiving side of the gateways (channel_receivers.hpp).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <MwccmEvents.hh>
#include <cerrno>
#include <cstring>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/channel_receivers.hpp>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mwccm {
namespace {

// The channel as a CORBA object: the ORB's threads call it.
class LinkServant final : public virtual POA_MwccmEvents::ChannelLink {
 public:
  explicit LinkServant(EventChannel& channel) : channel_(channel) {}
  void push(const char* supplier, CORBA::ULongLong sequence,
            const Components::OctetSeq& cdr) override {
    channel_.receive(supplier, sequence,
                     {reinterpret_cast<const char*>(cdr.get_buffer()), cdr.length()});
  }

 private:
  EventChannel& channel_;
};

class IiopReceiver final : public ChannelReceivers::Receiver {
 public:
  IiopReceiver(EventChannel& channel, CORBA::ORB_ptr orb, PortableServer::POA_ptr poa)
      : poa_(PortableServer::POA::_duplicate(poa)), servant_(new LinkServant(channel)) {
    id_ = PortableServer::string_to_ObjectId(("channel#" + channel.name()).c_str());
    poa_->activate_object_with_id(id_.in(), servant_);
    CORBA::Object_var reference = poa_->id_to_reference(id_.in());
    CORBA::String_var ior = orb->object_to_string(reference.in());
    endpoint_ = std::string("iiop:") + ior.in();
  }
  ~IiopReceiver() override {
    try {
      poa_->deactivate_object(id_.in());
    } catch (const CORBA::Exception&) {
      // The POA went first (the container's destruction): nothing to undo.
    }
    servant_->_remove_ref();
  }
  std::string endpoint() const override { return endpoint_; }

 private:
  PortableServer::POA_var poa_;
  LinkServant* servant_;
  PortableServer::ObjectId_var id_;
  std::string endpoint_;
};

// A UDP socket and the thread that reads it until the receiver goes.
class UdpReceiver final : public ChannelReceivers::Receiver {
 public:
  // `group` empty: unicast on `address`; else join `group` on `interface`.
  UdpReceiver(EventChannel& channel, const std::string& address, const std::string& group,
              const std::string& interface)
      : channel_(channel) {
    const bool multicast = !group.empty();
    const ChannelEndpoint wanted = multicast
                                       ? parse_endpoint("multicast:" + group + "@" + interface)
                                       : ChannelEndpoint{"udp", "", address, 0, ""};
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    stop_ = ::eventfd(0, EFD_CLOEXEC);
    if (fd_ < 0 || stop_ < 0) fail("socket", wanted.text());
    // Several containers of one host receive one group: each its own socket.
    const int yes = 1;
    if (multicast) ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(wanted.port);
    if (inet_pton(AF_INET, wanted.address.c_str(), &at.sin_addr) != 1)
      fail("the address is not IPv4", wanted.address, false);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0) fail("bind", wanted.text());
    if (multicast) join(wanted);
    socklen_t length = sizeof at;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&at), &length);
    ChannelEndpoint published = wanted;
    published.port = ntohs(at.sin_port);
    endpoint_ = published.text();
    reader_ = std::thread([this] { read(); });
  }
  ~UdpReceiver() override {
    const std::uint64_t one = 1;
    if (reader_.joinable()) {
      (void)::write(stop_, &one, sizeof one);
      reader_.join();
    }
    ::close(fd_);
    ::close(stop_);
  }
  std::string endpoint() const override { return endpoint_; }

 private:
  [[noreturn]] void fail(const std::string& what, const std::string& where, bool use_errno = true) {
    const std::string why = use_errno ? std::string(": ") + std::strerror(errno) : "";
    if (fd_ >= 0) ::close(fd_);
    if (stop_ >= 0) ::close(stop_);
    throw std::runtime_error("channel receiver " + where + ": " + what + why);
  }

  void join(const ChannelEndpoint& group) {
    ip_mreq membership{};
    if (inet_pton(AF_INET, group.address.c_str(), &membership.imr_multiaddr) != 1 ||
        inet_pton(AF_INET, group.interface.c_str(), &membership.imr_interface) != 1) {
      fail("not IPv4 addresses", group.text(), false);
    }
    if (const std::string why = multicast_unavailable(group.interface); !why.empty())
      fail("cannot join the group on interface " + group.interface + ": " + why, group.text(),
           false);
    if (::setsockopt(fd_, IPPROTO_IP, IP_ADD_MEMBERSHIP, &membership, sizeof membership) != 0)
      fail("cannot join the group on interface " + group.interface, group.text());
    // Only this group's datagrams, not those of groups other sockets joined.
    const int none = 0;
    ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_ALL, &none, sizeof none);
  }

  void read() {
    std::vector<char> buffer(datagram::kMaxSize + 1);
    pollfd watched[] = {{fd_, POLLIN, 0}, {stop_, POLLIN, 0}};
    for (;;) {
      if (::poll(watched, 2, -1) < 0 && errno != EINTR) return;
      if (watched[1].revents != 0) return;
      if (watched[0].revents == 0) continue;
      const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), 0);
      if (n <= 0) continue;
      const auto decoded = datagram::decode({buffer.data(), static_cast<std::size_t>(n)});
      if (decoded) {
        channel_.receive(decoded->supplier, decoded->sequence, decoded->cdr);
      } else {
        channel_.note_unreadable();
      }
    }
  }

  EventChannel& channel_;
  int fd_ = -1;
  int stop_ = -1;
  std::string endpoint_;
  std::thread reader_;
};

// Receiver kinds added by delivery strategies, by kind.
struct Kinds {
  std::mutex mutex;
  std::map<std::string, ChannelReceivers::MakeReceiver> makers;
};
Kinds& kinds() {
  static Kinds registered;
  return registered;
}

}  // namespace

void ChannelReceivers::add_kind(const std::string& kind, MakeReceiver make) {
  std::lock_guard lock(kinds().mutex);
  kinds().makers[kind] = make;
}

ChannelReceivers::ChannelReceivers(EventChannel& channel, CORBA::ORB_ptr orb,
                                   PortableServer::POA_ptr poa)
    : channel_(channel),
      orb_(CORBA::ORB::_duplicate(orb)),
      poa_(PortableServer::POA::_duplicate(poa)) {}

ChannelReceivers::~ChannelReceivers() = default;

std::string ChannelReceivers::endpoint(const std::string& kind, const ReceiverSettings& settings,
                                       const DdsTopic& topic) {
  std::lock_guard lock(mutex_);
  if (kind == "dds") {
    auto& reader = dds_readers_[topic.name];
    if (!reader) {
      try {
        reader = make_dds_reader(channel_, settings.dds, topic);
      } catch (...) {
        dds_readers_.erase(topic.name);
        throw;
      }
    }
    return "dds:" + topic.name + "@" + channel_.name();
  }
  auto& receiver = receivers_[kind];
  if (!receiver) {
    if (kind == "iiop") {
      receiver = std::make_unique<IiopReceiver>(channel_, orb_.in(), poa_.in());
    } else if (kind == "udp") {
      receiver = std::make_unique<UdpReceiver>(channel_, settings.address, "", "");
    } else if (kind == "multicast") {
      receiver = std::make_unique<UdpReceiver>(channel_, "", settings.multicast_group,
                                               settings.multicast_interface);
    } else {
      MakeReceiver make = nullptr;
      {
        std::lock_guard registered(kinds().mutex);
        const auto found = kinds().makers.find(kind);
        if (found != kinds().makers.end()) make = found->second;
      }
      if (make == nullptr) {
        receivers_.erase(kind);
        throw std::invalid_argument("no channel receiver of kind '" + kind + "'");
      }
      try {
        receiver = make(channel_, settings);
      } catch (...) {
        receivers_.erase(kind);
        throw;
      }
    }
  }
  return receiver->endpoint();
}

void ChannelReceivers::wait_for_dds_writers(std::chrono::milliseconds timeout) {
  std::lock_guard lock(mutex_);
  for (const auto& [topic, reader] : dds_readers_) reader->wait_for_writers(1, timeout);
}

}  // namespace mwccm
