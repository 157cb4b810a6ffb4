// mwbench-driver-ccm: Test::RoundTrip between plain CORBA objects and mwccm
// components (CCMPerf's distribution benchmarks), remote over TCP and
// collocated through the POA.
//
// This file maps the contract onto the scenario: which end is a component
// (ccm_scenario.*), where the components live (ccm_assembly.*), what is
// called (ccm_calls.*, ccm_lookups.*). The ORB is drivers/omniorb's session,
// with the same options, so a difference between scenarios is the component
// layer's and nothing else.
#include <unistd.h>

#include <cstdio>
#include <mwccm/registration.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "ccm_assembly.hpp"
#include "ccm_calls.hpp"
#include "ccm_lookups.hpp"
#include "ccm_naming.hpp"
#include "ccm_probes.hpp"
#include "ccm_scenario.hpp"
#include "common/delivery_board.hpp"
#include "mwbench/driver.hpp"
#include "omniorb_session.hpp"

namespace ccm_driver {

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using mwbench::common::DeliveryBoard;
using omniorb_driver::Invocation;
using omniorb_driver::OrbSession;
using omniorb_driver::OrbSettings;

constexpr const char* kHomeName = "mwbench/ccmperf/ReceiverHome";

OrbSettings orb_settings(const DriverOptions& options, const Scenario& scenario) {
  OrbSettings settings;
  settings.role = options.role;
  settings.transport = options.transport;
  // Every endpoint on --bind: the server's, and a component client's, whose
  // container makes references to its own Caller (for connect and subscribe).
  settings.address = options.bind_address;
  settings.thread_per_connection = omniorb_driver::kThreadings.parse(
      options.option("threading", "per-connection"), "--option threading=");
  // As the omniorb driver: one thread makes the AMI calls by default, so
  // that their callbacks come in the order of the calls (omniorb_ami.hpp);
  // with more, a connection for each lets them overlap.
  if (options.role != Role::server && scenario.callbacks()) {
    const unsigned pool = omniorb_driver::client_pool_size(options);
    settings.extra_options.emplace_back("maxClientThreadPoolSize", std::to_string(pool));
    settings.client_threads = static_cast<int>(pool);
  }
  return settings;
}

nlohmann::json middleware_config(const OrbSession& session, const Scenario& scenario) {
  nlohmann::json orb = nlohmann::json::array();
  for (const auto& [name, value] : session.orb_options()) orb.push_back({name, value});
  return {{"scenario", scenario.name},
          {"client", scenario.component_client ? "component (Caller, receptacle peer)" : "object"},
          {"server", scenario.component_server ? "component (Receiver, facet control)"
                                               : "object (servant in omniINSPOA)"},
          {"invocation", omniorb_driver::kInvocations.name(scenario.invocation)},
          {"dispatch", "static"},
          {"delivery_time", scenario.stamps_delivery()},
          {"orb_init_options", orb}};
}

std::string text(const CORBA::Exception& e) { return omniorb_driver::describe(e); }

std::string ior(CORBA::ORB_ptr orb, CORBA::Object_ptr object) {
  CORBA::String_var s = orb->object_to_string(object);
  return s.in();
}

// The untimed first call: opens the connection and fails within --timeout
// when the server never answers. Then no timeout, which would make omniORB
// poll() before every read.
void first_call(Test::RoundTrip_ptr target, double timeout_s) {
  omniORB::setClientCallTimeout(target, static_cast<CORBA::ULong>(timeout_s * 1000.0));
  target->ping();
  omniORB::setClientCallTimeout(target, 0);
}

void write_probe_file(const DriverOptions& options) {
#ifdef MWCCM_PROBES
  if (options.options.contains("probe_file")) write_probes(options.option("probe_file", ""));
#else
  (void)options;
#endif
}

// The Receiver's facet as any CCM client reaches it, with no stub of the
// component's own: CCMObject::provide_facet("control"), by name, then a
// narrow to the facet's interface. So a component of another ORB's CCM
// implementation is reached the same way (mwbench interop).
Test::RoundTrip_ptr navigate_to_control(CORBA::Object_ptr component) {
  Components::CCMObject_var navigable = Components::CCMObject::_narrow(component);
  if (CORBA::is_nil(navigable.in())) {
    throw std::runtime_error("the endpoint's component= reference is not a CCMObject");
  }
  CORBA::Object_var facet = navigable->provide_facet("control");
  Test::RoundTrip_var control = Test::RoundTrip::_narrow(facet.in());
  if (CORBA::is_nil(control.in())) {
    throw std::runtime_error("provide_facet(\"control\") gave no Test::RoundTrip");
  }
  return control._retn();
}

class CcmDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("ccm", "mwccm on omniORB", omniORB::versionString());
    d.operations = {{"roundtrip", false},
                    {"ping", false},
                    {"octets", true},
                    {"octets_inout", true},
                    {"event_value", true},
                    {"event_struct", true},
                    {"lookup_home_naming", false},
                    {"lookup_home_file", false},
                    {"provide_facet", false},
                    {"find_component", false}};
    d.modes = {{"remote", {"tcp"}}, {"collocated", {"inproc"}}};
    d.options = {
        {"scenario", kScenarioHelp},
        {"layer", kLayerHelp},
        {"threading",
         "per-connection|pool: the server ORB's threading model "
         "(threadPerConnectionPolicy 1, the default, or 0), as in the omniorb driver"},
        {"verify",
         "0|1: the servant or Receiver checks payloads and events and counts calls; "
         "every look-up is checked; for tests, not for measuring (default 0)"},
        {"invocation", kInvocationHelp},
        {"dispatch",
         "static: the server's skeletons. A component's facet is served by its generated "
         "static skeleton (mwccm has no DSI glue), so dsi is not offered"},
        {"client_pool_size", omniorb_driver::kClientPoolHelp},
        {"delivery_time",
         "0|1: also time each call's (or event's) delivery, the client's send to the entry of "
         "the Receiver's executor (or the plain servant), as the named series `delivery` (one "
         "host; default 0)"},
    };
    d.option_values = {{"scenario", {"obj-obj", "obj-comp", "comp-obj", "comp-comp"}},
                       {"layer", {"object", "component"}},
                       {"invocation", {"static", "dii", "ami_callback", "ami_poller", "oneway"}},
                       {"dispatch", {"static"}},
                       {"delivery_time", {"0", "1"}}};
    // Timed from two processes' clocks: one host only.
    d.one_way_options = {{"delivery_time", {"1"}}, {"invocation", {"oneway"}}};
    // The facet's calls, by AMI callbacks; an event push and a look-up are
    // synchronous CCM operations, closed loop only.
    d.open_loop = {"roundtrip", "ping", "octets", "octets_inout"};
    omniorb_driver::offer_orb_option(d);
#ifdef MWCCM_PROBES
    d.options["probe_file"] = "PATH: the probe build writes its white-box timestamps there";
#endif
    d.max_threads = 1;
    d.max_servants = 1;
    return d;
  }

  void serve(const DriverOptions& options, mwbench::ServerContext& context) override {
    const Scenario scenario = parse_scenario(options);
    OrbSettings settings = orb_settings(options, scenario);
    const bool verify = options.option_flag("verify", false);
#ifdef MWCCM_PROBES
    start_probes();
#endif
    // Made before the endpoint is published, removed when serve() returns;
    // it outlives the servants and the Receiver that stamp it.
    std::optional<DeliveryBoard> board;
    if (scenario.stamps_delivery()) {
      board.emplace(DeliveryBoard::create(DeliveryBoard::path_for(options.endpoint_file)));
    }
    std::optional<NamingService> naming;
    if (options.operation == "lookup_home_naming") {
      naming.emplace(options.bind_address, options.timeout_s);
      settings.extra_options.emplace_back("InitRef", "NameService=" + naming->corbaloc());
    }
    omniorb_driver::ServantSet servants(verify, options.payload_bytes);  // outlives the ORB
    if (board) servants.stamp_on_entry(*board);
    stamp_entries_on(board ? &*board : nullptr);  // the Receiver's
    const std::string home_file = options.endpoint_file + ".home.ior";
    try {
      OrbSession session(settings);
      context.record_middleware_config(middleware_config(session, scenario));
      if (!scenario.component_server) {
        const mwbench::ScopedStopCallback stop(context, session.stopper());
        context.publish_endpoint("objects=" + session.activate(servants, options));
        session.dispatch();
        session.run();
      } else {
        CORBA::ORB_ptr orb = session.orb();
        ComponentHost host(orb);
        CcmPerf::Receiver_var receiver = host.create_receiver(verify, options.payload_bytes);
        host.activate(receiver.in());
        Endpoint endpoint = {{"component", ior(orb, receiver.in())},
                             {"container", ior(orb, host.container())},
                             {"home", ior(orb, host.receiver_home())},
                             {"home_file", home_file}};
        mwccm::register_reference(orb, host.receiver_home(), "file:" + home_file);
        if (naming) {
          mwccm::register_reference(orb, host.receiver_home(), std::string("naming:") + kHomeName);
          endpoint["naming"] = naming->corbaloc();
          endpoint["home_name"] = kHomeName;
        }
        const mwbench::ScopedStopCallback stop(context, [&host] { host.shutdown(); });
        context.publish_endpoint(endpoint_line(endpoint));
        session.run();
        const ReceiverCounts& counts = receiver_counts();
        if (verify) std::fprintf(stderr, "mwbench-driver-ccm: %s\n", counts.summary().c_str());
        if (counts.bad != 0) throw std::runtime_error("the Receiver found " + counts.summary());
      }
    } catch (const CORBA::Exception& e) {
      unlink(home_file.c_str());
      throw std::runtime_error("server: " + text(e));
    }
    unlink(home_file.c_str());
    if (verify && !scenario.component_server) {
      std::fprintf(stderr, "mwbench-driver-ccm: %s\n", servants.call_summary().c_str());
    }
    if (servants.bad_payloads() != 0) throw std::runtime_error("payloads failed verification");
    write_probe_file(options);
  }

  void measure(const DriverOptions& options, mwbench::Measurement& measurement) override {
    const Scenario scenario = parse_scenario(options);
    const OrbSettings settings = orb_settings(options, scenario);
    const bool verify = options.option_flag("verify", false);
#ifdef MWCCM_PROBES
    start_probes();
#endif
    // All outlive the ORB: the servants (collocated obj-obj), the delivery
    // board (the server's, mapped, or this process's, stamped here), the
    // ReplyHandler of AMI callbacks.
    std::optional<omniorb_driver::ServantSet> servants;
    std::optional<DeliveryBoard> board;
    std::optional<omniorb_driver::ReplyHandler> handler;
    if (scenario.callbacks()) {
      handler.emplace(measurement, verify, static_cast<CORBA::ULong>(options.payload_bytes));
    }
    try {
      OrbSession session(settings);
      measurement.record_middleware_config(middleware_config(session, scenario));
      CORBA::ORB_ptr orb = session.orb();
      std::optional<ComponentHost> host;
      Test::RoundTrip_var target;
      CcmPerf::Receiver_var receiver;
      if (options.role == Role::collocated) {
        if (scenario.stamps_delivery()) board.emplace(DeliveryBoard::in_process());
        stamp_entries_on(board ? &*board : nullptr);  // the Receiver's
        // The client's call reaches the servant or facet by omniORB's local
        // call path through the POA (clientTransportRule "* none").
        if (scenario.component_server) {
          host.emplace(orb);
          receiver = host->create_receiver(verify, options.payload_bytes);
          host->activate(receiver.in());
          target = receiver->provide_control();
        } else {
          servants.emplace(verify, options.payload_bytes);
          if (board) servants->stamp_on_entry(*board);
          const std::string base = session.activate(*servants, options);
          session.dispatch();
          target = Test::RoundTrip::_duplicate(session.resolve(base, options)[0].in());
        }
      } else {
        const Endpoint endpoint = parse_endpoint(measurement.read_endpoint(), {});
        if (scenario.stamps_delivery()) {
          board.emplace(DeliveryBoard::open(DeliveryBoard::path_for(options.endpoint_file)));
        }
        if (scenario.kind == OperationKind::lookup) {
          measure_lookups(options, measurement, orb,
                          parse_endpoint(endpoint_line(endpoint),
                                         {"component", "container", "home", "home_file"}));
          return;
        }
        if (scenario.component_server) {
          parse_endpoint(endpoint_line(endpoint), {"component"});
          CORBA::Object_var object = orb->string_to_object(endpoint.at("component").c_str());
          target = navigate_to_control(object.in());
          if (scenario.kind == OperationKind::event) {
            receiver = CcmPerf::Receiver::_narrow(object.in());  // its event sinks
          }
        } else {
          parse_endpoint(endpoint_line(endpoint), {"objects"});
          target =
              Test::RoundTrip::_duplicate(session.resolve(endpoint.at("objects"), options)[0].in());
        }
      }
      first_call(target.in(), options.timeout_s);
      CallPath path{
          scenario.invocation, orb, board ? &*board : nullptr, {}, handler ? &*handler : nullptr};
      // oneway's sample is its delivery: no series beside it.
      if (scenario.time_delivery && scenario.invocation != Invocation::oneway) {
        path.delivery = omniorb_driver::DeliveryTimer(*board, measurement);
      }
      if (!scenario.component_client) {
        measure_object_calls(options, measurement, target.in(), path);
      } else {
        if (!host) host.emplace(orb);
        CcmPerf::Caller_var caller = host->create_caller();
        caller->connect_peer(target.in());
        if (scenario.kind == OperationKind::event) {
          CcmPerf::ValueEventConsumer_var values = receiver->get_consumer_values();
          CcmPerf::StructEventConsumer_var structs = receiver->get_consumer_structs();
          Components::Cookie_var a = caller->subscribe_values(values.in());
          Components::Cookie_var b = caller->subscribe_structs(structs.in());
        }
        host->activate(caller.in());
        measure_component_calls(options, measurement, host->executor<CallerExecutor>(kCallerKey),
                                path);
      }
      // Unanswered AMI calls still in flight would hold the ORB's destroy().
      if (omniorb_driver::lost_calls(measurement)) {
        if (handler) handler->deactivate();
        session.abandon_calls_in_flight();
      }
      if (verify && options.role == Role::collocated && scenario.component_server) {
        std::fprintf(stderr, "mwbench-driver-ccm: %s\n",
                     host->executor<ReceiverExecutor>(kReceiverKey).counts().summary().c_str());
      }
    } catch (const CORBA::Exception& e) {
      throw std::runtime_error("call failed: " + text(e));
    }
    if (verify && servants) {
      std::fprintf(stderr, "mwbench-driver-ccm: %s\n", servants->call_summary().c_str());
    }
    write_probe_file(options);
  }
};

}  // namespace

}  // namespace ccm_driver

int main(int argc, char** argv) {
  ccm_driver::CcmDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
