// Reader and writer QoS (qos.hpp).
#include <mwbench/dds/qos.hpp>

namespace mwbench::dds {

Qos::Qos(const QosSettings& settings) : qos_(dds_create_qos()) {
  // A reliable writer blocks at most this long when its history is full,
  // which only KEEP_ALL with a reader lagging by its resource limits can make.
  dds_qset_reliability(qos_,
                       settings.reliable ? DDS_RELIABILITY_RELIABLE : DDS_RELIABILITY_BEST_EFFORT,
                       DDS_MSECS(100));
  if (settings.history_depth == 0) {
    dds_qset_history(qos_, DDS_HISTORY_KEEP_ALL, 0);
  } else {
    dds_qset_history(qos_, DDS_HISTORY_KEEP_LAST, static_cast<int32_t>(settings.history_depth));
  }
  dds_qset_durability(qos_, DDS_DURABILITY_VOLATILE);
}

}  // namespace mwbench::dds
