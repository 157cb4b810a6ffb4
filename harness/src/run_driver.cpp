// run_driver(): the main() of every C++ driver. Reads like the contract:
// parse, place the thread, run the role, write the result file.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <deque>
#include <iostream>
#include <new>
#include <optional>
#include <vector>

#include "arguments.hpp"
#include "memory_limit.hpp"
#include "mwbench/driver.hpp"
#include "mwbench/placement.hpp"
#include "mwbench/result_file.hpp"
#include "signals.hpp"

namespace mwbench {

namespace {

// What the result header needs beyond the arguments.
struct RunRecord {
  std::uint64_t warmup = 0;
  std::uint64_t batch_size = 1;
  std::uint64_t sample_count = 0;
  std::uint64_t measured_wall_ns = 0;
  const detail::LoopProbe* probe = nullptr;
  const nlohmann::json* middleware_config = nullptr;            // written only when recorded
  std::uint64_t injected_delay_ns = 0;                          // written only when not 0
  std::span<const Measurement::Series> series;                  // written only with several
  std::uint64_t events_published = 0;                           // fanout, client or collocated
  const std::vector<std::uint64_t>* events_received = nullptr;  // fanout, server or collocated
  const std::deque<NamedSeries>* named = nullptr;               // written only when declared
  bool reported = false;  // the samples were timed by the application (run_reported)
  const OpenLoopSummary* load = nullptr;  // an open loop's; written only then
};

// The header's "fanout" object (docs/driver-contract-fanout.md).
nlohmann::json fanout_header(const DriverOptions& o, const RunRecord& r) {
  nlohmann::json fanout = {{"subscribers", o.subscribers}};
  if (o.role == Role::server) {
    fanout["first_subscriber"] = o.first_subscriber;
  } else {
    // 0: the subscribers live in the publisher's own process.
    fanout["subscriber_processes"] = o.endpoint_files.size();
    fanout["events_published"] = r.events_published;
  }
  if (o.role != Role::client) {
    fanout["events_received"] =
        r.events_received ? *r.events_received : std::vector<std::uint64_t>{};
  }
  return fanout;
}

nlohmann::json make_header(const Description& d, const DriverOptions& o, const ClockInfo& clock,
                           const RunRecord& r) {
  const SchedulingInfo sched = current_scheduling();
  const detail::ResourceUsage u = r.probe->usage();
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [key, value] : o.options) options[key] = value;
  nlohmann::json header = {
      {"contract", kContractVersion},
      {"driver", d.driver},
      {"middleware", d.middleware},
      {"middleware_version", d.middleware_version},
      {"role", to_string(o.role)},
      {"operation", o.operation},
      {"transport", o.transport},
      {"payload_bytes", o.payload_bytes},
      {"threads", o.threads},
      {"servants", o.servants},
      {"options", options},
      {"warmup", r.warmup},
      {"batch_size", r.batch_size},
      {"sample_count", r.sample_count},
      {"sample_unit", "ns"},
      {"measured_wall_ns", r.measured_wall_ns},
      {"clock", clock.to_json()},
      {"process",
       {{"pid", static_cast<long>(getpid())},
        {"cpu_requested", o.cpu ? nlohmann::json(*o.cpu) : nlohmann::json(nullptr)},
        {"cpu_first", r.probe->cpu_first()},
        {"cpu_last", r.probe->cpu_last()},
        {"policy", sched.policy},
        {"priority", sched.priority}}},
      {"rusage",
       {{"voluntary_switches", u.voluntary_switches},
        {"involuntary_switches", u.involuntary_switches},
        {"user_us", u.user_us},
        {"system_us", u.system_us},
        {"max_rss_kb", u.max_rss_kb}}},
  };
  if (r.middleware_config != nullptr && !r.middleware_config->is_null()) {
    header["middleware_config"] = *r.middleware_config;
  }
  if (r.injected_delay_ns != 0) header["injected_delay_ns"] = r.injected_delay_ns;
  if (r.reported) header["timed_by"] = "driver";
  if (r.load != nullptr) header["load"] = r.load->to_json();
  if (o.operation == kFanoutOperation) header["fanout"] = fanout_header(o, r);
  if (r.series.size() > 1) {
    nlohmann::json series = nlohmann::json::array();
    for (std::size_t t = 0; t < r.series.size(); ++t) {
      series.push_back({{"name", "thread-" + std::to_string(t + 1)},
                        {"count", r.series[t].count},
                        {"wall_ns", r.series[t].wall_ns}});
    }
    header["series"] = series;
  }
  if (r.named != nullptr && !r.named->empty()) {
    nlohmann::json named = nlohmann::json::array();
    for (const NamedSeries& series : *r.named) {
      nlohmann::json entry = {{"name", series.name()}, {"count", series.values().size()}};
      if (!series.part_of().empty()) entry["part_of"] = series.part_of();
      named.push_back(entry);
    }
    header["named_series"] = named;
  }
  return header;
}

int serve(Driver& driver, const Description& d, const DriverOptions& o, const std::string& prog,
          const ClockInfo& clock) {
  if (o.option("fault", "") == "exit") {
    std::cerr << prog << ": error: injected fault (--option fault=exit): exiting with status 3\n";
    return 3;
  }
  if (o.memory_limit_mb) detail::exit_on_failed_allocation(prog, *o.memory_limit_mb);
  ServerContext context(o);
  detail::LoopProbe probe;
  {
    detail::SignalThread signals([&](int) {
      detail::lift_address_space_limit();
      context.request_stop();
    });
    probe.start();
    try {
      driver.serve(o, context);
    } catch (...) {
      context.on_stop(nullptr);
      throw;
    }
    // A late signal must not run a callback whose objects serve() destroyed.
    context.on_stop(nullptr);
    probe.stop();
  }
  // A server keeps no samples; its header records where it ran and what it used.
  if (!o.output.empty()) {
    RunRecord r;
    r.probe = &probe;
    r.middleware_config = &context.middleware_config();
    r.events_received = &context.events_received();
    write_result_file(o.output, make_header(d, o, clock, r), {});
  }
  return 0;
}

int measure(Driver& driver, const Description& d, const DriverOptions& o, const std::string& prog,
            const ClockInfo& clock) {
  Measurement m(o, clock.read_cost_ns);  // says what it could not allocate, if so
  if (o.memory_limit_mb) detail::exit_on_failed_allocation(prog, *o.memory_limit_mb);
  if (m.injected_delay_ns() != 0) {
    std::cerr << prog << ": warning: MWBENCH_INJECT_DELAY_NS=" << m.injected_delay_ns()
              << ": every call is slowed on purpose\n";
  }
  std::atomic<int> stopped_by{0};
  {
    detail::SignalThread signals([&](int signo) {
      // The first signal ends the loop cleanly; a second one, sent because a
      // call is stuck (a hung server), ends the process at once.
      if (stopped_by.exchange(signo) != 0) _exit(1);
      detail::lift_address_space_limit();
      m.request_stop();
    });
    driver.measure(o, m);
  }
  if (!m.ran()) throw std::logic_error("the driver returned without calling Measurement::run()");

  const auto samples = m.samples();
  if (!o.output.empty()) {
    const RunRecord r{m.warmup_done(),       m.batch_size(), samples.size(),
                      m.measured_wall_ns(),  &m.probe(),     &m.middleware_config(),
                      m.injected_delay_ns(), m.series(),     m.events_published(),
                      &m.events_received(),  &m.named(),     m.reported(),
                      m.open_loop_summary()};
    std::vector<NamedValues> named;
    for (const NamedSeries& series : m.named()) named.push_back({series.name(), series.values()});
    write_result_file(o.output, make_header(d, o, clock, r), samples, named);
  }
  // An open loop's lost calls are a figure of the run (the header's "load"),
  // not a stop.
  const OpenLoopSummary* load = m.open_loop_summary();
  const std::uint64_t lost = load != nullptr ? load->lost : 0;
  if (lost > 0) {
    std::cerr << prog << ": warning: " << lost << " of " << load->calls
              << " calls unanswered after " << o.timeout_s << " s without a reply (--timeout)"
              << ": left out as lost\n";
  }
  if (samples.size() + lost < m.samples_wanted()) {
    std::cerr << prog << ": error: stopped by " << detail::signal_name(stopped_by.load())
              << " after " << samples.size() << " of " << m.samples_wanted() << " samples"
              << (o.output.empty() ? "" : "; the result file holds those measured") << '\n';
    return 1;
  }
  return 0;
}

}  // namespace

