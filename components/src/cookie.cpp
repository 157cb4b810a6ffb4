// Cookies carry one 64-bit id, little-endian in their octets; the value
// factory lets omniORB unmarshal them.
#include <atomic>
#include <mutex>
#include <mwccm/cookie.hpp>

namespace mwccm {

namespace {

class CookieValue final : public virtual OBV_Components::Cookie,
                          public virtual CORBA::DefaultValueRefCountBase {
 public:
  CookieValue() = default;
  Components::Cookie* _copy_value() override {
    auto* copy = new CookieValue;
    copy->cookieValue(cookieValue());
    return copy;
  }
};

class CookieFactory final : public CORBA::ValueFactoryBase {
  CORBA::ValueBase* create_for_unmarshal() override { return new CookieValue; }
};

std::atomic<std::uint64_t> last_cookie_id{0};

}  // namespace

Components::Cookie* make_cookie(std::uint64_t id) {
  auto* cookie = new CookieValue;
  Components::OctetSeq octets(8);
  octets.length(8);
  for (CORBA::ULong i = 0; i < 8; ++i) octets[i] = static_cast<CORBA::Octet>(id >> (8 * i));
  cookie->cookieValue(octets);
  return cookie;
}

std::optional<std::uint64_t> cookie_id(const Components::Cookie* cookie) {
  if (cookie == nullptr) return std::nullopt;
  const Components::OctetSeq& octets = cookie->cookieValue();
  if (octets.length() != 8) return std::nullopt;
  std::uint64_t id = 0;
  for (CORBA::ULong i = 0; i < 8; ++i) id |= std::uint64_t{octets[i]} << (8 * i);
  return id;
}

std::uint64_t next_cookie_id() noexcept { return ++last_cookie_id; }

void register_value_factories(CORBA::ORB_ptr orb) {
  static std::once_flag once;
  std::call_once(once, [orb] {
    CORBA::ValueFactoryBase_var factory = new CookieFactory;
    CORBA::ValueFactoryBase_var previous =
        orb->register_value_factory(Components::Cookie::_PD_repoId, factory.in());
  });
}

}  // namespace mwccm
