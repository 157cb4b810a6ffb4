// The executors of Faults.idl3: each home's create() makes one of these, and
// each fails as it is made.
#include <Faults_ccm_executor.hpp>
#include <cstdlib>
#include <mwccm/errors.hpp>

namespace {

class RefusingExecutor final : public Faults::Refusing_exec_base {
 public:
  RefusingExecutor() {
    mwccm::raise<Components::CreateFailure>("Refusing: this home's create always refuses");
  }
  CORBA::ULong unused() override { return 0; }
  void unused(CORBA::ULong) override {}
};

class CrashingExecutor final : public Faults::Crashing_exec_base {
 public:
  CrashingExecutor() { std::abort(); }  // the component server dies mid-assembly
  CORBA::ULong unused() override { return 0; }
  void unused(CORBA::ULong) override {}
};

}  // namespace

MWCCM_REGISTER_Faults_RefusingHome(RefusingExecutor);
MWCCM_REGISTER_Faults_CrashingHome(CrashingExecutor);
