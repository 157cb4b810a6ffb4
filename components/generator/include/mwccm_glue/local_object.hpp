// Reference counting for local objects (executors, contexts, home executors).
//
// omniORB follows the CORBA C++ mapping: CORBA::LocalObject's _add_ref and
// _remove_ref do nothing, so a local object released by every _var that held
// it is never deleted unless its class counts. Every local object the glue
// creates derives from CountedLocalObject, and so do the executor bases it
// gives users; a hand-written executor class should too.
#pragma once

#include <omniORB4/CORBA.h>

#include <atomic>

namespace mwccm_glue {

class CountedLocalObject : public virtual CORBA::LocalObject {
 public:
  void _add_ref() override { count_.fetch_add(1, std::memory_order_relaxed); }
  void _remove_ref() override {
    if (count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

 protected:
  CountedLocalObject() = default;
  ~CountedLocalObject() override = default;

 private:
  std::atomic<unsigned long> count_{1};  // new gives the creator one reference
};

}  // namespace mwccm_glue
