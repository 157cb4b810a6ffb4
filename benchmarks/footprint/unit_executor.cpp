// The executors of Unit.idl3: a counter facet, as small as the plain servant
// it is compared with (plain_host.cpp).
#include <Unit_ccm_executor.hpp>

namespace {

class UnitCounter final : public Footprint::Counter_exec_base {
 public:
  CORBA::ULong add(CORBA::ULong amount) override { return total_ += amount; }

 private:
  CORBA::ULong total_ = 0;
};

class UnitExecutor final : public Footprint::Unit_exec_base {
 public:
  Footprint::CCM_Counter_ptr get_counter() override { return new UnitCounter; }
};

}  // namespace

MWCCM_REGISTER_Footprint_UnitHome(UnitExecutor);
