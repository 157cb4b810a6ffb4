// The component layer: a Publisher and Subscribers assembled by name
// (mwccm::Assembly, the steps a deployment plan drives), the delivery
// chosen when connecting, as a plan's mwccm.EventDelivery chooses it; the
// executors below are the same whatever the delivery.
#include <mwccm/assembly.hpp>
#include <mwccm/channel_gateways.hpp>
#include <set>
#include <stdexcept>

#include "CcmEvents_ccm_executor.hpp"
#include "ccmevents_fanout.hpp"

namespace ccmevents {
namespace {

class PublisherExecutor final : public CcmEvents::Publisher_exec_base {
 public:
  void publish(CcmEvents::Update* event) { context()->push_events(event); }
};

class SubscriberExecutor final : public CcmEvents::Subscriber_exec_base {
 public:
  void push_events(CcmEvents::Update* event) override { logic_.on_event(*event); }
  CORBA::Long number() override { return number_; }
  void number(CORBA::Long value) override { number_ = value; }
  CORBA::Boolean verify() override { return verify_; }
  void verify(CORBA::Boolean value) override { verify_ = value; }
  CORBA::ULong payload_bytes() override { return payload_bytes_; }
  void payload_bytes(CORBA::ULong value) override { payload_bytes_ = value; }

  // Once configured (the attributes set), before activation.
  void reply_to(ReplySink& replies) { logic_.configure(number_, verify_, payload_bytes_, replies); }
  const SubscriberLogic& logic() const noexcept { return logic_; }

 private:
  CORBA::Long number_ = -1;
  CORBA::Boolean verify_ = false;
  CORBA::ULong payload_bytes_ = 0;
  SubscriberLogic logic_;
};

constexpr const char* kServer = "here";
constexpr const char* kContainer = "fanout";
constexpr const char* kPublisher = "publisher";

std::string subscriber_name(int number) { return "subscriber" + std::to_string(number); }

class ComponentFanout final : public Fanout {
 public:
  ComponentFanout(CORBA::ORB_ptr orb, const FanoutSettings& settings)
      : orb_(CORBA::ORB::_duplicate(orb)),
        settings_(settings),
        server_(new mwccm::ComponentServer(orb)),
        assembly_(orb) {
    assembly_.add_local_server(kServer, *server_);
    assembly_.create_container(kServer, kContainer);
    // Linked into this program (static assembly): no library to load.
    assembly_.install_home(kContainer, "publisher-home", "mwccm_home_CcmEvents_PublisherHome", "");
    assembly_.install_home(kContainer, "subscriber-home", "mwccm_home_CcmEvents_SubscriberHome",
                           "");
  }

  ~ComponentFanout() override {
    try {
      assembly_.remove();
      server_->remove_all();
    } catch (const CORBA::Exception&) {
      // The process is ending: what could not be removed goes with it.
    }
  }

  void host_subscribers(int first, int count, ReplySink& replies) override {
    for (int number = first; number < first + count; ++number) {
      const std::string name = subscriber_name(number);
      assembly_.create_component("subscriber-home", name);
      CORBA::Any number_value, verify_value, bytes_value;
      number_value <<= static_cast<CORBA::Long>(number);
      verify_value <<= CORBA::Any::from_boolean(settings_.verify);
      bytes_value <<= static_cast<CORBA::ULong>(settings_.payload_bytes);
      assembly_.configure(
          name,
          {{"number", number_value}, {"verify", verify_value}, {"payload_bytes", bytes_value}});
      SubscriberExecutor& subscriber = executor<SubscriberExecutor>(name);
      subscriber.reply_to(replies);
      subscribers_.push_back({name, &subscriber});
    }
  }

  std::string subscriber_fields() override {
    std::string fields;
    if (settings_.delivery == "direct") {
      fields = "consumers=";
      for (const auto& subscriber : subscribers_) {
        Components::EventConsumerBase_var sink = assembly_.consumer({subscriber.name, "events"});
        CORBA::String_var ior = orb_->object_to_string(sink.in());
        fields += (fields.back() == '=' ? "" : ",") + std::string(ior.in());
      }
    } else {
      fields = "channel=" + accept_here();
    }
    assembly_.activate();
    return fields;
  }

