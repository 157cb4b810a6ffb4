// The plan check of the `channel` delivery strategy (delivery_check.hpp):
// its one property, the gateway a sink in another process is reached by.
#include <algorithm>
#include <iterator>
#include <mwccm/delivery_check.hpp>
#include <mwccm/user_input.hpp>

#include "channel_transports.hpp"

namespace mwccm {
namespace {

class ChannelCheck final : public DeliveryCheck {
 public:
  const char* name() const noexcept override { return "channel"; }
  std::vector<std::string> properties() const override { return {"gateway"}; }
  std::string refuse_value(const std::string&, const std::string& value) const override {
    const auto& known = channel_delivery::kTransports;
    if (std::find(std::begin(known), std::end(known), value) != std::end(known)) return {};
    std::string names;
    for (const char* gateway : known) names += (names.empty() ? "" : ", ") + std::string(gateway);
    return "gateway " + quote(value) + " is not one mwccm knows (" + names + ")";
  }
};

MWCCM_REGISTER_DELIVERY_CHECK(ChannelCheck);

}  // namespace
}  // namespace mwccm
