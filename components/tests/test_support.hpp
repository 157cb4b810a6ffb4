// What every mwccm unit test shares: one ORB (with the naming service's
// initial reference pointing at a port kept free for omniNames), one
// in-process component server, torn down after the last test.
#pragma once

#include <mwccm/component_server.hpp>
#include <string>

namespace mwccm_test {

CORBA::ORB_ptr orb();  // borrowed
mwccm::ComponentServer& server();
int naming_port();  // where a test may start omniNames
std::string unique_name(const char* prefix);

}  // namespace mwccm_test
