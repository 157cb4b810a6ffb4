// The relay's executor (Scale.idl3): hops() counts down the chain, so a
// test can see that a generated plan connected every link.
#include <Scale_ccm_executor.hpp>

namespace {

class RelayExecutor;

class InputFacet final : public Scale::Link_exec_base {
 public:
  explicit InputFacet(RelayExecutor& relay) : relay_(relay) {}
  CORBA::ULong hops() override;

 private:
  RelayExecutor& relay_;
};

class RelayExecutor final : public Scale::Relay_exec_base {
 public:
  CORBA::ULong index() override { return index_; }
  void index(CORBA::ULong value) override { index_ = value; }
  Scale::CCM_Link_ptr get_input() override { return new InputFacet(*this); }

  CORBA::ULong hops() {
    Scale::CCM_Link_ptr next = context()->borrow_next();
    return CORBA::is_nil(next) ? 0 : next->hops() + 1;
  }

 private:
  CORBA::ULong index_ = 0;
};

CORBA::ULong InputFacet::hops() { return relay_.hops(); }

}  // namespace

MWCCM_REGISTER_Scale_RelayHome(RelayExecutor);
