// The --describe object (docs/driver-contract.md section 1).
#include "mwbench/driver.hpp"
#include "mwbench/result_file.hpp"

namespace mwbench {

nlohmann::json Description::to_json() const {
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [name, payload] : operations) ops[name] = {{"payload", payload}};
  for (const auto& name : one_way) ops[name]["one_way"] = true;
  nlohmann::json mode_map = nlohmann::json::object();
  for (const auto& [mode, transports] : modes) mode_map[mode] = transports;
  nlohmann::json opts = nlohmann::json::object();
  for (const auto& [key, help] : options) opts[key] = help;
  nlohmann::json out = {{"contract", kContractVersion},
                        {"driver", driver},
                        {"middleware", middleware},
                        {"middleware_version", middleware_version},
                        {"operations", ops},
                        {"modes", mode_map},
                        {"options", opts}};
  if (!option_values.empty()) out["option_values"] = option_values;
  if (max_threads) out["max_threads"] = *max_threads;
  if (max_servants) out["max_servants"] = *max_servants;
  if (max_subscribers) out["max_subscribers"] = *max_subscribers;
  if (!daemon.is_null()) out["daemon"] = daemon;
  if (!host_local.empty()) out["host_local"] = host_local;
  if (!option_transports.empty()) out["option_transports"] = option_transports;
  if (!nodes.is_null()) out["nodes"] = nodes;
  if (!open_loop.empty()) out["open_loop"] = open_loop;
  if (!one_way_options.empty()) out["one_way_options"] = one_way_options;
  return out;
}

}  // namespace mwbench
