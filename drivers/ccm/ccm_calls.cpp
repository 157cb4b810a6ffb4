#include "ccm_calls.hpp"

#include <memory>

#include "mwbench/clock.hpp"
#include "omniorb_calls.hpp"

namespace ccm_driver {

namespace {

constexpr const char* kBadEcho =
    "test_method returned a value other than the send_time it was given";

}  // namespace

void measure_object_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                          Test::RoundTrip_ptr target) {
  if (options.operation != "roundtrip") {
    omniorb_driver::measure_calls(options, m,
                                  [&](int) { return omniorb_driver::SameTarget(target); });
    return;
  }
  // The omniorb driver's roundtrip, with the probe build's client points.
  m.run([&m, target] {
    CCM_PROBE(client_call);
    const CORBA::ULongLong sent = mwbench::now_ns();
    if (target->test_method(sent) != sent) m.fail(kBadEcho);
    CCM_PROBE(client_return);
  });
}

void measure_component_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                             CallerExecutor& caller) {
  const std::string& op = options.operation;
  const auto size = static_cast<CORBA::ULong>(options.payload_bytes);
  if (op == "roundtrip") {
    m.run([&m, &caller] {
      CCM_PROBE(client_call);
      const CORBA::ULongLong sent = mwbench::now_ns();
      if (caller.roundtrip(sent) != sent) m.fail(kBadEcho);
      CCM_PROBE(client_return);
    });
  } else if (op == "ping") {
    m.run([&caller] { caller.ping(); });
  } else if (op == "octets") {
    const omniorb_driver::OctetsPayload in(size);
    m.run([&caller, &in] { caller.send_octets(in.data); });
  } else if (op == "event_value") {
    // Filled once: setting the payload copies it into the event, before the loop.
    const omniorb_driver::OctetsPayload payload(size);
    CcmPerf::ValueEvent_var event = new CcmPerf::ValueEvent_impl;
    event->payload(payload.data);
    CORBA::ULongLong number = 0;
    m.run([&caller, &event, &number] {
      event->number(++number);
      caller.publish(event.in());
    });
  } else {  // event_struct
    const omniorb_driver::OctetsPayload payload(size);
    CcmPerf::StructEvent event;
    event.payload = payload.data;
    event.number = 0;
    m.run([&caller, &event] {
      ++event.number;
      caller.publish(event);
    });
  }
}

}  // namespace ccm_driver
