// The plan check of the `direct` delivery strategy (delivery_check.hpp): no
// properties, and its sinks are called, not fed by a channel.
#include <mwccm/delivery_check.hpp>

namespace mwccm {
namespace {

class DirectCheck final : public DeliveryCheck {
 public:
  const char* name() const noexcept override { return "direct"; }
  bool feeds_channels() const noexcept override { return false; }
};

MWCCM_REGISTER_DELIVERY_CHECK(DirectCheck);

}  // namespace
}  // namespace mwccm
