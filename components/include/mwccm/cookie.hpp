// Cookies: the Components::Cookie valuetype that names one connection of a
// multiplex receptacle or one subscription of a publisher. mwccm puts a
// process-wide unique 64-bit number in it, so a cookie of one port is never
// taken for a connection of another.
#pragma once

#include <Components.hh>
#include <cstdint>
#include <optional>

namespace mwccm {

// A new cookie carrying `id` (the caller owns the reference).
Components::Cookie* make_cookie(std::uint64_t id);

// The id a cookie carries; nullopt for a null or foreign cookie.
std::optional<std::uint64_t> cookie_id(const Components::Cookie* cookie);

// A fresh id, unique in this process.
std::uint64_t next_cookie_id() noexcept;

// Registers the Cookie value factory with `orb`, once per process: without
// it omniORB cannot unmarshal a cookie. Container and ComponentServer call it;
// a client that receives cookies (a deployment engine) calls it after ORB_init.
void register_value_factories(CORBA::ORB_ptr orb);

}  // namespace mwccm
