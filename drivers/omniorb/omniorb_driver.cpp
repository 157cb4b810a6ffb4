// mwbench-driver-omniorb: Test::RoundTrip over omniORB, remote (tcp, uds: a Unix-domain socket)
// and collocated (one process, one ORB, the call through the object reference
// and the POA).
//
// This file maps the contract onto the ORB: options to ORB settings, roles to
// what the ORB does. The ORB itself lives in omniorb_session.*, the servants
// in omniorb_servant.* (the DSI's in omniorb_dsi_servant.cpp), the measured
// calls in omniorb_calls.* (static stubs) and omniorb_invocations.* (the
// DII, AMI and oneway), the delivery times in omniorb_delivery.hpp.
#include <omniORB4/CORBA.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/delivery_board.hpp"
#include "mwbench/driver.hpp"
#include "omniorb_ami.hpp"
#include "omniorb_calls.hpp"
#include "omniorb_invocations.hpp"
#include "omniorb_servant.hpp"
#include "omniorb_session.hpp"

namespace omniorb_driver {

namespace {

using mwbench::DriverOptions;
using mwbench::Measurement;
using mwbench::Role;
using mwbench::UsageError;
using mwbench::common::DeliveryBoard;

// --option connections=own|shared, as OrbSettings::own_connections.
constexpr mwbench::NameTable<bool, 2> kConnections{{{{true, "own"}, {false, "shared"}}}};
// --option target=same|random: true when random.
constexpr mwbench::NameTable<bool, 2> kTargets{{{{false, "same"}, {true, "random"}}}};

// Room for the GIOP and request headers next to a payload.
constexpr std::uint64_t kGiopOverheadBytes = 1024;

OrbSettings orb_settings(const DriverOptions& options) {
  OrbSettings settings;
  settings.role = options.role;
  settings.transport = options.transport;
  settings.address = options.bind_address;
  settings.thread_per_connection =
      kThreadings.parse(options.option("threading", "per-connection"), "--option threading=");
  if (options.options.contains("pool_size")) {
    const std::string text = options.option("pool_size", "");
    if (settings.thread_per_connection) {
      throw UsageError("--option pool_size=" + text + ": applies only with threading=pool");
    }
    unsigned value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > 100000) {
      throw UsageError("--option pool_size=" + text + ": must be a whole number from 1 to 100000");
    }
    settings.pool_size = value;
  }
  settings.client_threads = options.threads;
  settings.own_connections =
      kConnections.parse(options.option("connections", "own"), "--option connections=");
  // The threads that make omniORB's AMI calls: one by default, so that the
  // callbacks come in the order of the calls (omniorb_ami.hpp; README.md);
  // with more, a connection for each (connections=own) lets them overlap.
  if (options.role != Role::server && invocation_of(options) == Invocation::ami_callback) {
    const unsigned pool = client_pool_size(options);
    settings.extra_options.emplace_back("maxClientThreadPoolSize", std::to_string(pool));
    settings.client_threads = std::max<int>(settings.client_threads, static_cast<int>(pool));
  }
  return settings;
}

Dispatch dispatch_of(const DriverOptions& options) {
  return kDispatches.parse(options.option("dispatch", "static"), "--option dispatch=");
}

// Whether the servants stamp a delivery board: the client times deliveries
// (delivery_time=1), or its calls are oneway, timed by nothing else.
bool stamps_delivery(const DriverOptions& options) {
  return options.option_flag("delivery_time", false) ||
         invocation_of(options) == Invocation::oneway;
}

// target=same|random; a client setting, checked on both ends for its value.
bool random_target(const DriverOptions& options) {
  return kTargets.parse(options.option("target", "same"), "--option target=");
}

// A sequence's length is an unsigned long (32 bits). And a remote call is
// one GIOP message each way, which omniORB refuses above giopMaxMsgSize
// (2 MiB unless configured).
void check_payload_fits(const DriverOptions& options) {
  const std::string given = "--payload-bytes " + std::to_string(options.payload_bytes);
  if (options.payload_bytes > 0xFFFFFFFFu) {
    throw UsageError(given + ": a CORBA sequence holds at most 4294967295 bytes");
  }
  const std::uint64_t limit = omniORB::giopMaxMsgSize();
  if (options.mode == "remote" && options.payload_bytes + kGiopOverheadBytes > limit) {
    throw UsageError(given + ": remote calls allow at most " +
                     std::to_string(limit - kGiopOverheadBytes) + " (omniORB's giopMaxMsgSize " +
                     std::to_string(limit) + " less " + std::to_string(kGiopOverheadBytes) +
                     " for headers)");
  }
}

[[noreturn]] void fail_with(const std::string& what, const CORBA::Exception& e) {
  throw std::runtime_error(what + ": " + describe(e));
}

// The one untimed call before the warm-up, to servant 0: it opens the first
// connection, checks that the endpoint is a Test::RoundTrip (the references
// are made without asking), and fails within --timeout if the server never
// answers (or is gone).
void first_call(Test::RoundTrip_ptr target, double timeout_s) {
  const auto timeout_ms = static_cast<CORBA::ULong>(timeout_s * 1000.0);
  omniORB::setClientCallTimeout(target, timeout_ms);
  try {
    if (!target->_is_a(Test::RoundTrip::_PD_repoId)) {
      throw std::runtime_error(std::string("the endpoint is not a ") + Test::RoundTrip::_PD_repoId);
    }
    target->ping();
  } catch (const CORBA::Exception& e) {
    fail_with("first call to the servant failed", e);
  }
  // Back to no timeout: with one, omniORB calls poll() before every send()
  // and every recv() (seen with strace), which is not the call measured.
  omniORB::setClientCallTimeout(target, 0);
}

// The ORB options exactly as given to ORB_init, and the invocation path, for
// the result header.
nlohmann::json orb_config(const OrbSession& session, const DriverOptions& driver_options) {
  nlohmann::json options = nlohmann::json::array();
  for (const auto& [name, value] : session.orb_options()) options.push_back({name, value});
  return {{"orb_init_options", options},
          {"invocation", kInvocations.name(invocation_of(driver_options))},
          {"dispatch", kDispatches.name(dispatch_of(driver_options))},
          {"delivery_time", stamps_delivery(driver_options)}};
}

class OmniorbDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("omniorb", "omniORB", omniORB::versionString());
    d.operations = {{"roundtrip", false}, {"ping", false},        {"octets", true},
                    {"octets_out", true}, {"octets_inout", true}, {"records", true}};
    d.modes = {{"remote", {"tcp", "uds"}}, {"collocated", {"inproc"}}};
    d.host_local = {"uds"};
    d.options = {
        {"threading",
         "per-connection|pool: how the server dispatches calls: a thread per connection "
         "(threadPerConnectionPolicy=1, the default) or a pool (threadPerConnectionPolicy=0)"},
        {"pool_size",
         "N: with threading=pool, the most pool threads (maxServerThreadPoolSize; omniORB's "
         "default is 100)"},
        {"connections",
         "own|shared: with --threads, one GIOP connection per client thread (the default) or "
         "one for all, carrying their calls interleaved"},
        {"target",
         "same|random: every call to servant 0 (the default), or each to a servant drawn "
         "uniformly from the --servants (a sequence drawn before measuring)"},
        {"verify",
         "0|1: check every payload and reply on both ends, and count each servant's calls; "
         "for tests, not for measuring (default 0)"},
        {"invocation",
         "static|dii|ami_callback|ami_poller|oneway: how the client calls: the static stubs "
         "(the default), the DII (a CORBA::Request per call), AMI with a ReplyHandler (sendc_) "
         "or a poller (sendp_), or ping_oneway, timed by its delivery (operation ping only)"},
        {"dispatch",
         "static|dsi: how the servants are called: static skeletons (the default) or the DSI "
         "(PortableServer::DynamicImplementation, arguments parsed by operation name)"},
        {"client_pool_size", kClientPoolHelp},
        {"delivery_time",
         "0|1: also time each call's delivery, the client's send to the servant's entry, as "
         "the named series `delivery` (one host, --threads 1; default 0)"},
    };
    d.option_values["invocation"] = {"static", "dii", "ami_callback", "ami_poller", "oneway"};
    d.option_values["dispatch"] = {"static", "dsi"};
    d.option_values["delivery_time"] = {"0", "1"};
    // Every operation under an open --load, through AMI callbacks.
    for (const auto& [operation, payload] : d.operations) d.open_loop.push_back(operation);
    // A delivery time is two processes' clocks: one host only.
    d.one_way_options = {{"delivery_time", {"1"}}, {"invocation", {"oneway"}}};
    omniorb_driver::offer_orb_option(d);
    return d;
  }

  void serve(const DriverOptions& options, mwbench::ServerContext& context) override {
    const OrbSettings settings = orb_settings(options);
    (void)random_target(options);
    const bool verify = options.option_flag("verify", false);
    // Declared before the session so that they outlive the ORB that calls
    // them; the board before the servants that stamp it. The board is made
    // before the endpoint is published, and removed when serve() returns.
    std::optional<DeliveryBoard> board;
    if (stamps_delivery(options)) {
      board.emplace(DeliveryBoard::create(DeliveryBoard::path_for(options.endpoint_file)));
    }
    ServantSet servants(verify, options.payload_bytes, dispatch_of(options));
    if (board) servants.stamp_on_entry(*board);
    try {
      OrbSession session(settings);
      check_payload_fits(options);
      context.record_middleware_config(orb_config(session, options));
      const mwbench::ScopedStopCallback stop(context, session.stopper());
      // Published while the POA manager still holds calls, dispatching only
      // after: omniORB's threads serve calls, not this one, so only this way
      // does --option fault=hang (publish_endpoint() never returns) give a
      // server that never answers. A call that comes early just waits.
      context.publish_endpoint(session.activate(servants, options));
      session.dispatch();
      session.run();
    } catch (const CORBA::Exception& e) {
      fail_with("server", e);
    }
    if (verify) {
      std::fprintf(stderr, "mwbench-driver-omniorb: %s\n", servants.call_summary().c_str());
    }
    if (servants.bad_payloads() != 0) {
      throw std::runtime_error(std::to_string(servants.bad_payloads()) +
                               " payloads failed verification");
    }
  }

  void measure(const DriverOptions& options, Measurement& measurement) override {
    const OrbSettings settings = orb_settings(options);
    const bool verify = options.option_flag("verify", false);
    const bool random = random_target(options);
    const Invocation invocation = invocation_of(options);
    check_invocation(invocation, options);
    const bool time_delivery = options.option_flag("delivery_time", false);
    if (time_delivery && options.threads != 1) {
      throw UsageError("--threads " + std::to_string(options.threads) +
                       ": --option delivery_time=1 times one call at a time (--threads 1)");
    }
    // All outlive the ORB: the board the servants stamp (collocated) or the
    // server's (mapped), the servants (collocated only), the AMI handler.
    std::optional<DeliveryBoard> board;
    std::optional<ServantSet> servants;
    std::optional<ReplyHandler> handler;
    if (invocation == Invocation::ami_callback) {
      handler.emplace(measurement, verify, static_cast<CORBA::ULong>(options.payload_bytes));
    }
    try {
      OrbSession session(settings);
      check_payload_fits(options);
      measurement.record_middleware_config(orb_config(session, options));
      std::string endpoint;
      if (options.role == Role::collocated) {
        servants.emplace(verify, options.payload_bytes, dispatch_of(options));
        if (stamps_delivery(options)) {
          board.emplace(DeliveryBoard::in_process());
          servants->stamp_on_entry(*board);
        }
        endpoint = session.activate(*servants, options);
        session.dispatch();
      } else {
        endpoint = measurement.read_endpoint();
        if (stamps_delivery(options)) {
          board.emplace(DeliveryBoard::open(DeliveryBoard::path_for(options.endpoint_file)));
        }
      }
      // Collocated too goes through corbaloc references: omniORB recognises
      // its own endpoint and object keys and binds them to the servants.
      const OrbSession::Targets targets = session.resolve(endpoint, options);
      first_call(targets[0].in(), options.timeout_s);
      // oneway's sample is its delivery: no series beside it.
      const DeliveryTimer delivery = time_delivery && invocation != Invocation::oneway
                                         ? DeliveryTimer(*board, measurement)
                                         : DeliveryTimer();
      if (invocation != Invocation::static_stub) {
        measure_invocation(invocation, options, measurement, session.orb(), targets[0].in(),
                           board ? &*board : nullptr, delivery, handler ? &*handler : nullptr);
        if (lost_calls(measurement)) {
          handler->deactivate();  // lost calls are AMI calls: there is a handler
          session.abandon_calls_in_flight();
        }
      } else if (random) {
        const std::vector<std::uint32_t> sequence = random_sequence(targets.size());
        measure_calls(
            options, measurement,
            [&](int thread) { return RandomTargets(targets, sequence, thread, options.threads); },
            delivery);
      } else {
        measure_calls(
            options, measurement, [&](int) { return SameTarget(targets[0].in()); }, delivery);
      }
    } catch (const CORBA::BAD_PARAM& e) {
      if (verify) fail_with("the servant rejected a payload (verify=1)", e);
      fail_with("call failed", e);
    } catch (const CORBA::COMM_FAILURE& e) {
      // A server at its address space cap cannot start a thread for a new
      // connection: omniORB logs that on the server and drops the connection.
      if (!options.memory_limit_mb) fail_with("call failed", e);
      fail_with("call failed (with --memory-limit-mb " + std::to_string(*options.memory_limit_mb) +
                    ", perhaps a server out of address space for a thread: see its log)",
                e);
    } catch (const CORBA::Exception& e) {
      fail_with("call failed", e);
    }
    if (verify && servants) {
      std::fprintf(stderr, "mwbench-driver-omniorb: %s\n", servants->call_summary().c_str());
    }
  }
};

}  // namespace

}  // namespace omniorb_driver

int main(int argc, char** argv) {
  omniorb_driver::OmniorbDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
