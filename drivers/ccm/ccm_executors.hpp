// The executors of CcmPerf.idl3: what a component developer writes.
//
// ReceiverExecutor serves Test::RoundTrip as its `control` facet and
// consumes both event types. Its facet does what drivers/omniorb's plain
// servant does (returns at once; with verify, checks payloads and counts),
// so obj-comp differs from obj-obj by the component layer alone.
// CallerExecutor is the component client: every call goes through its
// `peer` receptacle's borrowed reference (one atomic load, no duplicate) and
// every event through its event sources; the measuring thread calls these
// methods directly, as the component's own code would.
#pragma once

#include <CcmPerf_ccm_executor.hpp>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "ccm_probes.hpp"
#include "common/delivery_board.hpp"

namespace ccm_driver {

// What a Receiver counted and found wrong (with verify on).
struct ReceiverCounts {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> value_events{0};
  std::atomic<std::uint64_t> struct_events{0};
  std::atomic<std::uint64_t> bad{0};
  std::string first_problem;  // written once, by the first bad call

  // "verify: 12 calls, 0 value events, 0 struct events, 0 bad".
  std::string summary() const;
};

// The counts of this process's Receiver (a process hosts one): kept outside
// the executor, so that they can be read after the component is removed.
ReceiverCounts& receiver_counts();

// delivery_time=1 (or invocation=oneway): the delivery board this process's
// Receiver stamps first thing in every operation of its facet and every
// event it consumes, where the component's own code starts; nullptr (the
// default) for none. Set before the first call; the board outlives it.
void stamp_entries_on(mwbench::common::DeliveryBoard* board) noexcept;

class ReceiverExecutor final : public CcmPerf::Receiver_exec_base {
 public:
  CcmPerf::CCM_RoundTrip_ptr get_control() override;
  void push_values(CcmPerf::ValueEvent* event) override;
  void push_structs(const CcmPerf::StructEvent& event) override;
  CORBA::Boolean verify() override { return verify_; }
  void verify(CORBA::Boolean value) override { verify_ = value; }
  CORBA::ULong payload_bytes() override { return payload_bytes_; }
  void payload_bytes(CORBA::ULong value) override;  // also builds the inout reply

  ReceiverCounts& counts() noexcept { return receiver_counts(); }
  // Counts a problem and raises BAD_PARAM, which is all the client sees.
  [[noreturn]] void reject(const std::string& what);
  void check_payload(const char* what, const Test::Octets& data);
  // What the facet's swap_octets sends back: payload_bytes of reply_byte().
  const std::vector<CORBA::Octet>& reply() const noexcept { return reply_; }

 private:
  void check_event(const char* kind, std::atomic<std::uint64_t>& count, CORBA::ULongLong number,
                   const Test::Octets& payload);

  bool verify_ = false;
  CORBA::ULong payload_bytes_ = 0;
  std::vector<CORBA::Octet> reply_;
};

class CallerExecutor final : public CcmPerf::Caller_exec_base {
 public:
  CORBA::ULongLong roundtrip(CORBA::ULongLong send_time) {
    CcmPerf::CCM_RoundTrip_ptr peer = context()->borrow_peer();
    CCM_PROBE(stub_call);
    const CORBA::ULongLong echo = peer->test_method(send_time);
    CCM_PROBE(stub_return);
    return echo;
  }
  void ping() { context()->borrow_peer()->ping(); }
  void send_octets(const Test::Octets& data) { context()->borrow_peer()->send_octets(data); }
  void publish(CcmPerf::ValueEvent* event) { context()->push_values(event); }
  void publish(const CcmPerf::StructEvent& event) { context()->push_structs(event); }
  // The reference the `peer` receptacle holds (a new one): what the
  // component's code calls by the DII or AMI, which the forwarder has not.
  Test::RoundTrip_ptr peer_reference() { return context()->get_connection_peer(); }
};

}  // namespace ccm_driver
