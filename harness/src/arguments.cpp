// Command line of a driver (docs/driver-contract.md section 2). CLI11 splits
// and converts; the checks against the driver's Description are ours, so that
// every message has the same shape: "--argument value: what is wrong (allowed: ...)".
#include "arguments.hpp"

#include <arpa/inet.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <climits>

namespace mwbench::detail {

namespace {

template <class Range>
std::string join(const Range& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    if constexpr (requires { item.first; }) {
      out += item.first;
    } else {
      out += item;
    }
  }
  return out.empty() ? "none" : out;
}

[[noreturn]] void bad(const std::string& message) { throw UsageError(message); }

// The files a driver writes are renamed into place (PATH.tmp, then rename), which
// replaces whatever the name held: a device such as /dev/null, run as root, would
// become a regular file. So an existing path must be a regular file.
void check_writable_path(const std::string& argument, const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    bad(argument + " " + path + ": not a regular file; the driver writes PATH.tmp and renames " +
        "it to PATH, which would replace it");
  }
}

// What this process writes: a server its endpoint, any role its result.
void check_written_files(const DriverOptions& o) {
  if (o.role == Role::server && !o.endpoint_files.empty()) {
    check_writable_path("--endpoint-file", o.endpoint_files.front());
  }
  if (!o.output.empty()) check_writable_path("--output", o.output);
}

void check_role_and_cell(DriverOptions& o, const std::string& role, const Description& d) {
  if (role == "server") {
    o.role = Role::server;
  } else if (role == "client") {
    o.role = Role::client;
  } else if (role == "collocated") {
    o.role = Role::collocated;
  } else {
    bad(role.empty() ? "--role is required (allowed: server, client, collocated)"
                     : "--role " + role + ": unknown role (allowed: server, client, collocated)");
  }
  o.mode = o.role == Role::collocated ? "collocated" : "remote";
  const auto mode = d.modes.find(o.mode);
  if (mode == d.modes.end()) {
    bad("--role " + role + ": mode '" + o.mode + "' is not supported by " + d.driver +
        " (supported modes: " + join(d.modes) + ")");
  }

  const auto op = d.operations.find(o.operation);
  if (op == d.operations.end()) {
    bad((o.operation.empty() ? std::string("--operation is required")
                             : "--operation " + o.operation + ": unknown to " + d.driver) +
        " (allowed: " + join(d.operations) + ")");
  }
  if (!op->second && o.payload_bytes != 0) {
    bad("--payload-bytes " + std::to_string(o.payload_bytes) + ": operation '" + o.operation +
        "' carries no payload (allowed: 0)");
  }

  const auto& transports = mode->second;
  if (std::find(transports.begin(), transports.end(), o.transport) == transports.end()) {
    bad((o.transport.empty() ? std::string("--transport is required")
                             : "--transport " + o.transport + ": not supported in mode " + o.mode) +
        " (allowed: " + join(transports) + ")");
  }
}

// An option's value is at most a path long, on one line: every message that
// names a bad value quotes it, and a message is one bounded line.
constexpr std::size_t kMaxOptionValue = PATH_MAX;

// Text from the command line, cut short for a message.
std::string shortened(const std::string& text) {
  return text.size() > 64 ? text.substr(0, 64) + "..." : text;
}

void check_options(DriverOptions& o, const std::vector<std::string>& pairs, const Description& d) {
  for (const auto& pair : pairs) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      bad("--option " + shortened(pair) + ": expected KEY=VALUE");
    const std::string key = shortened(pair.substr(0, eq));
    const std::string value = pair.substr(eq + 1);
    if (value.size() > kMaxOptionValue) {
      bad("--option " + key + ": a value of " + std::to_string(value.size()) + " bytes (at most " +
          std::to_string(kMaxOptionValue) + ")");
    }
    if (std::any_of(value.begin(), value.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
      bad("--option " + key + ": a value holds a control character (a newline, a tab...)");
    }
    if (key == "fault") {
      if (value != "exit" && value != "crash" && value != "hang") {
        bad("--option fault=" + value + ": unknown fault (allowed: exit, crash, hang)");
      }
    } else if (!d.options.contains(key)) {
      bad("--option " + key + ": unknown key for " + d.driver + " (allowed: " + join(d.options) +
          (d.options.empty() ? "" : ", ") + "fault)");
    } else if (const auto accepted = d.option_values.find(key);
               accepted != d.option_values.end() &&
               std::find(accepted->second.begin(), accepted->second.end(), value) ==
                   accepted->second.end()) {
      bad("--option " + key + "=" + shortened(value) + ": not a value " + d.driver +
          " accepts (allowed: " + join(accepted->second) + ")");
    }
    o.options[key] = value;
  }
}

