// The executors of Faults.idl3: each home's create() makes one of these, and
// each fails as it is made, or, Blocking, hangs when configured.
#include <Faults_ccm_executor.hpp>
#include <cstdlib>
#include <fstream>
#include <future>
#include <mwccm/errors.hpp>
#include <string>

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

class BlockingExecutor final : public Faults::Blocking_exec_base {
 public:
  char* marker() override { return CORBA::string_dup(marker_.c_str()); }
  void marker(const char* value) override { marker_ = value; }
  void configuration_complete() override {
    std::ofstream(marker_) << "stuck in configuration_complete\n";
    never_.get_future().wait();  // until the process is stopped
  }

 private:
  std::string marker_;
  std::promise<void> never_;
};

}  // namespace

MWCCM_REGISTER_Faults_RefusingHome(RefusingExecutor);
MWCCM_REGISTER_Faults_CrashingHome(CrashingExecutor);
MWCCM_REGISTER_Faults_BlockingHome(BlockingExecutor);
