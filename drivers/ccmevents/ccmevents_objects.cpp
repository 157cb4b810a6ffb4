// The object layer, the object-oriented counterpart of the component layer
// (as TAO's event channel used by plain CORBA objects was CIAO's): no
// components, homes, containers or contexts. The strategy (mwccm/delivery.hpp)
// says how: one that links no channels (`direct`): the publisher calls
// push_Update on every subscriber's CORBA object, as mwccm's DirectDelivery
// calls each connected consumer. One that does (`channel`, `zmq`): the
// publisher and subscribers use an mwccm::EventChannel, its receivers and the
// strategy's gateways themselves, the very ones a container's channel is made
// of. One that feeds even the publisher's own process's sinks on a thread of
// its own (`dds`): the topic's writer and readers.
#include <mwccm/channel_receivers.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/event_channel.hpp>
#include <mwccm/local_consumer.hpp>
#include <mwccm/port.hpp>
#include <set>
#include <stdexcept>

#include "CcmEvents_ccm_glue.hpp"
#include "ccmevents_fanout.hpp"

namespace ccmevents {
namespace {

// A subscriber as a CORBA object: what `direct` calls.
class ConsumerServant final : public virtual POA_CcmEvents::UpdateConsumer {
 public:
  explicit ConsumerServant(SubscriberLogic& logic) : logic_(logic) {}
  void push_Update(CcmEvents::Update* event) override { logic_.on_event(*event); }
  void push_event(Components::EventBase* event) override {
    auto* typed = CcmEvents::Update::_downcast(event);
    if (typed == nullptr) throw Components::BadEventType();
    logic_.on_event(*typed);
  }

 private:
  SubscriberLogic& logic_;
};

// A subscriber as a channel's sink: what `channel` calls.
class ChannelSink final : public mwccm::LocalConsumer<CcmEvents::Update*> {
 public:
  explicit ChannelSink(SubscriberLogic& logic) : logic_(logic) {}
  void push(CcmEvents::Update* event) override { logic_.on_event(*event); }

 private:
  SubscriberLogic& logic_;
};

struct Subscriber {
  SubscriberLogic logic;
  PortableServer::ObjectId_var id;            // its CORBA object's, for direct
  std::shared_ptr<mwccm::ProvidedPort> sink;  // for channel
};

class ObjectFanout final : public Fanout {
 public:
  ObjectFanout(CORBA::ORB_ptr orb, const FanoutSettings& settings)
      : orb_(CORBA::ORB::_duplicate(orb)),
        settings_(settings),
        delivery_(*mwccm::find_delivery(settings.delivery)),  // read_cell checked the name
        channel_("objects") {
    CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
    poa_ = PortableServer::POA::_narrow(object.in());
    PortableServer::POAManager_var manager = poa_->the_POAManager();
    manager->activate();
    CcmEvents_ccm::register_value_factories(orb);
    // The iiop receiver is activated with an id of its own, as in a container's POA.
    CORBA::PolicyList policies(1);
    policies.length(1);
    policies[0] = poa_->create_id_assignment_policy(PortableServer::USER_ID);
    channel_poa_ = poa_->create_POA("channel", manager.in(), policies);
    policies[0]->destroy();
    receivers_ = std::make_unique<mwccm::ChannelReceivers>(channel_, orb, channel_poa_.in());
  }

  ~ObjectFanout() override {
    receivers_.reset();  // no receiver thread delivers once the subscribers go
    for (auto& subscriber : subscribers_) {
      if (subscriber->sink) continue;  // a channel sink has no CORBA object
      try {
        poa_->deactivate_object(subscriber->id.in());
      } catch (const CORBA::Exception&) {
        // The ORB is going away with the process.
      }
    }
    for (auto& servant : servants_) servant->_remove_ref();
  }

  void host_subscribers(int first, int count, ReplySink& replies) override {
    for (int number = first; number < first + count; ++number) {
      auto subscriber = std::make_unique<Subscriber>();
      subscriber->logic.configure(number, settings_.verify, settings_.payload_bytes, replies);
      if (calls_consumers()) {
        servants_.push_back(new ConsumerServant(subscriber->logic));
        subscriber->id = poa_->activate_object(servants_.back());
      } else {
        subscriber->sink = std::make_shared<mwccm::ProvidedPort>(
            "events", Components::CONSUMER, "IDL:CcmEvents/UpdateConsumer:1.0",
            CORBA::Object::_nil(), std::make_unique<ChannelSink>(subscriber->logic),
            []() -> PortableServer::ServantBase* {
              throw std::logic_error("a channel never asks a sink for its servant");
            });
      }
      subscribers_.push_back(std::move(subscriber));
    }
  }