// --threads and --servants: at least 1, at most what the driver declares.
void check_bound(const char* argument, int value, const std::optional<int>& max, const char* key,
                 const std::string& driver) {
  const std::string given = std::string(argument) + " " + std::to_string(value);
  if (value < 1) bad(given + ": must be at least 1");
  if (max && value > *max) {
    bad(given + ": " + driver + " supports at most " + std::to_string(*max) + " (" + key +
        " in --describe)");
  }
}

void check_counts(DriverOptions& o, const std::string& batch) {
  if (batch == "auto") {
    o.batch = std::nullopt;
  } else {
    std::uint64_t n = 0;
    const auto r = std::from_chars(batch.data(), batch.data() + batch.size(), n);
    if (r.ec != std::errc() || r.ptr != batch.data() + batch.size() || n == 0) {
      bad("--batch " + batch + ": expected a positive integer or 'auto'");
    }
    o.batch = n;
  }
  if (o.role != Role::server && o.samples == 0) bad("--samples 0: at least 1 sample is needed");
  if (o.role != Role::collocated && o.endpoint_files.empty()) {
    bad("--endpoint-file is required for --role " + std::string(to_string(o.role)));
  }
  if (o.role == Role::collocated && !o.endpoint_files.empty()) {
    bad("--endpoint-file: a collocated process has no server to find");
  }
  if (o.memory_limit_mb && *o.memory_limit_mb == 0) {
    bad("--memory-limit-mb 0: must be a positive number of MiB");
  }
  if (o.priority < 0 || o.priority > 99) {
    bad("--priority " + std::to_string(o.priority) + ": must be 1-99, or 0 for the default policy");
  }
  if (!(o.timeout_s > 0)) bad("--timeout " + std::to_string(o.timeout_s) + ": must be positive");
}

// --bind takes an IPv4 address literal only: a name would need a resolver the
// drivers do not share, and an endpoint must carry the very address bound. The
// wildcard is refused: an endpoint carrying it reaches no one, and nothing a
// driver opens may listen on every interface.
void check_bind_address(const std::string& address) {
  const std::string given = "--bind " + (address.empty() ? std::string("''") : address);
  in_addr parsed{};
  if (inet_pton(AF_INET, address.c_str(), &parsed) != 1) {
    bad(given + ": not an IPv4 address (allowed: a dotted-quad literal such as 127.0.0.1)");
  }
  if (parsed.s_addr == htonl(INADDR_ANY)) {
    bad(given + ": the wildcard address (allowed: one address of this host, such as 127.0.0.1)");
  }
}

// The operation "fanout" takes --subscribers, --first-subscriber and, for a
// client, one --endpoint-file per subscriber process; no other operation does.
void check_fanout(DriverOptions& o, const Description& d) {
  const bool fanout = o.operation == kFanoutOperation;
  const std::string subscribers = "--subscribers " + std::to_string(o.subscribers);
  if (!fanout) {
    if (o.subscribers != 1) bad(subscribers + ": only the operation 'fanout' has subscribers");
    if (o.first_subscriber != 0) bad("--first-subscriber: only the operation 'fanout' takes it");
    if (o.endpoint_files.size() > 1) {
      bad("--endpoint-file given " + std::to_string(o.endpoint_files.size()) +
          " times: only a fan-out client reads several");
    }
    return;
  }
  check_bound("--subscribers", o.subscribers, d.max_subscribers, "max_subscribers", d.driver);
  if (o.first_subscriber < 0) {
    bad("--first-subscriber " + std::to_string(o.first_subscriber) + ": must be at least 0");
  }
  if (o.role != Role::server && o.first_subscriber != 0) {
    bad("--first-subscriber: only a subscriber process (--role server) takes it");
  }
  if (o.role == Role::server && o.endpoint_files.size() > 1) {
    bad("--endpoint-file given " + std::to_string(o.endpoint_files.size()) +
        " times: a subscriber process publishes one endpoint");
  }
  if (o.role == Role::client && o.endpoint_files.size() > static_cast<std::size_t>(o.subscribers)) {
    bad("--endpoint-file given " + std::to_string(o.endpoint_files.size()) + " times: more " +
        "subscriber processes than " + subscribers);
  }
}

// --load and --load-seed: a client's or a collocated process's. An open load
// runs one call per sample on one thread (Measurement::run_open()), and only
// an operation the driver lists in `open_loop`.
void check_load(DriverOptions& o, const std::string& load, bool load_given, bool seed_given,
                const Description& d) {
  if (o.role == Role::server && (load_given || seed_given)) {
    bad(std::string(load_given ? "--load " + shortened(load) : "--load-seed") +
        ": a server sends no load; only a client or a collocated process takes it");
  }
  o.load = parse_load(load);
  if (!o.load.open()) return;
  const std::string given = "--load " + to_string(o.load);
  if (o.threads != 1) {
    bad(given + ": an open loop sends from one thread (--threads 1, not " +
        std::to_string(o.threads) + ")");
  }
  if (!o.batch) o.batch = 1;  // auto: an open loop times each call on its own
  if (*o.batch != 1) {
    bad(given + ": an open loop times each call on its own (--batch 1 or auto, not " +
        std::to_string(*o.batch) + ")");
  }
  if (std::find(d.open_loop.begin(), d.open_loop.end(), o.operation) == d.open_loop.end()) {
    bad(given + ": " + d.driver + " has no open-loop load for operation " + o.operation +
        " (open_loop: " + join(d.open_loop) + ")");
  }
}

