// The `dds` delivery strategy (docs/events.md section 5; dds_channel.hpp):
// the source's channel writes each event once to its topic's writer; every
// container with sinks, the source's own included, reads the topic and its
// channel feeds them, as a DDS4CCM connector delivers. The endpoint a
// receiving side publishes names its reader ("dds:TOPIC@CHANNEL"), so that
// the writer knows how many readers to wait for.
#include <chrono>
#include <map>
#include <mwccm/container.hpp>
#include <mwccm/delivery.hpp>
#include <set>

namespace mwccm {
namespace {

constexpr std::chrono::seconds kMatchTimeout{10};

class DdsWiring final : public DeliveryWiring {
 public:
  DdsWiring(Assembly& assembly, const WiringSettings& settings)
      : assembly_(assembly), settings_(settings) {}

  // Through DDS here too: this container's reader feeds the sink.
  void connect_local(const PortEnd& source, const PortEnd& sink,
                     const EventFilter& filter) override {
    route(source, accept(source.component + "." + source.port, sink, filter), sink);
  }
  std::string accept(const std::string& supplier, const PortEnd& sink,
                     const EventFilter& filter) override {
    readers_here_.insert(&assembly_.local_container(sink.component));
    return assembly_.accept_channel(supplier, sink, filter, "dds", settings_.receiver,
                                    settings_.topic);
  }
  void prepare(const PortEnd&) override {
    if (!writer_) writer_ = make_dds_writer(settings_.receiver.dds, settings_.topic);
  }
  // The channel sends the source's events to the topic's one writer, however
  // many readers take them (it sends through a gateway once).
  void route(const PortEnd& source, const std::string& endpoint, const PortEnd& far) override {
    prepare(source);
    readers_.insert(endpoint);
    assembly_.route_channel(source, writer_, far);
  }
  // Both sides wait: a match on one does not yet mean one on the other
  // (Cyclone drops what a reader gets from a writer it has not matched).
  void finish() override {
    if (writer_) writer_->wait_for_readers(readers_.size(), kMatchTimeout);
    for (Container* container : readers_here_)
      container->receivers().wait_for_dds_writers(kMatchTimeout);
  }

 private:
  Assembly& assembly_;
  WiringSettings settings_;
  std::shared_ptr<DdsWriter> writer_;
  std::set<std::string> readers_;      // the endpoints of the readers routed to
  std::set<Container*> readers_here_;  // the containers here that read
};

class DdsDelivery final : public DeliveryOf<DdsWiring> {
 public:
  const char* name() const noexcept override { return "dds"; }
  const char* summary() const noexcept override {
    return "a Cyclone DDS topic per source, read by every container with sinks (its own too)";
  }
  std::vector<std::string> transports() const override { return {"dds"}; }
  bool calls_local_sinks_on_the_pushing_thread() const noexcept override { return false; }
  std::string unavailable() const override {
    return dds_available() ? "" : "this mwccm was built without Cyclone DDS";
  }
};

MWCCM_REGISTER_DELIVERY(DdsDelivery);

}  // namespace
}  // namespace mwccm
