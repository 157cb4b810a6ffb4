// Seconds as the drivers' messages print them: "0.5" for 0.5, "2" for 2.0
// ("no pong within 2 s (--timeout)").
#pragma once

#include <string>

namespace mwbench::common {

std::string seconds_text(double seconds);

}  // namespace mwbench::common
