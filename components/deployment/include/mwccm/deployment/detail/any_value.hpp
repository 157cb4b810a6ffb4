// A plan's typed value as the CORBA::Any an attribute is set from. An enum
// is built from its type (repository id and members) with DynamicAny, so that
// no generated code is needed: the component's glue extracts it as its enum.
#pragma once

#include <omniORB4/CORBA.h>

#include <mwccm/deployment/plan.hpp>

namespace mwccm::deployment {

CORBA::Any to_any(CORBA::ORB_ptr orb, const TypedValue& value);

}  // namespace mwccm::deployment