// --load-seed: digits only (CLI11 would read "-1" as 2^64 - 1).
std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t seed = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) {
    bad("--load-seed " + shortened(text) + ": expected an integer from 0 to 2^64 - 1");
  }
  return seed;
}

}  // namespace

Arguments parse_arguments(int argc, const char* const* argv, const Description& d) {
  Arguments a;
  DriverOptions& o = a.options;
  std::string role, batch = "1", load = "closed";
  std::vector<std::string> pairs;
  int cpu = -1;
  std::uint64_t memory_mb = 0;
  std::string load_seed;

  CLI::App app{d.middleware + " driver of mwbench; arguments as in docs/driver-contract.md",
               "mwbench-driver-" + d.driver};
  app.add_flag("--describe", a.describe, "Print the driver's description as JSON and exit");
  app.add_option("--role", role, "server, client or collocated");
  app.add_option("--operation", o.operation, "Operation to measure (see --describe)");
  app.add_option("--transport", o.transport, "Transport of the mode (see --describe)");
  app.add_option("--payload-bytes", o.payload_bytes, "Payload size (0 if the operation has none)");
  app.add_option("--samples", o.samples, "Samples to keep")->capture_default_str();
  app.add_option("--warmup", o.warmup, "Calls made and discarded first")->capture_default_str();
  app.add_option("--batch", batch, "Calls per sample, or auto")->capture_default_str();
  app.add_option("--endpoint-file", o.endpoint_files,
                 "Where the server publishes its endpoint; a fan-out client: one per "
                 "subscriber process")
      ->allow_extra_args(false);
  app.add_option("--output", o.output, "Result file to write");
  auto* cpu_opt = app.add_option("--cpu", cpu, "Pin the process's threads to this CPU");
  app.add_option("--priority", o.priority, "SCHED_FIFO priority 1-99 (0: default policy)");
  app.add_option("--threads", o.threads, "Client threads, each calling in a closed loop")
      ->capture_default_str();
  app.add_option("--servants", o.servants, "Servants registered in the server")
      ->capture_default_str();
  auto* memory_opt = app.add_option("--memory-limit-mb", memory_mb,
                                    "Cap the address space (RLIMIT_AS) at this many MiB");
  app.add_option("--option", pairs, "Driver setting KEY=VALUE; may repeat")->take_all();
  app.add_option("--timeout", o.timeout_s, "Seconds the client waits for the server")
      ->capture_default_str();
  app.add_option("--subscribers", o.subscribers,
                 "fanout: subscribers in the fan-out (client) or in this process (server)")
      ->capture_default_str();
  app.add_option("--first-subscriber", o.first_subscriber,
                 "fanout, server: the number of this process's first subscriber")
      ->capture_default_str();
  app.add_option("--bind", o.bind_address,
                 "IPv4 address every socket of this process listens on; a server's endpoint "
                 "carries it")
      ->capture_default_str();
  auto* load_opt = app.add_option("--load", load,
                                  "closed, constant:RATE or poisson:RATE (calls per second): "
                                  "an open loop sends on a schedule, whatever the replies do")
                       ->capture_default_str();
  auto* seed_opt =
      app.add_option("--load-seed", load_seed, "Seed of the poisson schedule (default: drawn)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    a.help = true;
    a.help_text = app.help();
    return a;
  } catch (const CLI::ParseError& e) {
    bad(e.what());
  }
  if (a.describe) return a;

  if (cpu_opt->count() > 0) o.cpu = cpu;
  if (memory_opt->count() > 0) o.memory_limit_mb = memory_mb;
  if (!o.endpoint_files.empty()) o.endpoint_file = o.endpoint_files.front();
  check_role_and_cell(o, role, d);
  check_options(o, pairs, d);
  check_counts(o, batch);
  check_bound("--threads", o.threads, d.max_threads, "max_threads", d.driver);
  check_bound("--servants", o.servants, d.max_servants, "max_servants", d.driver);
  check_fanout(o, d);
  check_load(o, load, load_opt->count() > 0, seed_opt->count() > 0, d);
  if (seed_opt->count() > 0) o.load_seed = parse_seed(load_seed);
  check_bind_address(o.bind_address);
  check_written_files(o);
  return a;
}

}  // namespace mwbench::detail
