#include "omniorb_servant.hpp"

#include <cstdio>

namespace omniorb_driver {

CORBA::ULongLong RoundTripServant::test_method(CORBA::ULongLong send_time) {
  return send_time;
}

void RoundTripServant::ping() {}

void RoundTripServant::send_octets(const Test::Octets& data) {
  if (!verify_) return;
  const CORBA::ULong length = data.length();
  const CORBA::Octet* bytes = data.get_buffer();
  CORBA::ULong at = 0;
  while (at < length && bytes[at] == pattern_byte(at)) ++at;
  if (length == expected_length_ && at == length) return;

  // Say what was wrong here: the client sees only a BAD_PARAM. Once, so that
  // a client that goes on calling does not flood the log.
  if (bad_payloads_.fetch_add(1) == 0) {
    if (length != expected_length_) {
      std::fprintf(stderr,
                   "mwbench-driver-omniorb: error: octets payload of %lu bytes, expected %lu\n",
                   static_cast<unsigned long>(length),
                   static_cast<unsigned long>(expected_length_));
    } else {
      std::fprintf(stderr,
                   "mwbench-driver-omniorb: error: octets payload differs from the pattern at "
                   "byte %lu of %lu\n",
                   static_cast<unsigned long>(at), static_cast<unsigned long>(length));
    }
  }
  throw CORBA::BAD_PARAM(0, CORBA::COMPLETED_YES);
}

}  // namespace omniorb_driver
