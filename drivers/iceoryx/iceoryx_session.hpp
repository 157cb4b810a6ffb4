// What both ends of the iceoryx driver share: the RouDi daemon they need (its
// description for --describe, the check that it runs), the runtime of the
// process, the services of a cell (its endpoint), the wait strategy, and the
// message laid out in a loaned chunk.
//
// One cell is one pair of services, named by the server (or the collocated
// process) after its pid: service "mwbench", instance "<pid>", events "ping"
// and "pong". Two concurrent cells under one RouDi share no service.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/endpoint_field.hpp"
#include "common/payload_pattern.hpp"
#include "common/seconds_text.hpp"
#include "iceoryx_posh/capro/service_description.hpp"
#include "iceoryx_posh/popo/publisher_options.hpp"
#include "iceoryx_posh/popo/subscriber_options.hpp"
#include "iceoryx_posh/popo/untyped_publisher.hpp"
#include "iceoryx_posh/popo/untyped_subscriber.hpp"
#include "iceoryx_posh/popo/user_trigger.hpp"
#include "mwbench/measurement.hpp"

namespace iceoryx {

// How a subscriber waits for its chunk (--option wait=...).
enum class Wait { waitset, spin };
Wait parse_wait(const std::string& value);  // throws mwbench::UsageError
const char* to_string(Wait wait) noexcept;

// RouDi's socket: iceoryx 2.0 has one RouDi per machine, always here.
inline constexpr const char* kRoudiSocket = "/tmp/roudi";

// The "daemon" object of --describe: how the orchestrator starts RouDi with
// roudi_config.toml beside the program, knows it is ready, and what it
// removes before and after (docs/driver-contract-daemons.md, "daemon").
nlohmann::json roudi_daemon();

// Throws "RouDi (iox-roudi) is not running: <why>" unless a process has
// RouDi's socket bound, so that initRuntime never waits for one (it would,
// for 60 s, then abort).
void require_roudi();

// Registers this process with RouDi under "mwbench-iox-<role>-<pid>" (once
// per process: iceoryx allows one runtime). Calls require_roudi() first.
void init_runtime(const std::string& role);

// The services of one cell, as the endpoint file holds them:
// "iox:service=mwbench;instance=4217;ping=ping;pong=pong".
struct Endpoint {
  std::string service = "mwbench";
  std::string instance;
  std::string ping = "ping";
  std::string pong = "pong";

  static Endpoint for_process();                   // instance: this pid
  static Endpoint parse(const std::string& text);  // throws std::runtime_error
  std::string to_string() const;
  std::string ping_name() const;  // "mwbench/4217/ping", for messages
  std::string pong_name() const;
};

using mwbench::common::endpoint_field;  // "k1=v1;k2=v2" -> the value of one key

// Seconds as messages print them (drivers/common).
using mwbench::common::seconds_text;

// The service of one event: (`service`, `instance`, `event`).
iox::capro::ServiceDescription service(const std::string& service, const std::string& instance,
                                       const std::string& event);
// The service of one event of a cell ("mwbench", "<pid>", `event`) or of a
// fan-out ("mwbench", "fanout", `event`): anything with `service` and
// `instance`.
template <class AnyEndpoint>
iox::capro::ServiceDescription service(const AnyEndpoint& endpoint, const std::string& event) {
  return service(endpoint.service, endpoint.instance, event);
}
// Every publisher (ping-pong and fan-out): no history (a late subscriber
// gets nothing old).
iox::popo::PublisherOptions publisher_options();
// Every subscriber but the fan-out publisher's replies: a queue of
// `queue_capacity` chunks, discarding the oldest when full. A closed
// ping-pong has at most one chunk in flight per direction, and its ends a
// queue of one (but for a server, which is not told the load); an open
// loop's ends queue common::kOutstandingPings (ping_queue_depth()). In a
// fan-out (a queue of one) the next event is sent only once every
// subscriber has taken the last, so what it can push out is only a
// handshake probe nobody took.
iox::popo::SubscriberOptions subscriber_options(std::uint64_t queue_capacity = 1);

// The message at the start of every chunk; a ping's payload follows it.
struct Message {
  std::uint64_t seq;
  std::uint64_t stamp;   // the client's CLOCK_MONOTONIC at sending, ns
  std::uint32_t status;  // pong: 1 payload intact or not checked, 0 mismatch
  std::uint32_t payload_bytes;
};
inline constexpr std::uint32_t kIntact = 1;
inline constexpr std::uint32_t kMismatch = 0;

// The largest payload a chunk of roudi_config.toml's largest pool holds,
// leaving room for the chunk header and the Message.
inline constexpr std::uint64_t kMaxPayloadBytes = (16u << 20) - 256;

// The payload pattern of the `octets` ping: byte i is i mod 251 (as in rawtcp).
using mwbench::common::pattern_byte;

// `bytes` bytes of that pattern, written into every payload.
std::vector<std::uint8_t> payload_pattern(std::size_t bytes);

// What the measuring end holds the same way in a ping-pong (Client) and a
// fan-out (Publisher): how it waits, what it reports a failure to, its
// timeout, and the payload it sends with every call.
struct CallSettings {
  CallSettings(Wait wait, std::size_t payload_bytes, double timeout_s,
               mwbench::Measurement& measurement)
      : wait(wait),
        measurement(measurement),
        timeout_s(timeout_s),
        timeout_ns(static_cast<std::int64_t>(timeout_s * 1e9)),
        payload(payload_pattern(payload_bytes)) {}

  const Wait wait;
  mwbench::Measurement& measurement;
  const double timeout_s;
  const std::int64_t timeout_ns;
  const std::vector<std::uint8_t> payload;
};

// How the middleware was configured, for the result header: what a
// ping-pong and a fan-out share (runtime_config), each subscriber's queue
// (subscriber_config), and a ping-pong's whole.
nlohmann::json runtime_config(Wait wait);
nlohmann::json subscriber_config(std::uint64_t queue_capacity);
nlohmann::json middleware_config(const Endpoint& endpoint, Wait wait, std::uint64_t queue_capacity);

// A chunk of `size` bytes loaned from `publisher`; throws naming the error.
void* loan_chunk(iox::popo::UntypedPublisher& publisher, std::uint32_t size,
                 std::uint32_t alignment);

// Attaches `subscriber`'s "has data" state to `waitset` (and `stop`, when
// given, as an event that wakes it); throws naming `what` on failure.
template <class WaitSet>
void attach(WaitSet& waitset, iox::popo::UntypedSubscriber& subscriber, const char* what,
            iox::popo::UserTrigger* stop = nullptr) {
  waitset.attachState(subscriber, iox::popo::SubscriberState::HAS_DATA).or_else([what](auto) {
    throw std::runtime_error(std::string("WaitSet: cannot attach the ") + what);
  });
  if (stop == nullptr) return;
  waitset.attachEvent(*stop).or_else(
      [](auto) { throw std::runtime_error("WaitSet: cannot attach the stop trigger"); });
}

}  // namespace iceoryx
