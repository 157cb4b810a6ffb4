// A Cyclone DDS return code as an exception naming the call that failed.
#pragma once

#include "dds/dds.h"

namespace mwbench::dds {

// Throws std::runtime_error("<what>: <Cyclone's reason>") when `ret` < 0;
// returns `ret` otherwise (an entity handle, a count).
dds_return_t check(dds_return_t ret, const char* what);

}  // namespace mwbench::dds
