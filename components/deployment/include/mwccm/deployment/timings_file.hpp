// The timings file both deployment modes write (mwccm-deploy --timings, a
// compiled plan's --timings): every timed step, with the process that timed
// it, and the sum per step, as JSON (docs/deployment.md section 8).
#pragma once

#include <MwccmDeployment.hh>
#include <string>

namespace mwccm::deployment {

// Writes through FILE.tmp and a rename; std::runtime_error naming the file.
void write_timings_file(const std::string& file, const MwccmDeployment::Timings& timings);

}  // namespace mwccm::deployment
