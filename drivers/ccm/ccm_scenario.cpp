#include "ccm_scenario.hpp"

namespace ccm_driver {

const char* const kScenarioHelp =
    "obj-obj|obj-comp|comp-obj|comp-comp (default comp-comp): client then server, each a plain "
    "CORBA object or an mwccm component (client: calls through a receptacle; server: a facet). "
    "Collocated: obj-obj and comp-comp only. octets_inout: an object client (obj-*) only. "
    "event_* operations: comp-comp only; lookup_* "
    "operations, provide_facet and find_component: remote, with a component server";

const char* const kLayerHelp =
    "object|component: the OpenCCM study's component layer (the factor `layer`): object is "
    "scenario obj-obj, component is comp-comp, a client that uses the interface calling a "
    "server that provides it; with scenario, the two must agree";

const char* const kInvocationHelp =
    "static|dii|ami_callback|ami_poller|oneway (default static): how the client calls the "
    "Receiver's facet (or the plain servant), as the omniorb driver's option: the static "
    "stub, the DII, AMI by a ReplyHandler (sendc_) or a poller (sendp_), or ping_oneway "
    "(operation ping only), timed by its delivery. A Caller component calls through its "
    "receptacle's forwarder with static, and otherwise through the reference its receptacle "
    "holds (get_connection_peer). The facet's calls only (roundtrip, ping, octets, "
    "octets_inout); an open --load calls by ami_callback";

namespace {

OperationKind kind_of(const std::string& operation) {
  if (operation.starts_with("event_")) return OperationKind::event;
  if (operation.starts_with("lookup_") || operation == "provide_facet" ||
      operation == "find_component") {
    return OperationKind::lookup;
  }
  return OperationKind::call;
}

// --option layer, as the scenario it names; --option scenario given beside it must agree.
std::string scenario_name(const mwbench::DriverOptions& options) {
  if (!options.options.contains("layer")) return options.option("scenario", "comp-comp");
  const std::string layer = options.option("layer", "");
  const std::string of_layer = layer == "object" ? "obj-obj" : "comp-comp";
  const std::string scenario = options.option("scenario", of_layer);
  if (scenario != of_layer) {
    throw mwbench::UsageError("--option layer=" + layer + " with --option scenario=" + scenario +
                              ": layer " + layer + " is scenario " + of_layer +
                              "; give one of the two, or both agreeing");
  }
  return scenario;
}

// --option invocation and delivery against the operation and --load.
void check_invocation(Scenario& s, const mwbench::DriverOptions& options) {
  using omniorb_driver::Invocation;
  s.invocation = omniorb_driver::invocation_of(options);
  s.time_delivery = options.option_flag("delivery_time", false);
  const std::string invocation =
      "--option invocation=" + std::string(omniorb_driver::kInvocations.name(s.invocation));
  const std::string operation = " with --operation " + options.operation;
  if (s.invocation != Invocation::static_stub && s.kind != OperationKind::call) {
    throw mwbench::UsageError(
        invocation + operation +
        ": invocations are of the facet's calls (roundtrip, ping, octets, octets_inout); " +
        (s.kind == OperationKind::event ? "an event goes by the Caller's event source"
                                        : "a look-up calls a CCM operation's static stub"));
  }
  if (s.time_delivery && s.kind == OperationKind::lookup) {
    throw mwbench::UsageError("--option delivery_time=1" + operation +
                              ": a look-up reaches no executor of the Receiver; delivery "
                              "times the facet's calls and the events");
  }
  // oneway's operations, --threads, and an open --load's (ami_callback, no delivery series).
  omniorb_driver::check_invocation(s.invocation, options);
}

}  // namespace

Scenario parse_scenario(const mwbench::DriverOptions& options) {
  Scenario s;
  s.name = scenario_name(options);
  if (s.name == "obj-obj") {
  } else if (s.name == "obj-comp") {
    s.component_server = true;
  } else if (s.name == "comp-obj") {
    s.component_client = true;
  } else if (s.name == "comp-comp") {
    s.component_client = s.component_server = true;
  } else {
    throw mwbench::UsageError("--option scenario=" + s.name +
                              ": must be obj-obj, obj-comp, comp-obj or comp-comp");
  }
  s.kind = kind_of(options.operation);
  const std::string given = "--option scenario=" + s.name + " with ";
  // CCMPerf's collocated cases are the two homogeneous ones: a client and a
  // server of one kind in one process, the call through the POA.
  if (options.mode == "collocated" && s.component_client != s.component_server) {
    throw mwbench::UsageError(given +
                              "--role collocated: collocated runs obj-obj and comp-comp "
                              "only (one kind of client and server in one process)");
  }
  if (options.operation == "octets_inout" && s.component_client) {
    throw mwbench::UsageError(given +
                              "--operation octets_inout: the Caller component calls "
                              "roundtrip, ping and octets only; use obj-obj or obj-comp");
  }
  if (s.kind == OperationKind::event && s.name != "comp-comp") {
    throw mwbench::UsageError(given + "--operation " + options.operation +
                              ": events go from a component's source to a component's sink, "
                              "so they need scenario=comp-comp");
  }
  if (s.kind == OperationKind::lookup) {
    if (!s.component_server) {
      throw mwbench::UsageError(given + "--operation " + options.operation +
                                ": look-ups find a component server's home, component or "
                                "facet, so they need scenario=obj-comp or comp-comp");
    }
    if (options.mode == "collocated") {
      throw mwbench::UsageError(given + "--operation " + options.operation +
                                ": look-ups are measured remote only");
    }
  }
  check_invocation(s, options);
  return s;
}

}  // namespace ccm_driver
