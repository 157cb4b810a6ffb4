#include "omniorb_calls.hpp"

#include <random>

namespace omniorb_driver {

std::vector<std::uint32_t> random_sequence(std::size_t servants) {
  std::size_t length = std::size_t{1} << 16;
  while (length < 4 * servants) length *= 2;
  std::vector<std::uint32_t> sequence(length);
  std::mt19937 generator(20020101);  // fixed: the same sequence in every run
  std::uniform_int_distribution<std::uint32_t> draw(0, static_cast<std::uint32_t>(servants - 1));
  for (auto& index : sequence) index = draw(generator);
  return sequence;
}

void check_reply(mwbench::Measurement& m, const char* operation, const Test::Octets& data,
                 CORBA::ULong expected_length) {
  if (data.length() != expected_length) {
    m.fail(std::string(operation) + ": reply of " + std::to_string(data.length()) +
           " bytes, expected " + std::to_string(expected_length) + " (verify=1)");
    return;
  }
  const CORBA::ULong at = first_difference(data, reply_byte);
  if (at != data.length()) {
    m.fail(std::string(operation) + ": reply differs from the servant's pattern at byte " +
           std::to_string(at) + " of " + std::to_string(data.length()) + " (verify=1)");
  }
}

namespace {
std::vector<CORBA::Octet> pattern(CORBA::ULong length) {
  std::vector<CORBA::Octet> bytes(length);
  for (CORBA::ULong i = 0; i < length; ++i) bytes[i] = pattern_byte(i);
  return bytes;
}
}  // namespace

OctetsPayload::OctetsPayload(CORBA::ULong length)
    : bytes(pattern(length)), data(length, length, bytes.data(), false) {}

InoutPayload::InoutPayload(CORBA::ULong length)
    : request(pattern(length)), work(request), data(length, length, work.data(), false) {}

void InoutPayload::restore() {
  const auto length = static_cast<CORBA::ULong>(request.size());
  data.replace(length, length, work.data(), false);  // a collocated servant lent its own
  std::copy(request.begin(), request.end(), work.begin());
}

Test::Records make_records(std::uint64_t payload_bytes) {
  const auto count = static_cast<CORBA::ULong>(payload_bytes / kRecordBytes);
  Test::Records records(count);
  records.length(count);
  for (CORBA::ULong i = 0; i < count; ++i) fill_record(records[i], i);
  return records;
}

}  // namespace omniorb_driver
