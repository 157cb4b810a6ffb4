// The DDS drivers' shared options.
#include "common/pubsub_settings.hpp"

#include "mwbench/load.hpp"

namespace mwbench::common {

PubSubSettings pubsub_settings(const DriverOptions& o, std::uint64_t max_payload_bytes,
                               const std::string& bound_reason) {
  PubSubSettings s;
  s.wait = parse_wait(o.option("wait", "waitset"));
  s.verify = o.option_flag("verify", false);
  if (o.payload_bytes > max_payload_bytes) {
    throw UsageError("--payload-bytes " + std::to_string(o.payload_bytes) + ": " + bound_reason);
  }
  s.payload_bytes = o.payload_bytes;
  if (is_fanout(o)) check_busy_fanout(s.wait, o.subscribers);
  if (s.wait == Wait::chain && is_fanout(o)) {
    throw UsageError(
        "--option wait=chain: fanout waits for every subscriber's reply on the "
        "publisher's thread; use waitset, listener or poll");
  }
  if (s.wait == Wait::chain && o.load.open()) {
    throw UsageError("--option wait=chain with --load " + to_string(o.load) +
                     ": the chain writes each ping when the previous pong arrives, a closed "
                     "loop; use waitset, listener or poll");
  }
  if (s.wait == Wait::chain && o.role == Role::collocated) {
    throw UsageError(
        "--option wait=chain: remote only (collocated, the middleware delivers "
        "within the client's write, and wait=listener answers there already)");
  }
  return s;
}

}  // namespace mwbench::common
