// What both ends of the iceoryx fan-out share (docs/driver-contract-fanout.md):
// the two services, the endpoint a subscriber process publishes,
// the messages in a loaned chunk, and the queue settings that lose nothing.
//
// One publisher offers the event service; every subscriber is an iceoryx
// Subscriber of it, so the publisher publishes each event once and RouDi's
// shared memory delivers that one chunk to all of them (true one-to-many).
// Every subscriber offers a Publisher of the reply service, and the
// publisher's process has one Subscriber of it that receives from all of
// them (iceoryx 2.0 is built n:m, SubscriberPortMultiProducer). Remote, the
// services are "mwbench/fanout/event" and "mwbench/fanout/reply": the
// subscriber processes are started independently and must agree on a name,
// and RouDi runs once per cell, so a fixed name is alone under its RouDi.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "iceoryx_posh/iceoryx_posh_types.hpp"
#include "iceoryx_posh/popo/publisher_options.hpp"
#include "iceoryx_posh/popo/subscriber_options.hpp"
#include "iceoryx_session.hpp"

namespace iceoryx {

// The most subscribers one fan-out can have (the driver's max_subscribers).
// The reply subscriber's queue holds at most MAX_SUBSCRIBER_QUEUE_CAPACITY
// (256) chunks, a compile-time limit of Debian's 2.0.3, and it discards the
// oldest when full. When the handshake ends, a slow subscriber may still
// answer two probes (the one it holds and one in its queue), so the queue
// must hold each subscriber's reply to the first event and two late hellos:
// three chunks a subscriber, 85 at most; 64, as the other drivers. (With 256,
// under load, late hellos pushed replies out and the fan-out failed.) The
// event publisher could serve 256 (MAX_SUBSCRIBERS_PER_PUBLISHER).
// The RouDi-wide ones are further: 512 publishers (N reply publishers and one
// event publisher), 1024 subscribers, 1024 condition variables (a WaitSet
// each), 300 processes. roudi_config.toml has room too: one event chunk is in
// flight (every subscriber releases it before it replies) and N replies of
// 128 bytes, against 1000 chunks of that size.
inline constexpr int kMaxSubscribers = 64;
inline constexpr std::uint64_t kReplyQueueCapacity = iox::MAX_SUBSCRIBER_QUEUE_CAPACITY;
static_assert(kReplyQueueCapacity >= 3 * static_cast<std::uint64_t>(kMaxSubscribers),
              "the reply queue must hold a reply and two late hellos of every subscriber");
static_assert(kMaxSubscribers <= static_cast<int>(iox::MAX_SUBSCRIBERS_PER_PUBLISHER));

// The services of a fan-out and the subscribers one process hosts, as its
// endpoint file holds them:
// "iox:service=mwbench;instance=fanout;event=event;reply=reply;subscribers=0-3".
struct FanoutEndpoint {
  std::string service = "mwbench";
  std::string instance = "fanout";
  std::string event = "event";
  std::string reply = "reply";
  int first = 0;  // the process's subscribers are first .. first + count - 1
  int count = 1;

  static FanoutEndpoint parse(const std::string& text);  // throws std::runtime_error
  std::string to_string() const;
  std::string event_name() const;  // "mwbench/fanout/event", for messages
  std::string reply_name() const;
  bool same_services(const FanoutEndpoint& other) const noexcept;
};

// A fan-out client's endpoints, one per subscriber process in the order of
// --endpoint-file: the services they share. Throws std::runtime_error unless
// they name the same services and their subscribers are 0 .. subscribers - 1,
// each once, in order.
FanoutEndpoint merge_endpoints(const std::vector<std::string>& texts, int subscribers);

// What the publisher sends: a handshake probe or an event; an event's
// payload follows it in the chunk.
struct FanoutEvent {
  std::uint64_t number;  // events 1, 2, ...; probes 1, 2, ... of their own
  std::uint32_t kind;
  std::uint32_t payload_bytes;
};
inline constexpr std::uint32_t kProbe = 1;
inline constexpr std::uint32_t kEvent = 2;

// What a subscriber answers: to a probe a hello, to an event a reply.
struct FanoutReply {
  std::uint64_t event;  // the event's number (a hello: the probe's)
  std::uint32_t subscriber;
  std::uint32_t kind;
};
inline constexpr std::uint32_t kHello = 1;
inline constexpr std::uint32_t kReply = 2;          // payload intact or not checked
inline constexpr std::uint32_t kBrokenPayload = 3;  // verify=1 found a wrong payload

// The publisher's reply queue: as subscriber_options(), but
// kReplyQueueCapacity chunks, room for one reply of each subscriber (and
// stale hellos are older, so discarded first).
iox::popo::SubscriberOptions reply_subscriber_options();

// How the fan-out was configured, for the result header.
nlohmann::json fanout_config(const FanoutEndpoint& endpoint, Wait wait);

}  // namespace iceoryx