int run_driver(int argc, char** argv, Driver& driver) {
  std::string prog = "mwbench-driver";
  std::optional<std::uint64_t> memory_limit_mb;  // for the out-of-memory message
  try {
    const Description d = driver.describe();
    prog += "-" + d.driver;
    const detail::Arguments args = detail::parse_arguments(argc, argv, d);
    if (args.help) {
      std::cout << args.help_text;
      return 0;
    }
    if (args.describe) {
      std::cout << d.to_json().dump(2) << '\n';
      return 0;
    }
    const DriverOptions& o = args.options;
    memory_limit_mb = o.memory_limit_mb;
    if (o.memory_limit_mb) detail::limit_address_space(*o.memory_limit_mb);

    // Before any thread exists, so that every thread the driver or its
    // middleware creates inherits the signal mask, the CPU and the policy.
    const detail::BlockStopSignals blocked;
    if (o.cpu) pin_to_cpu(*o.cpu);
    if (o.priority > 0) set_fifo_priority(o.priority);
    const ClockInfo clock = probe_clock();

    return o.role == Role::server ? serve(driver, d, o, prog, clock)
                                  : measure(driver, d, o, prog, clock);
  } catch (const UsageError& e) {
    std::cerr << prog << ": error: " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    // Anything that did not say what it was allocating; a driver that knows
    // (servants activated so far, say) throws its own message instead.
    std::cerr << prog << ": error: out of memory";
    if (memory_limit_mb) std::cerr << " (--memory-limit-mb " << *memory_limit_mb << ")";
    std::cerr << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << prog << ": error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace mwbench
