// Basic SP's latency from tick to display (deploy_latency.hpp).
#include "deploy_latency.hpp"

#include <BasicSP_ccm.hh>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mwccm/registration.hpp>
#include <sstream>
#include <thread>

#include "deploy_process.hpp"
#include "deploy_runs.hpp"

namespace deploy {
namespace {

namespace fs = std::filesystem;

// The HUD's log: "<update> <latency ns>" and maybe more fields (the HUD's
// tick) per line, in update order.
std::vector<std::uint64_t> read_log(const fs::path& log) {
  std::ifstream in(log);
  if (!in) throw std::runtime_error("the HUD wrote no log '" + log.string() + "'");
  std::vector<std::uint64_t> latencies;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::uint64_t update = 0, latency = 0;
    if (fields >> update >> latency) latencies.push_back(latency);
  }
  return latencies;
}

std::vector<std::uint64_t> plain_chain(const Scenario& scenario, const fs::path& scratch,
                                       std::uint64_t updates) {
  const fs::path log = scratch / "hud.log";
  ProgramProcess chain({scenario.program, "--hertz", std::to_string(scenario.hertz), "--updates",
                        std::to_string(updates), "--log", log.string()},
                       scratch.string());
  chain.wait_for_success();
  return read_log(log);
}

// Until the HUD has displayed `updates` ticks, asked once a tick period;
// std::runtime_error if it displays none for `stall` (a chain that broke).
void wait_for_updates(BasicSP::HUD_ptr hud, const Scenario& scenario, std::uint64_t updates,
                      std::chrono::duration<double> stall, const std::function<bool()>& stopped) {
  const auto period = std::chrono::nanoseconds(1'000'000'000ULL / scenario.hertz);
  std::uint64_t shown = hud->updates();
  auto last_progress = std::chrono::steady_clock::now();
  while (shown < updates && !stopped()) {
    std::this_thread::sleep_for(period);
    const std::uint64_t now_shown = hud->updates();
    if (now_shown != shown) {
      shown = now_shown;
      last_progress = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - last_progress > stall) {
      throw std::runtime_error("the HUD displayed " + std::to_string(shown) + " of " +
                               std::to_string(updates) + " ticks and no more for " +
                               std::to_string(stall.count()) + " s (--timeout)");
    }
  }
}

}  // namespace

std::vector<std::uint64_t> tick_to_display(CORBA::ORB_ptr orb, Scenario scenario,
                                           const std::string& scratch, std::uint64_t updates,
                                           std::chrono::duration<double> stall,
                                           const std::function<bool()>& stopped) {
  if (scenario.plain_chain) return plain_chain(scenario, scratch, updates);
  const fs::path log = fs::path(scratch) / "hud.log";
  scenario.overrides.push_back("rate_gen.hertz=" + std::to_string(scenario.hertz));
  scenario.overrides.push_back("hud.log_file=" + log.string());
  auto deployments = make_deployments(orb, scenario, scratch);
  deployments->assemble();
  {
    CORBA::Object_var object =
        mwccm::resolve_reference(orb, "file:" + (fs::path(scratch) / "hud.ior").string());
    BasicSP::HUD_var hud = BasicSP::HUD::_narrow(object.in());
    wait_for_updates(hud.in(), scenario, updates, stall, stopped);
  }
  deployments->tear_down();  // the HUD writes its log when passivated
  return read_log(log);
}

}  // namespace deploy
