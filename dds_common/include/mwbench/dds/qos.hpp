// The QoS of a reader or writer, from the two settings mwbench's users of
// DDS choose: reliability and history. Durability is always volatile: a
// reader gets what is written after it matched, never older samples.
#pragma once

#include <cstdint>

#include "dds/dds.h"

namespace mwbench::dds {

struct QosSettings {
  bool reliable = true;
  std::uint32_t history_depth = 0;  // KEEP_LAST depth; 0: KEEP_ALL
};

class Qos {
 public:
  explicit Qos(const QosSettings& settings);
  ~Qos() { dds_delete_qos(qos_); }
  Qos(const Qos&) = delete;
  Qos& operator=(const Qos&) = delete;
  const dds_qos_t* get() const noexcept { return qos_; }

 private:
  dds_qos_t* qos_;
};

}  // namespace mwbench::dds
