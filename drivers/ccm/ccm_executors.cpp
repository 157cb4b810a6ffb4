#include "ccm_executors.hpp"

#include <mutex>

#include "omniorb_payload.hpp"

namespace ccm_driver {

namespace {

// The Receiver's `control` facet: the plain servant's work, no more.
class ControlFacet final : public CcmPerf::RoundTrip_exec_base {
 public:
  explicit ControlFacet(ReceiverExecutor& receiver) : receiver_(receiver) {}

  CORBA::ULongLong test_method(CORBA::ULongLong send_time) override {
    count();
    return send_time;
  }
  void ping() override { count(); }
  void ping_oneway() override { count(); }
  void send_octets(const Test::Octets& data) override {
    count();
    receiver_.check_payload("octets", data);
  }
  // As the plain servant: the request checked, the reply the Receiver's own
  // bytes (reply_byte(), built when payload_bytes is set), lent, not copied.
  void swap_octets(Test::Octets& data) override {
    count();
    receiver_.check_payload("octets_inout", data);
    const std::vector<CORBA::Octet>& reply = receiver_.reply();
    const CORBA::ULong length = data.length();
    if (length > reply.size()) {
      receiver_.reject("octets_inout payload of " + std::to_string(length) +
                       " bytes, more than the " + std::to_string(reply.size()) +
                       " of this server's --payload-bytes");
    }
    data.replace(length, length, const_cast<CORBA::Octet*>(reply.data()), false);
  }
  // Not operations of this driver; answered so that a stray call is not a crash.
  void get_octets(CORBA::ULong, Test::Octets_out data) override { data = new Test::Octets; }
  void send_records(const Test::Records&) override {}

 private:
  void count() noexcept {
    if (receiver_.verify()) receiver_.counts().calls.fetch_add(1, std::memory_order_relaxed);
  }
  ReceiverExecutor& receiver_;  // owns this facet through its servant
};

std::once_flag first_problem_once;

}  // namespace

ReceiverCounts& receiver_counts() {
  static ReceiverCounts counts;
  return counts;
}

std::string ReceiverCounts::summary() const {
  return "verify: " + std::to_string(calls.load()) + " calls, " +
         std::to_string(value_events.load()) + " value events, " +
         std::to_string(struct_events.load()) + " struct events, " + std::to_string(bad.load()) +
         " bad" + (first_problem.empty() ? "" : " (first: " + first_problem + ")");
}

CcmPerf::CCM_RoundTrip_ptr ReceiverExecutor::get_control() { return new ControlFacet(*this); }

void ReceiverExecutor::payload_bytes(CORBA::ULong value) {
  payload_bytes_ = value;
  reply_.resize(value);
  for (CORBA::ULong i = 0; i < value; ++i) reply_[i] = omniorb_driver::reply_byte(i);
}

void ReceiverExecutor::reject(const std::string& what) {
  counts().bad.fetch_add(1);
  std::call_once(first_problem_once, [&] { counts().first_problem = what; });
  throw CORBA::BAD_PARAM();
}

void ReceiverExecutor::check_payload(const char* what, const Test::Octets& data) {
  if (!verify_) return;
  if (data.length() != payload_bytes_) {
    reject(std::string(what) + ": " + std::to_string(data.length()) + " bytes, expected " +
           std::to_string(payload_bytes_));
  }
  const CORBA::ULong at = omniorb_driver::first_difference(data, omniorb_driver::pattern_byte);
  if (at != data.length()) {
    reject(std::string(what) + ": byte " + std::to_string(at) + " differs from what was sent");
  }
}

// Events are numbered from 1 by the client, warm-up included, so each one
// must be the next: none lost, none twice, none out of order.
void ReceiverExecutor::check_event(const char* kind, std::atomic<std::uint64_t>& count,
                                   CORBA::ULongLong number, const Test::Octets& payload) {
  if (!verify_) return;
  const std::uint64_t expected = count.fetch_add(1) + 1;
  if (number != expected) {
    reject(std::string(kind) + " event number " + std::to_string(number) + ", expected " +
           std::to_string(expected));
  }
  check_payload(kind, payload);
}

void ReceiverExecutor::push_values(CcmPerf::ValueEvent* event) {
  check_event("value", counts().value_events, event->number(), event->payload());
}

void ReceiverExecutor::push_structs(const CcmPerf::StructEvent& event) {
  check_event("struct", counts().struct_events, event.number, event.payload);
}

}  // namespace ccm_driver

MWCCM_REGISTER_CcmPerf_ReceiverHome(ccm_driver::ReceiverExecutor);
MWCCM_REGISTER_CcmPerf_CallerHome(ccm_driver::CallerExecutor);
