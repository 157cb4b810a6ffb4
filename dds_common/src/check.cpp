// Cyclone's return codes as exceptions (check.hpp).
#include <mwbench/dds/check.hpp>
#include <stdexcept>
#include <string>

namespace mwbench::dds {

dds_return_t check(dds_return_t ret, const char* what) {
  if (ret < 0) throw std::runtime_error(std::string(what) + ": " + dds_strretcode(ret));
  return ret;
}

}  // namespace mwbench::dds
