// A checked plan split into what each component server process assembles
// (MwccmDeployment::LocalityPlan, MwccmDeployment.idl): its instances with
// their attribute values as Anys, the connections whose user it holds, and
// the ends it provides to users in other processes. The launcher makes these
// once; nodes and localities never read XML.
#pragma once

#include <omniORB4/CORBA.h>

#include <MwccmDeployment.hh>
#include <mwccm/deployment/plan.hpp>
#include <vector>

namespace mwccm::deployment {

// In the order of split_by_locality. The plan must have passed check_plan
// (after complete_plan).
std::vector<MwccmDeployment::LocalityPlan> make_locality_plans(CORBA::ORB_ptr orb,
                                                               const Plan& plan);

}  // namespace mwccm::deployment
