// The contract arguments of one driver process, parsed and validated.
//
// run_driver() fills a DriverOptions from the command line (docs/driver-contract.md
// section 2) and checks it against the driver's Description before any driver
// code runs, so a driver can trust every field it reads here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mwbench/load.hpp"

namespace mwbench {

enum class Role { server, client, collocated };

// The one operation whose name the contract gives a meaning: one publisher,
// --subscribers subscribers that each reply to every event (section 5).
inline constexpr const char* kFanoutOperation = "fanout";

// "server", "client" or "collocated", as on the command line.
const char* to_string(Role role) noexcept;

// A bad argument or an unsupported combination: run_driver() prints the message
// and exits with status 2. Drivers throw it for bad values of their own options.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DriverOptions {
  Role role = Role::client;
  std::string mode;  // "remote" (server, client) or "collocated"
  std::string operation;
  std::string transport;
  std::uint64_t payload_bytes = 0;
  std::uint64_t samples = 10000;
  std::uint64_t warmup = 1000;
  std::optional<std::uint64_t> batch = 1;  // calls per sample; nullopt = auto
  std::string endpoint_file;               // empty for collocated; a fan-out client's first
  std::string output;                      // empty: write no result file
  std::optional<int> cpu;                  // nullopt: unpinned
  int priority = 0;                        // 0: default policy, else SCHED_FIFO 1-99
  int threads = 1;                         // client threads (client, collocated)
  int servants = 1;
  std::optional<std::uint64_t> memory_limit_mb;  // RLIMIT_AS in MiB; nullopt: no cap
  std::map<std::string, std::string> options;    // every --option KEY=VALUE
  double timeout_s = 10.0;
  // --bind: the IPv4 address (a literal, checked) on which every socket this
  // process listens or receives is bound, and which a server's endpoint
  // carries, so that a client on another host can reach it. Loopback by
  // default: nothing listens beyond the machine unless the caller says so.
  std::string bind_address = "127.0.0.1";
  // --load: closed (each call waits for the previous reply) or an open loop
  // on a schedule (Measurement::run_open()); --load-seed: the Poisson
  // schedule's seed, nullopt when not given (the harness draws one).
  Load load;
  std::optional<std::uint64_t> load_seed;

  // Operation "fanout" only (docs/driver-contract-fanout.md). A client or
  // collocated process: subscribers in the whole fan-out; a server (a
  // subscriber process): subscribers it hosts, numbered first_subscriber on.
  int subscribers = 1;
  int first_subscriber = 0;
  // A fan-out client: one endpoint file per subscriber process, in order
  // (endpoint_file is the first). Any other client or server: endpoint_file alone.
  std::vector<std::string> endpoint_files;

  // The value of --option `key`, or `fallback` when it was not given.
  std::string option(const std::string& key, const std::string& fallback) const;
  // A 0/1 option; throws UsageError naming the key for any other value.
  bool option_flag(const std::string& key, bool fallback) const;

  // "<what>: out of memory (--memory-limit-mb N)", or without the parenthesis
  // when no limit was given: the one message for an allocation that failed.
  std::string out_of_memory(const std::string& what) const;
};

}  // namespace mwbench
