// What runs where in a DDS driver (docs/driver-contract.md: the roles), the
// same for every vendor: a server's echo, the client's measured loop, a
// fan-out's subscriber process, its publisher and the subscribers beside it.
// A vendor's driver main (cyclonedds_driver.cpp, fastdds_driver.cpp) makes
// the participants and the skeleton's objects (dds_ping_client.hpp,
// dds_ping_echo.hpp, dds_event_publisher.hpp, dds_event_subscribers.hpp) and
// hands them to these.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dds_endpoint.hpp"
#include "common/echo_thread.hpp"
#include "common/wait_strategy.hpp"
#include "mwbench/driver.hpp"
#include "mwbench/measurement.hpp"

namespace mwbench::common {

// What every DDS driver's describe() says: the operations roundtrip, octets
// and fanout (the first two also under an open --load), one thread and one servant, --option wait=
// (`wait_help`, in the vendor's words) and verify=, and at most 64 subscribers: one reader and one
// writer each, and in a fan-out of one process per subscriber N + 1 participants in kFanoutDomain,
// within the participant indices the vendor's configuration reaches (0-99), with room for another
// cell beside it. The vendor adds its modes and its own options.
Description dds_description(const std::string& driver, const std::string& middleware,
                            const std::string& version, const std::string& wait_help);

// A server: publishes `endpoint`, answers until SIGTERM; throws the echo's
// failure.
template <class Echo>
void serve_echo(Echo& echo, ServerContext& context, const std::string& endpoint) {
  const ScopedStopCallback stop(context, [&echo] { echo.stop(); });
  context.publish_endpoint(endpoint);
  echo.serve();
  if (const std::string failure = echo.failure(); !failure.empty()) {
    throw std::runtime_error(failure);
  }
}

// A collocated cell: `echo` answers on a thread of its own (or in its
// listener) while `measure` runs.
template <class Echo, class Measure>
void beside_echo(Echo& echo, Wait wait, Measure measure) {
  EchoThread serving(echo, /*own_thread=*/!answers_in_listener(wait));
  measure();
  serving.join();
}

// The client's measured loop: connect, then one call per sample, or with
// wait=chain the chain on the middleware's thread, or under an open --load
// the pings on the harness's schedule.
template <class Client>
void measure_roundtrips(Client& client, Wait wait, Measurement& m) {
  client.connect();
  if (m.open_loop()) {
    client.run_open();
  } else if (wait == Wait::chain) {
    client.run_chained();
  } else {
    m.run([&client] { client.call(); });
  }
}

// A subscriber process: publishes `endpoint`, its subscribers answer until
// SIGTERM, then it records what each received.
template <class Subscribers>
void serve_subscribers(Subscribers& subscribers, ServerContext& context,
                       const std::string& endpoint) {
  const ScopedStopCallback stop(context, [&subscribers] { subscribers.stop(); });
  subscribers.start();
  context.publish_endpoint(endpoint);
  subscribers.serve();
  subscribers.join();
  context.record_events_received(subscribers.received());
}

// A collocated fan-out: the subscribers answer while `measure` publishes.
template <class Subscribers, class Measure>
void beside_subscribers(Subscribers& subscribers, Measurement& m, Measure measure) {
  subscribers.start();
  measure();
  subscribers.join();
  m.record_events_received(subscribers.received());
}

// The publisher's measured loop: the handshake, then one event per sample.
template <class Publisher>
void measure_events(Publisher& publisher, Measurement& m) {
  publisher.connect();
  // Recorded however run() ends: a failed run writes no file anyway.
  m.run([&publisher] { publisher.call(); });
  m.record_events_published(publisher.published());
}

}  // namespace mwbench::common
