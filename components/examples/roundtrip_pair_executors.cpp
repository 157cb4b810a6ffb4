// The executors of RoundTripPair.idl3: what a user writes. Everything else
// (servants, context, homes) is generated. Each executor derives from its
// generated <Component>_exec_base and implements its facets, sinks and
// attributes; the two macros at the end register the homes for both
// assembly modes.
#include <RoundTripPair_ccm_executor.hpp>
#include <atomic>
#include <string>

namespace {

// The facet of Test::RoundTrip that only test_method and ping are used of;
// the octets calls belong to the benchmarks, not to this example.
class RoundTripFacetBase : public Example::RoundTrip_exec_base {
 public:
  void ping() override {}
  void ping_oneway() override {}
  void send_octets(const Test::Octets&) override {}
  void get_octets(CORBA::ULong size, Test::Octets_out data) override {
    data = new Test::Octets(size);
    data->length(size);
  }
  void swap_octets(Test::Octets&) override {}
  void send_records(const Test::Records&) override {}
};

class EchoControl final : public RoundTripFacetBase {
 public:
  CORBA::ULongLong test_method(CORBA::ULongLong send_time) override { return send_time; }
};

class EchoExecutor final : public Example::Echo_exec_base {
 public:
  Example::CCM_RoundTrip_ptr get_control() override { return new EchoControl; }
  void push_ticks(Example::Tick* /*event*/) override { ticks_received_.fetch_add(1); }
  char* greeting() override { return CORBA::string_dup(greeting_.c_str()); }
  void greeting(const char* value) override { greeting_ = value; }
  CORBA::ULong ticks_received() override { return ticks_received_.load(); }

 private:
  std::string greeting_;
  std::atomic<CORBA::ULong> ticks_received_{0};
};

// Pinger's facet forwards to the receptacle and publishes a Tick. It reaches
// the ports through the executor's context (borrowed: no reference counting).
class PingerExecutor;

class PingerStart final : public RoundTripFacetBase {
 public:
  explicit PingerStart(PingerExecutor& pinger) : pinger_(pinger) {}
  CORBA::ULongLong test_method(CORBA::ULongLong send_time) override;

 private:
  PingerExecutor& pinger_;
};

class PingerExecutor final : public Example::Pinger_exec_base {
 public:
  Example::CCM_RoundTrip_ptr get_start() override { return new PingerStart(*this); }
  CORBA::ULong calls_made() override { return calls_made_.load(); }
  void calls_made(CORBA::ULong value) override { calls_made_.store(value); }

  CORBA::ULongLong forward(CORBA::ULongLong send_time) {
    Example::CCM_RoundTrip_ptr peer = context()->borrow_peer();
    if (CORBA::is_nil(peer)) throw CORBA::TRANSIENT();  // not connected yet
    const CORBA::ULongLong answer = peer->test_method(send_time);
    Example::Tick_var tick = new Example::Tick_impl;
    tick->sent(send_time);
    context()->push_ticks(tick.in());
    calls_made_.fetch_add(1);
    return answer;
  }

 private:
  std::atomic<CORBA::ULong> calls_made_{0};
};

CORBA::ULongLong PingerStart::test_method(CORBA::ULongLong send_time) {
  return pinger_.forward(send_time);
}

}  // namespace

MWCCM_REGISTER_Example_EchoHome(EchoExecutor);
MWCCM_REGISTER_Example_PingerHome(PingerExecutor);
