// The executors of Relay.idl3, written as any user writes them: derived from
// the generated bases (which count references), registered by one macro per
// home. mwccm_generate(... EXECUTORS) builds this one source into both the
// static component (linked into mwccm-relay-static-server) and the dynamic
// one (the module the generic mwccm-component-server loads).
#include <Relay_ccm_executor.hpp>
#include <atomic>
#include <memory>
#include <mwccm/errors.hpp>

namespace {

// Shared by a Receiver and its facets: whichever is destroyed last frees it.
struct ReceiverCounts {
  std::atomic<CORBA::ULong> calls{0};
  std::atomic<CORBA::ULong> pulses{0};
  std::atomic<CORBA::ULong> total{0};
};

class ReceiverCalls final : public Relay::Counter_exec_base {
 public:
  explicit ReceiverCalls(std::shared_ptr<ReceiverCounts> counts) : counts_(std::move(counts)) {}
  CORBA::ULong add(CORBA::ULong amount) override {
    counts_->calls.fetch_add(1);
    return counts_->total.fetch_add(amount) + amount;
  }

 private:
  std::shared_ptr<ReceiverCounts> counts_;
};

class ReceiverGauge final : public Relay::Gauge_exec_base {
 public:
  explicit ReceiverGauge(std::shared_ptr<ReceiverCounts> counts) : counts_(std::move(counts)) {}
  CORBA::ULong calls() override { return counts_->calls.load(); }
  CORBA::ULong pulses() override { return counts_->pulses.load(); }

 private:
  std::shared_ptr<ReceiverCounts> counts_;
};

class ReceiverExecutor final : public Relay::Receiver_exec_base {
 public:
  Relay::CCM_Counter_ptr get_calls() override { return new ReceiverCalls(counts_); }
  Relay::CCM_Gauge_ptr get_gauge() override { return new ReceiverGauge(counts_); }
  void push_pulses(Relay::Pulse*) override { counts_->pulses.fetch_add(1); }

 private:
  std::shared_ptr<ReceiverCounts> counts_ = std::make_shared<ReceiverCounts>();
};

class SenderExecutor;

class SenderTrigger final : public Relay::Counter_exec_base {
 public:
  explicit SenderTrigger(SenderExecutor& sender);
  ~SenderTrigger() override;
  CORBA::ULong add(CORBA::ULong amount) override;

 private:
  SenderExecutor& sender_;  // counted: the facet may outlive the component's hold on it
};

class SenderExecutor final : public Relay::Sender_exec_base {
 public:
  Relay::CCM_Counter_ptr get_trigger() override { return new SenderTrigger(*this); }
  CORBA::ULong factor() override { return factor_.load(); }
  void factor(CORBA::ULong value) override { factor_.store(value); }

  CORBA::ULong forward(CORBA::ULong amount) {
    Relay::CCM_Counter_ptr target = context()->borrow_target();
    if (CORBA::is_nil(target)) {
      mwccm::raise<Components::NoConnection>(
          "facet 'trigger' forwards through receptacle 'target', which is not connected; "
          "add refused");
    }
    const CORBA::ULong total = target->add(amount * factor_.load());
    Relay::Pulse_var pulse = new Relay::Pulse_impl;
    pulse->number(++pulses_sent_);
    context()->push_pulses(pulse.in());
    return total;
  }

 private:
  std::atomic<CORBA::ULong> factor_{1};
  std::atomic<CORBA::ULong> pulses_sent_{0};
};

SenderTrigger::SenderTrigger(SenderExecutor& sender) : sender_(sender) { sender_._add_ref(); }
SenderTrigger::~SenderTrigger() { sender_._remove_ref(); }
CORBA::ULong SenderTrigger::add(CORBA::ULong amount) { return sender_.forward(amount); }

}  // namespace

MWCCM_REGISTER_Relay_ReceiverHome(ReceiverExecutor);
MWCCM_REGISTER_Relay_SenderHome(SenderExecutor);
