#include "omniorb_servant.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "omniorb_payload.hpp"

// drivers/ccm compiles this servant too, and its probe build (MWCCM_PROBES)
// times the plain servant's upcall at the points where it times the
// component glue's: where the POA's upcall arrives, where the work returns.
// Every other build compiles the probes to nothing.
#ifdef MWCCM_PROBES
#include <mwccm_glue/probe.hpp>
#define SERVANT_PROBE(point) MWCCM_PROBE(point)
#else
#define SERVANT_PROBE(point) \
  do {                       \
  } while (false)
#endif

namespace omniorb_driver {

namespace {
std::vector<CORBA::Octet> reply_bytes(std::uint64_t length) {
  std::vector<CORBA::Octet> bytes(length);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = reply_byte(i);
  return bytes;
}
}  // namespace

ServantConfig::ServantConfig(bool verify_payloads, std::uint64_t length)
    : verify(verify_payloads), payload_bytes(length), reply(reply_bytes(length)) {}

CORBA::ULongLong RoundTripServant::test_method(CORBA::ULongLong send_time) {
  SERVANT_PROBE(glue_entry);
  count();
  SERVANT_PROBE(executor_return);
  return send_time;
}

void RoundTripServant::ping() { count(); }

void RoundTripServant::ping_oneway() { count(); }

void RoundTripServant::send_octets(const Test::Octets& data) {
  count();
  if (config_.verify) check_octets("octets", data);
}

void RoundTripServant::get_octets(CORBA::ULong size, Test::Octets_out data) {
  count();
  if (config_.verify && size != config_.payload_bytes) {
    reject("octets_out request for " + std::to_string(size) + " bytes, expected " +
           std::to_string(config_.payload_bytes));
  }
  if (size > config_.reply.size()) {
    reject("octets_out request for " + std::to_string(size) + " bytes, more than the " +
           std::to_string(config_.reply.size()) + " of this server's --payload-bytes");
  }
  // The C++ mapping wants a sequence on the heap, which the skeleton deletes
  // after marshalling it; its buffer is the shared reply, lent (release =
  // false), so neither allocated nor copied per call.
  auto* buffer = const_cast<CORBA::Octet*>(config_.reply.data());
  data = new Test::Octets(size, size, buffer, false);
}

void RoundTripServant::swap_octets(Test::Octets& data) {
  count();
  if (config_.verify) check_octets("octets_inout", data);
  const CORBA::ULong length = data.length();
  if (length > config_.reply.size()) {
    reject("octets_inout payload of " + std::to_string(length) + " bytes, more than the " +
           std::to_string(config_.reply.size()) + " of this server's --payload-bytes");
  }
  // Swapped, not echoed: the reply is the servant's own bytes, lent as in
  // get_octets(). The request's buffer is freed by the skeleton, as it
  // would be anyway; a collocated caller's buffer is not ours to free, and
  // replace() does not (its sequence does not own it either).
  data.replace(length, length, const_cast<CORBA::Octet*>(config_.reply.data()), false);
}

void RoundTripServant::send_records(const Test::Records& data) {
  count();
  if (!config_.verify) return;
  const std::uint64_t expected = config_.payload_bytes / kRecordBytes;
  if (data.length() != expected) {
    reject("records: " + std::to_string(data.length()) + " records, expected " +
           std::to_string(expected));
  }
  for (CORBA::ULong i = 0; i < data.length(); ++i) {
    if (!record_matches(data[i], i)) {
      reject("records: record " + std::to_string(i) + " of " + std::to_string(data.length()) +
             " differs from what was sent");
    }
  }
}

void RoundTripServant::check_octets(const char* operation, const Test::Octets& data) {
  const CORBA::ULong length = data.length();
  if (length != config_.payload_bytes) {
    reject(std::string(operation) + " payload of " + std::to_string(length) + " bytes, expected " +
           std::to_string(config_.payload_bytes));
  }
  const CORBA::ULong at = first_difference(data, pattern_byte);
  if (at != length) {
    reject(std::string(operation) + " payload differs from the pattern at byte " +
           std::to_string(at) + " of " + std::to_string(length));
  }
}

void RoundTripServant::reject(const std::string& what) {
  if (config_.bad_payloads.fetch_add(1) == 0) {
    std::fprintf(stderr, "mwbench-driver-omniorb: error: %s\n", what.c_str());
  }
  throw CORBA::BAD_PARAM(0, CORBA::COMPLETED_YES);
}

PortableServer::Servant ServantSet::add() {
  if (dispatch_ == Dispatch::dsi) return &dsi_servants_.emplace_back(config_, orb_.in());
  return &servants_.emplace_back(config_);
}

std::string ServantSet::call_summary() const {
  std::uint64_t total = 0, never = 0;
  std::uint64_t fewest = std::numeric_limits<std::uint64_t>::max(), most = 0;
  const auto tally = [&](std::uint64_t calls) {
    total += calls;
    never += calls == 0 ? 1 : 0;
    fewest = std::min(fewest, calls);
    most = std::max(most, calls);
  };
  for (const RoundTripServant& servant : servants_) tally(servant.calls());
  for (const DsiRoundTripServant& servant : dsi_servants_) tally(servant.calls());
  if (size() == 0) fewest = 0;
  return "verify: " + std::to_string(size()) + " servants, " + std::to_string(total) + " calls, " +
         std::to_string(never) + " never called (fewest " + std::to_string(fewest) + ", most " +
         std::to_string(most) + ")";
}

}  // namespace omniorb_driver
