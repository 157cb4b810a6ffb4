// Reference counting for local objects: executors, facet executors, home
// executors and contexts.
//
// omniORB follows the CORBA C++ mapping: CORBA::LocalObject's _add_ref and
// _remove_ref do nothing, so a local object released by every _var that held
// it is never deleted unless its class counts. The leak rule for executors:
// every local object class you instantiate with `new` derives from
// mwccm::CountedLocalObject (the generated executor bases already do), and
// every reference to it is held in a _var or released once.
//
//   class MyCounter final : public virtual Bench::CCM_Counter,
//                           public virtual mwccm::CountedLocalObject { ... };
#pragma once

#include <omniORB4/CORBA.h>

#include <atomic>

namespace mwccm {

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
  std::atomic<unsigned long> count_{1};  // `new` gives the creator one reference
};

}  // namespace mwccm
