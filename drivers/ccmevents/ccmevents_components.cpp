// The component layer: a Publisher and Subscribers assembled by name
// (mwccm::Assembly, the steps a deployment plan drives), wired by the
// delivery strategy of that name (mwccm/delivery.hpp), as a plan's
// mwccm.EventDelivery chooses it; the executors below are the same whatever
// the delivery.
#include <unistd.h>

#include <mwccm/assembly.hpp>
#include <mwccm/delivery.hpp>
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
constexpr const char* kPublisher = "publisher";

std::string subscriber_name(int number) { return "subscriber" + std::to_string(number); }

class ComponentFanout final : public Fanout {
 public:
  ComponentFanout(CORBA::ORB_ptr orb, const FanoutSettings& settings)
      : orb_(CORBA::ORB::_duplicate(orb)),
        settings_(settings),
        server_(new mwccm::ComponentServer(orb)),
        assembly_(orb),
        wiring_(wire(orb, settings, assembly_)) {
    assembly_.add_local_server(kServer, *server_);
    assembly_.create_container(kServer, container_);
    // Linked into this program (static assembly): no library to load.
    assembly_.install_home(container_, "publisher-home", "mwccm_home_CcmEvents_PublisherHome", "");
    assembly_.install_home(container_, "subscriber-home", "mwccm_home_CcmEvents_SubscriberHome",
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

  // The endpoint each subscriber here is fed by, as the strategy's receiving
  // side publishes it (once per distinct endpoint: a channel's receiver
  // feeds every subscriber of the process).
  std::string subscriber_fields() override {
    std::vector<std::string> endpoints;
    for (const auto& subscriber : subscribers_) {
      std::string endpoint = wiring_.accept(kSupplier, {subscriber.name, "events"}, {});
      if (std::find(endpoints.begin(), endpoints.end(), endpoint) == endpoints.end())
        endpoints.push_back(std::move(endpoint));
    }
    assembly_.activate();
    return endpoints_field(endpoints);
  }

  void connect_publisher(const std::vector<std::string>& lines) override {
    assembly_.create_component("publisher-home", kPublisher);
    const mwccm::PortEnd source{kPublisher, "events"};
    for (const auto& subscriber : subscribers_)  // collocated: every subscriber is here
      wiring_.connect_local(source, {subscriber.name, "events"}, {});
    for (std::size_t process = 0; process < lines.size(); ++process) {
      for (const auto& endpoint : subscriber_endpoints(lines[process]))
        wiring_.route(source, endpoint, far_end(process));
    }
    assembly_.finish_wiring();
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
    mwccm::Container* container = server_->find_local_container(container_);
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

  static mwccm::DeliveryWiring& wire(CORBA::ORB_ptr orb, const FanoutSettings& settings,
                                     mwccm::Assembly& assembly) {
    const mwccm::Delivery* delivery = mwccm::find_delivery(settings.delivery);
    if (delivery == nullptr) throw std::logic_error("no delivery " + settings.delivery);
    return assembly.wiring(*delivery, {orb, settings.gateway, settings.receiver, settings.topic});
  }

  template <class Executor>
  Executor& executor(const std::string& name) {
    mwccm::Container* container = server_->find_local_container(container_);
    mwccm::ComponentServant* servant =
        container ? container->servant_of(assembly_.component(name)) : nullptr;
    auto* found = servant ? dynamic_cast<Executor*>(servant->executor()) : nullptr;
    if (found == nullptr) throw std::logic_error("no executor of component " + name);
    return *found;
  }

  CORBA::ORB_var orb_;
  FanoutSettings settings_;
  // A name of this process's own: a topic's readers are counted by their
  // channels' names, one per subscriber process.
  std::string container_ = "fanout-" + std::to_string(::getpid());
  PortableServer::Servant_var<mwccm::ComponentServer> server_;
  mwccm::Assembly assembly_;
  mwccm::DeliveryWiring& wiring_;  // the assembly's, for its strategy
  std::vector<Hosted> subscribers_;
  PublisherExecutor* publisher_ = nullptr;
};

}  // namespace

std::unique_ptr<Fanout> make_component_fanout(CORBA::ORB_ptr orb, const FanoutSettings& settings) {
  return std::make_unique<ComponentFanout>(orb, settings);
}

}  // namespace ccmevents

MWCCM_REGISTER_CcmEvents_PublisherHome(ccmevents::PublisherExecutor);
MWCCM_REGISTER_CcmEvents_SubscriberHome(ccmevents::SubscriberExecutor);
