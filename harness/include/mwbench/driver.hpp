// The interface a C++ driver implements, and the main() that runs it.
//
// A driver describes itself (operations, modes, transports, options), serves
// calls when it is the server, and makes calls when it is the client. The
// harness does the rest of docs/driver-contract.md: argument parsing and
// validation, --describe, CPU pinning and SCHED_FIFO, signals, fault injection,
// the endpoint file and the result file. A driver's main() is one line:
//
//   int main(int argc, char** argv) { MyDriver d; return mwbench::run_driver(argc, argv, d); }
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"

namespace mwbench {

struct Description {
  Description() = default;
  // The three fields every driver names first; the rest it fills in after.
  Description(std::string driver_name, std::string middleware_name, std::string version)
      : driver(std::move(driver_name)),
        middleware(std::move(middleware_name)),
        middleware_version(std::move(version)) {}

  std::string driver;  // the <name> of mwbench-driver-<name>
  std::string middleware;
  std::string middleware_version;
  std::map<std::string, bool> operations;                 // name -> carries a payload
  std::map<std::string, std::vector<std::string>> modes;  // "remote"/"collocated" -> transports
  std::map<std::string, std::string> options;             // allowed --option keys -> one-line help
  // For an option (of `options`) that takes only some values: option -> the
  // values it accepts. The harness refuses any other (exit 2, naming them),
  // and the orchestrator skips a cell that sets another, with the reason. An
  // option not listed takes any value its driver checks itself.
  std::map<std::string, std::vector<std::string>> option_values;
  // Bounds of --threads and --servants; nullopt: no bound. A driver whose
  // measure() calls Measurement::run() (one thread) sets max_threads = 1.
  std::optional<int> max_threads;
  std::optional<int> max_servants;
  // Bound of --subscribers for the operation "fanout"; nullopt: no bound.
  std::optional<int> max_subscribers;
  // A daemon the middleware needs running on the machine, which the
  // orchestrator starts and stops around each cell (docs/driver-contract-daemons.md,
  // "daemon"); null for none.
  nlohmann::json daemon;
  // The transports (of `modes`) that cannot cross hosts: Unix sockets, ipc,
  // shared memory. Whatever --bind says, their two ends share one machine.
  std::vector<std::string> host_local;
  // For an option whose values each work over some transports only: option
  // -> value -> the transports (of `modes`) it works over. A value not
  // listed works over every transport. The orchestrator skips the rest.
  std::map<std::string, std::map<std::string, std::vector<std::string>>> option_transports;
  // The operations (of `operations`) whose figure is one way: timed by one
  // process from a time another took, so that across hosts it would need their
  // clocks synchronised. The orchestrator refuses them across hosts.
  std::vector<std::string> one_way;
  // The operations (of `operations`) the driver runs under an open-loop
  // --load (Measurement::run_open()). Empty: closed loop only; the harness
  // refuses an open --load for any other operation.
  std::vector<std::string> open_loop;
  // Options whose values make the driver time one-way figures from two
  // processes' clocks (a delivery time: the client's send to the servant's
  // entry): option -> those values. The orchestrator refuses such a cell
  // across hosts, as it refuses the `one_way` operations.
  std::map<std::string, std::vector<std::string>> one_way_options;
  // The deployment nodes the orchestrator may start on other hosts for the
  // process that deploys (docs/driver-contract-daemons.md, "nodes"): the node
  // program's argument list, and the option that passes the node map; null
  // for none.
  nlohmann::json nodes;

  // The --describe object: "contract" and the fields above, option_values,
  // max_threads, max_servants, max_subscribers, daemon, host_local, nodes,
  // open_loop and one_way_options only when set.
  nlohmann::json to_json() const;
};

// What a server sees of the harness while it serves.
class ServerContext {
 public:
  explicit ServerContext(const DriverOptions& options);

  // Writes `endpoint` as one line to --endpoint-file through a temporary file
  // and a rename. Call it once the server accepts calls. With --option
  // fault=crash it aborts right after; with fault=hang it never returns.
  void publish_endpoint(const std::string& endpoint);

  // Registers what stops the serving loop (shut a socket down, shut an ORB
  // down). It runs once, on the harness's signal thread, when SIGTERM or
  // SIGINT arrives, or at once if one already has; serve() should then return.
  // It runs under a lock and must not call on_stop() itself. on_stop(nullptr)
  // unregisters it, waiting for it to finish if it is running: do that (or
  // let the harness do it when serve() returns normally) before the objects the
  // callback uses are destroyed. ScopedStopCallback below does it for you.
  void on_stop(std::function<void()> callback);

  bool stop_requested() const noexcept { return stop_.load(); }

  // Called by the harness on a signal; runs the stop callback once.
  void request_stop();

  // As Measurement::record_middleware_config(): how the middleware was
  // configured, written to the server's result header.
  void record_middleware_config(nlohmann::json config) { config_ = std::move(config); }
  const nlohmann::json& middleware_config() const noexcept { return config_; }

  // Fan-out: the events each subscriber of this process received (index 0 is
  // subscriber --first-subscriber), for the result header. Call it after
  // serving; the orchestrator checks every count against the events published.
  void record_events_received(std::vector<std::uint64_t> per_subscriber) {
    received_ = std::move(per_subscriber);
  }
  const std::vector<std::uint64_t>& events_received() const noexcept { return received_; }

 private:
  const DriverOptions& options_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;  // guards callback_; held while it runs
  std::function<void()> callback_;
  bool callback_ran_ = false;
  nlohmann::json config_;  // null until recorded
  std::vector<std::uint64_t> received_;
};

// Registers a stop callback for its own lifetime. Declared in serve() after
// the objects the callback uses, it unregisters before they are destroyed,
// however serve() ends (return or exception).
class ScopedStopCallback {
 public:
  ScopedStopCallback(ServerContext& context, std::function<void()> callback) : context_(context) {
    context_.on_stop(std::move(callback));
  }
  ~ScopedStopCallback() { context_.on_stop(nullptr); }
  ScopedStopCallback(const ScopedStopCallback&) = delete;
  ScopedStopCallback& operator=(const ScopedStopCallback&) = delete;

 private:
  ServerContext& context_;
};

class Driver {
 public:
  virtual ~Driver() = default;

  // Must not depend on arguments: --describe calls it without any.
  virtual Description describe() const = 0;

  // Role server: set up, publish the endpoint, serve until the stop callback
  // fires, then return. Throw (UsageError for bad option values) to fail.
  virtual void serve(const DriverOptions& options, ServerContext& context) = 0;

  // Role client or collocated: set up, then call measurement.run() (one
  // thread) or measurement.run_threads() (--threads N) once.
  virtual void measure(const DriverOptions& options, Measurement& measurement) = 0;
};

// Parses the contract arguments, validates them against driver.describe(),
// runs the driver in its role and writes the result file. Returns the exit
// status: 0 success, 2 bad arguments, 1 any other failure (errors go to stderr
// as one line starting with "mwbench-driver-<name>: error:").
int run_driver(int argc, char** argv, Driver& driver);

}  // namespace mwbench
