// The endpoints of the DDS drivers (cyclonedds, fastdds): what a server or a
// fan-out subscriber process publishes in its endpoint file, and what its
// peers read from it. The same text for every DDS vendor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mwbench::common {

// The domain of a fan-out. Below 101, as the cells' own domains
// (DdsEndpoint::for_process); shared with the roundtrip cells whose pid falls
// on it, which use other topics.
inline constexpr std::uint32_t kFanoutDomain = 100;

// The domain id, the topic names and the server's address of one cell:
// "dds:domain=17;ping=mwbench_ping_4242;pong=mwbench_pong_4242;address=127.0.0.1".
struct DdsEndpoint {
  std::uint32_t domain = 0;
  std::string ping_topic;
  std::string pong_topic;
  std::string address;

  // From this process's pid (domain 1..100, topics named after it);
  // `address` is its --bind.
  static DdsEndpoint for_process(const std::string& address);
  static DdsEndpoint parse(const std::string& text);  // throws std::runtime_error
  std::string to_string() const;
};

// Every subscriber process of a fan-out cell must meet the publisher in one
// domain, and the processes share no argument from which they could all
// derive the same per-cell number. So every fan-out runs in one domain,
// kFanoutDomain, on two fixed topics, and each subscriber process writes and
// reads in a partition of its own, mwbench_fanout_<pid>. The publisher's
// publisher and subscriber entities list the partitions of all its
// subscriber processes (DDS matches when any partition matches): another
// cell's readers and writers, in other partitions, never match. The endpoint
// carries the subscriber process's address (--bind), which the publisher
// names as a peer.
//
// One fan-out subscriber process's endpoint:
// "dds:domain=100;partition=mwbench_fanout_4242;event=mwbench_fanout_event;reply=mwbench_fanout_reply;address=127.0.0.1".
struct FanoutEndpoint {
  static constexpr const char* kEventTopic = "mwbench_fanout_event";
  static constexpr const char* kReplyTopic = "mwbench_fanout_reply";

  std::uint32_t domain = kFanoutDomain;
  std::string partition;
  std::string event_topic;
  std::string reply_topic;
  std::string address;

  // From this process's pid; `address` is its --bind. Read back by
  // read_fanout_peers().
  static FanoutEndpoint for_process(const std::string& address);
  std::string to_string() const;
};

// The fan-out's subscriber processes, as their endpoints name them: one
// domain, a partition and an address each.
struct FanoutPeers {
  std::uint32_t domain = 0;
  std::vector<std::string> partitions;
  std::vector<std::string> addresses;
};

// Reads the endpoints of the subscriber processes (FanoutEndpoint texts);
// throws std::runtime_error when they are in different domains.
FanoutPeers read_fanout_peers(const std::vector<std::string>& endpoints);

}  // namespace mwbench::common
