#include "ccm_calls.hpp"

#include <memory>

#include "mwbench/clock.hpp"
#include "omniorb_calls.hpp"

namespace ccm_driver {

namespace {

constexpr const char* kBadEcho =
    "test_method returned a value other than the send_time it was given";

// Every invocation but the static stub, on `target`: the omniorb driver's.
void measure_invocation(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                        Test::RoundTrip_ptr target, const CallPath& path) {
  omniorb_driver::measure_invocation(path.invocation, options, m, path.orb, target, path.board,
                                     path.delivery, path.handler);
}

}  // namespace

void measure_object_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                          Test::RoundTrip_ptr target, const CallPath& path) {
  if (path.invocation != omniorb_driver::Invocation::static_stub) {
    measure_invocation(options, m, target, path);
  } else if (options.operation != "roundtrip") {
    omniorb_driver::measure_calls(
        options, m, [&](int) { return omniorb_driver::SameTarget(target); }, path.delivery);
  } else {
    // The omniorb driver's roundtrip, with the probe build's client points.
    const omniorb_driver::DeliveryTimer& delivery = path.delivery;
    m.run([&m, target, &delivery] {
      CCM_PROBE(client_call);
      const CORBA::ULongLong sent = mwbench::now_ns();
      CORBA::ULongLong echo = 0;
      delivery([&] { echo = target->test_method(sent); });
      if (echo != sent) m.fail(kBadEcho);
      CCM_PROBE(client_return);
    });
  }
}

void measure_component_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                             CallerExecutor& caller, const CallPath& path) {
  if (path.invocation != omniorb_driver::Invocation::static_stub) {
    const Test::RoundTrip_var peer = caller.peer_reference();
    measure_invocation(options, m, peer.in(), path);
    return;
  }
  const std::string& op = options.operation;
  const auto size = static_cast<CORBA::ULong>(options.payload_bytes);
  const omniorb_driver::DeliveryTimer& delivery = path.delivery;
  if (op == "roundtrip") {
    m.run([&m, &caller, &delivery] {
      CCM_PROBE(client_call);
      const CORBA::ULongLong sent = mwbench::now_ns();
      CORBA::ULongLong echo = 0;
      delivery([&] { echo = caller.roundtrip(sent); });
      if (echo != sent) m.fail(kBadEcho);
      CCM_PROBE(client_return);
    });
  } else if (op == "ping") {
    m.run([&caller, &delivery] { delivery([&] { caller.ping(); }); });
  } else if (op == "octets") {
    const omniorb_driver::OctetsPayload in(size);
    m.run([&caller, &in, &delivery] { delivery([&] { caller.send_octets(in.data); }); });
  } else if (op == "event_value") {
    // Filled once: setting the payload copies it into the event, before the loop.
    const omniorb_driver::OctetsPayload payload(size);
    CcmPerf::ValueEvent_var event = new CcmPerf::ValueEvent_impl;
    event->payload(payload.data);
    CORBA::ULongLong number = 0;
    m.run([&caller, &event, &number, &delivery] {
      event->number(++number);
      delivery([&] { caller.publish(event.in()); });
    });
  } else {  // event_struct
    const omniorb_driver::OctetsPayload payload(size);
    CcmPerf::StructEvent event;
    event.payload = payload.data;
    event.number = 0;
    m.run([&caller, &event, &delivery] {
      ++event.number;
      delivery([&] { caller.publish(event); });
    });
  }
}

}  // namespace ccm_driver