  void connect_publisher(const std::vector<std::string>& lines) override {
    assembly_.create_component("publisher-home", kPublisher);
    const mwccm::PortEnd source{kPublisher, "events"};
    if (settings_.delivery == "dds") {
      remote_readers_ = lines.size();
      connect_topic(source, lines.empty());
    } else if (lines.empty()) {  // collocated: every subscriber is in this container
      for (const auto& subscriber : subscribers_) {
        if (settings_.delivery == "direct") {
          assembly_.subscribe(source, {subscriber.name, "events"});
        } else {
          assembly_.subscribe_channel(source, {subscriber.name, "events"}, {});
        }
      }
    } else if (settings_.delivery == "direct") {
      for (std::size_t process = 0; process < lines.size(); ++process) {
        for (const auto& ior : consumer_references(lines[process])) {
          CORBA::Object_var object = orb_->string_to_object(ior.c_str());
          Components::EventConsumerBase_var sink =
              Components::EventConsumerBase::_narrow(object.in());
          assembly_.subscribe_to(source, sink.in(), far_end(process));
        }
      }
    } else {
      // One route per receiving endpoint, however many subscribers are
      // behind it: a process's, or a multicast group's for every process.
      std::set<std::string> routed;
      for (std::size_t process = 0; process < lines.size(); ++process) {
        const auto endpoint = gateway_endpoint(lines[process], settings_);
        if (routed.insert(endpoint.text()).second)
          assembly_.route_channel(source, mwccm::make_gateway(orb_.in(), endpoint),
                                  far_end(process));
      }
    }
    assembly_.activate();
    publisher_ = &executor<PublisherExecutor>(kPublisher);
  }

  void push(CcmEvents::Update* event) override { publisher_->publish(event); }

  std::vector<std::uint64_t> received() const override {
    std::vector<std::uint64_t> counts;
    for (const auto& subscriber : subscribers_)
      counts.push_back(subscriber.executor->logic().received());
    return counts;
  }

  nlohmann::json channel_counters() const override {
    mwccm::Container* container = server_->find_local_container(kContainer);
    return container == nullptr ? nlohmann::json() : counters_json(container->channel());
  }

 private:
  struct Hosted {
    std::string name;
    SubscriberExecutor* executor;  // borrowed: lives as long as its component
  };

  static mwccm::PortEnd far_end(std::size_t process) {
    return {"subscriber process " + std::to_string(process), "events"};
  }

  // This container's channel feeds every subscriber here with the
  // publisher's events, received through the gateway's receiver (or the
  // topic's reader), whose endpoint this returns.
  std::string accept_here() {
    const std::string gateway = settings_.delivery == "dds" ? "dds" : settings_.gateway;
    std::string endpoint;
    for (const auto& subscriber : subscribers_) {
      endpoint = assembly_.accept_channel(kSupplier, {subscriber.name, "events"}, {}, gateway,
                                          settings_.receiver, settings_.topic);
    }
    return endpoint;
  }

  // dds: the channel routes the source to the topic's one writer, whatever
  // the number of readers (a container each: this one's, collocated, or one
  // per subscriber process); returns once they match.
  void connect_topic(const mwccm::PortEnd& source, bool collocated) {
    if (collocated) accept_here();
    writer_ = mwccm::make_dds_writer(settings_.receiver.dds, settings_.topic);
    assembly_.route_channel(source, writer_, {"the readers of its topic", "events"});
    writer_->wait_for_readers(collocated ? 1 : remote_readers_, kDdsMatchTimeout);
    if (collocated)
      server_->find_local_container(kContainer)->receivers().wait_for_dds_writers(kDdsMatchTimeout);
  }

  template <class Executor>
  Executor& executor(const std::string& name) {
    mwccm::Container* container = server_->find_local_container(kContainer);
    mwccm::ComponentServant* servant =
        container ? container->servant_of(assembly_.component(name)) : nullptr;
    auto* found = servant ? dynamic_cast<Executor*>(servant->executor()) : nullptr;
    if (found == nullptr) throw std::logic_error("no executor of component " + name);
    return *found;
  }

  CORBA::ORB_var orb_;
  FanoutSettings settings_;
  PortableServer::Servant_var<mwccm::ComponentServer> server_;
  mwccm::Assembly assembly_;
  std::vector<Hosted> subscribers_;
  PublisherExecutor* publisher_ = nullptr;
  std::shared_ptr<mwccm::DdsWriter> writer_;  // dds
  std::size_t remote_readers_ = 0;            // dds: the subscriber processes
};

}  // namespace

std::unique_ptr<Fanout> make_component_fanout(CORBA::ORB_ptr orb, const FanoutSettings& settings) {
  return std::make_unique<ComponentFanout>(orb, settings);
}

}  // namespace ccmevents

MWCCM_REGISTER_CcmEvents_PublisherHome(ccmevents::PublisherExecutor);
MWCCM_REGISTER_CcmEvents_SubscriberHome(ccmevents::SubscriberExecutor);
