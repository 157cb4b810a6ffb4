// mwbench-driver-omniorb: Test::RoundTrip over omniORB, remote (tcp, unix)
// and collocated (one process, one ORB, the call through the object reference
// and the POA).
//
// This file maps the contract onto the ORB: options to ORB settings, roles to
// what the ORB does, operations to the one call Measurement::run() times. The
// ORB itself lives in omniorb_session.*, the servant in omniorb_servant.*.
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <omniORB4/CORBA.h>

#include "mwbench/clock.hpp"
#include "mwbench/driver.hpp"
#include "omniorb_session.hpp"
#include "omniorb_servant.hpp"

namespace omniorb_driver {

namespace {

using mwbench::DriverOptions;
using mwbench::Measurement;
using mwbench::Role;
using mwbench::UsageError;

// Room for the GIOP and request headers next to an octets payload.
constexpr std::uint64_t kGiopOverheadBytes = 1024;

OrbSettings orb_settings(const DriverOptions& options) {
  OrbSettings settings;
  settings.role = options.role;
  settings.transport = options.transport;
  const std::string threading = options.option("threading", "per-connection");
  if (threading == "pool") {
    settings.thread_per_connection = false;
  } else if (threading != "per-connection") {
    throw UsageError("--option threading=" + threading + ": must be per-connection or pool");
  }
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
  return settings;
}

// A sequence's length is an unsigned long (32 bits). And a remote octets
// call is one GIOP message, which omniORB refuses above giopMaxMsgSize
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

// The one untimed call before the warm-up: it opens the connection, and a
// server that never answers (or is gone) fails it within --timeout.
void first_call(Test::RoundTrip_ptr target, double timeout_s) {
  const auto timeout_ms = static_cast<CORBA::ULong>(timeout_s * 1000.0);
  omniORB::setClientCallTimeout(target, timeout_ms);
  try {
    target->ping();
  } catch (const CORBA::Exception& e) {
    fail_with("first call to the servant failed", e);
  }
  // Back to no timeout: with one, omniORB calls poll() before every send()
  // and every recv() (seen with strace), which is not the call measured.
  omniORB::setClientCallTimeout(target, 0);
}

void measure_operation(const DriverOptions& options, Measurement& measurement,
                       Test::RoundTrip_ptr target) {
  if (options.operation == "roundtrip") {
    measurement.run([&] {
      const CORBA::ULongLong sent = mwbench::now_ns();
      if (target->test_method(sent) != sent) {
        measurement.fail("test_method returned a value other than the send_time it was given");
      }
    });
  } else if (options.operation == "ping") {
    measurement.run([&] { target->ping(); });
  } else {  // octets; run_driver() admits no other operation
    // Built once: the sequence borrows the buffer (release=false), so no
    // call allocates or copies it on the client side.
    const auto length = static_cast<CORBA::ULong>(options.payload_bytes);
    std::vector<CORBA::Octet> bytes(length);
    for (CORBA::ULong i = 0; i < length; ++i) bytes[i] = pattern_byte(i);
    const Test::Octets data(length, length, bytes.data(), false);
    measurement.run([&] { target->send_octets(data); });
  }
}

// The ORB options exactly as given to ORB_init, for the result header.
nlohmann::json orb_config(const OrbSession& session) {
  nlohmann::json options = nlohmann::json::array();
  for (const auto& [name, value] : session.orb_options()) options.push_back({name, value});
  return {{"orb_init_options", options}};
}

class OmniorbDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d;
    d.driver = "omniorb";
    d.middleware = "omniORB";
    d.middleware_version = omniORB::versionString();
    d.operations = {{"roundtrip", false}, {"ping", false}, {"octets", true}};
    d.modes = {{"remote", {"tcp", "unix"}}, {"collocated", {"inproc"}}};
    d.options = {
        {"threading",
         "per-connection|pool: how the server dispatches calls: a thread per connection "
         "(threadPerConnectionPolicy=1, the default) or a pool (threadPerConnectionPolicy=0)"},
        {"pool_size",
         "N: with threading=pool, the most pool threads (maxServerThreadPoolSize; omniORB's "
         "default is 100)"},
        {"verify",
         "0|1: the servant checks every octets payload (length and pattern) and fails the "
         "call on a mismatch; for tests, not for measuring (default 0)"},
    };
    return d;
  }

  void serve(const DriverOptions& options, mwbench::ServerContext& context) override {
    const OrbSettings settings = orb_settings(options);
    // Declared before the session so that it outlives the ORB that calls it.
    RoundTripServant servant(options.option_flag("verify", false), options.payload_bytes);
    try {
      OrbSession session(settings);
      check_payload_fits(options);
      context.record_middleware_config(orb_config(session));
      const mwbench::ScopedStopCallback stop(context, session.stopper());
      // Published while the POA manager still holds calls, dispatching only
      // after: omniORB's threads serve calls, not this one, so only this way
      // does --option fault=hang (publish_endpoint() never returns) give a
      // server that never answers. A call that comes early just waits.
      context.publish_endpoint(session.activate(&servant));
      session.dispatch();
      session.run();
    } catch (const CORBA::Exception& e) {
      fail_with("server", e);
    }
    if (servant.bad_payloads() != 0) {
      throw std::runtime_error(std::to_string(servant.bad_payloads()) +
                               " octets payloads failed verification");
    }
  }

  void measure(const DriverOptions& options, Measurement& measurement) override {
    const OrbSettings settings = orb_settings(options);
    const bool verify = options.option_flag("verify", false);
    std::optional<RoundTripServant> servant;  // collocated only; outlives the ORB
    try {
      OrbSession session(settings);
      check_payload_fits(options);
      measurement.record_middleware_config(orb_config(session));
      std::string ior;
      if (options.role == Role::collocated) {
        servant.emplace(verify, options.payload_bytes);
        ior = session.activate(&*servant);
        session.dispatch();
      } else {
        ior = measurement.read_endpoint();
      }
      // Collocated too goes through the stringified reference: omniORB
      // recognises its own object and binds the reference to the servant.
      Test::RoundTrip_var target = session.resolve(ior);
      first_call(target.in(), options.timeout_s);
      measure_operation(options, measurement, target.in());
    } catch (const CORBA::BAD_PARAM& e) {
      if (verify) fail_with("the servant rejected an octets payload (verify=1)", e);
      fail_with("call failed", e);
    } catch (const CORBA::Exception& e) {
      fail_with("call failed", e);
    }
  }
};

}  // namespace

}  // namespace omniorb_driver

int main(int argc, char** argv) {
  omniorb_driver::OmniorbDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
