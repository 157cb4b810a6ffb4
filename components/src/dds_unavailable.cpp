// The `dds` delivery strategy of an mwccm built without Cyclone DDS
// (dds_channel.hpp): the plan check refuses it first; these say why too.
#include <mwccm/dds_channel.hpp>
#include <stdexcept>

namespace mwccm {
namespace {
[[noreturn]] void unavailable(const DdsTopic& topic) {
  throw std::runtime_error("DDS topic '" + topic.name +
                           "': this mwccm was built without Cyclone DDS (install cyclonedds-dev "
                           "and cyclonedds-tools, then configure again)");
}
}  // namespace

bool dds_available() noexcept { return false; }

std::shared_ptr<DdsWriter> make_dds_writer(const DdsDomain&, const DdsTopic& topic) {
  unavailable(topic);
}

std::unique_ptr<DdsReader> make_dds_reader(EventChannel&, const DdsDomain&, const DdsTopic& topic) {
  unavailable(topic);
}

}  // namespace mwccm
