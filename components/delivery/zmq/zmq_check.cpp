// The plan check of the `zmq` delivery strategy (delivery_check.hpp): no
// properties; MWCCM_WITH_ZMQ says whether this build has libzmq.
#include <mwccm/delivery_check.hpp>

namespace mwccm {
namespace {

class ZmqCheck final : public DeliveryCheck {
 public:
  const char* name() const noexcept override { return "zmq"; }
  std::string unavailable() const override {
    return MWCCM_WITH_ZMQ ? ""
                          : "this mwccm was built without libzmq (configure it again with "
                            "libzmq3-dev installed)";
  }
};

MWCCM_REGISTER_DELIVERY_CHECK(ZmqCheck);

}  // namespace
}  // namespace mwccm