  std::string subscriber_fields() override {
    if (calls_consumers()) {
      std::string fields = "consumers=";
      for (const auto& subscriber : subscribers_) {
        CORBA::Object_var object = poa_->id_to_reference(subscriber->id.in());
        CORBA::String_var ior = orb_->object_to_string(object.in());
        fields += (fields.back() == '=' ? "" : ",") + std::string(ior.in());
      }
      return fields;
    }
    return "channel=" + accept_here();
  }

  void connect_publisher(const std::vector<std::string>& lines) override {
    if (calls_consumers()) {
      std::vector<std::string> iors;
      for (const auto& subscriber : subscribers_) {
        CORBA::Object_var object = poa_->id_to_reference(subscriber->id.in());
        CORBA::String_var ior = orb_->object_to_string(object.in());
        iors.emplace_back(ior.in());
      }
      for (const auto& line : lines) {
        for (auto& ior : consumer_references(line)) iors.push_back(std::move(ior));
      }
      for (const auto& ior : iors) {
        CORBA::Object_var object = orb_->string_to_object(ior.c_str());
        consumers_.push_back(CcmEvents::UpdateConsumer::_narrow(object.in()));
      }
      return;
    }
    supplier_ = &channel_.supplier(kSupplier, kEventType, mwccm::event_codec<CcmEvents::Update*>());
    if (!delivery_.calls_local_sinks_on_the_pushing_thread()) {  // a topic's one writer
      if (lines.empty()) accept_here();  // collocated, through DDS all the same
      writer_ = mwccm::make_dds_writer(settings_.receiver.dds, settings_.topic);
      channel_.route(*supplier_, next_route_++, writer_);
      writer_->wait_for_readers(lines.empty() ? 1 : lines.size(), kDdsMatchTimeout);
      if (lines.empty()) receivers_->wait_for_dds_writers(kDdsMatchTimeout);
      return;
    }
    for (const auto& subscriber : subscribers_)
      channel_.subscribe(*supplier_, next_route_++, subscriber->sink, {});
    // One route per receiving endpoint: a process's, or a multicast group's
    // (whose "@INTERFACE" is its receiver's: the gateway sends from ours).
    std::set<std::string> routed;
    for (const auto& line : lines) {
      const std::string endpoint = channel_endpoint(line);
      if (!routed.insert(endpoint.substr(0, endpoint.find('@'))).second) continue;
      channel_.route(*supplier_, next_route_++,
                     delivery_.gateway_to(orb_.in(), endpoint, settings_.receiver));
    }
  }

  // The channel feeds every subscriber here with the publisher's events,
  // received through the gateway's receiver (or the topic's reader).
  std::string accept_here() {
    for (const auto& subscriber : subscribers_)
      channel_.accept(kSupplier, kEventType, next_route_++, subscriber->sink, {});
    // A strategy of one transport receives by it (dds, zmq); a channel by its gateway's.
    const std::vector<std::string> transports = delivery_.transports();
    const std::string transport = transports.size() == 1 ? transports.front() : settings_.gateway;
    return receivers_->endpoint(transport, settings_.receiver, settings_.topic);
  }

  void push(CcmEvents::Update* event) override {
    if (supplier_ != nullptr) return channel_.publish(*supplier_, event);
    for (const auto& consumer : consumers_) consumer->push_Update(event);
  }

  std::vector<std::uint64_t> received() const override {
    std::vector<std::uint64_t> counts;
    for (const auto& subscriber : subscribers_) counts.push_back(subscriber->logic.received());
    return counts;
  }

  nlohmann::json channel_counters() const override { return counters_json(channel_); }

 private:
  // Sinks elsewhere are CORBA consumers, called (direct), not fed by channels.
  bool calls_consumers() const noexcept { return !delivery_.links_channels(); }

  CORBA::ORB_var orb_;
  FanoutSettings settings_;
  const mwccm::Delivery& delivery_;
  PortableServer::POA_var poa_;
  PortableServer::POA_var channel_poa_;  // the iiop receiver's
  mwccm::EventChannel channel_;
  std::unique_ptr<mwccm::ChannelReceivers> receivers_;
  std::vector<std::unique_ptr<Subscriber>> subscribers_;
  std::vector<ConsumerServant*> servants_;
  std::vector<CcmEvents::UpdateConsumer_var> consumers_;
  mwccm::EventChannel::Supplier* supplier_ = nullptr;
  std::shared_ptr<mwccm::DdsWriter> writer_;  // a topic's
  std::uint64_t next_route_ = 1;
};

}  // namespace

std::unique_ptr<Fanout> make_object_fanout(CORBA::ORB_ptr orb, const FanoutSettings& settings) {
  return std::make_unique<ObjectFanout>(orb, settings);
}

}  // namespace ccmevents
