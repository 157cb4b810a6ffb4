// Receptacles: what a component uses. SimplexReceptacle holds at most one
// connection, MultiplexReceptacle any number, each with a cookie.
//
// A connection reaches its facet in one of two ways, and the executor sees
// no difference: through its executor interface `Local` (CCM_<Interface>).
// - CORBA: the receptacle holds the facet's reference, and a `Local` that
//   forwards each operation to it (the glue's <Interface>_forward), so a
//   call costs one virtual call more than calling the stub.
// - plain C++ (a plan's Local_Interface connection, both components in this
//   process): the receptacle holds the facet's executor itself and calls it
//   directly; no servant, no POA, no reference. Navigation still answers
//   with the facet's reference, made when it is asked for.
//
// The hot path is borrow() / for_each(): one atomic load, no lock, no
// allocation, no _duplicate. That is safe because a disconnected entry is
// retired, not released, until the receptacle is destroyed with its
// component (detail/snapshot_list.hpp). get_connection() is the CCM-style
// accessor that returns a new reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mwccm/cookie.hpp>
#include <mwccm/detail/port_errors.hpp>
#include <mwccm/detail/snapshot_list.hpp>
#include <mwccm/port.hpp>
#include <vector>

namespace mwccm {

namespace detail {

// One connection of a receptacle, whichever way it was made.
template <class T, class Local>
struct ReceptacleEntry {
  typename T::_var_type ref;            // nil for a plain C++ connection
  typename Local::_var_type user;       // what the executor calls
  std::shared_ptr<ProvidedPort> plain;  // the facet of a plain C++ connection
  std::uint64_t cookie = 0;             // 0 for a simplex receptacle

  // The facet's reference (a new one), made on demand for a plain connection.
  CORBA::Object_ptr reference() const {
    return CORBA::Object::_duplicate(plain ? plain->reference() : ref.in());
  }
};

// The facet executor of `facet` as this receptacle's executor interface;
// InvalidConnection naming both ends if it is not one.
template <class Local>
typename Local::_ptr_type plain_user(const Port& receptacle, const ProvidedPort& facet) {
  auto* local = dynamic_cast<typename Local::_ptr_type>(facet.executor());
  if (local == nullptr) detail::not_plain(receptacle, facet.describe(), Local::_PD_repoId);
  return Local::_duplicate(local);
}

}  // namespace detail

template <class T, class Local>
class SimplexReceptacle final : public ReceptaclePort {
 public:
  using ptr_type = typename T::_ptr_type;
  using local_ptr = typename Local::_ptr_type;
  // Makes the executor side of a CORBA connection (the glue's forwarder).
  using Forward = local_ptr (*)(ptr_type);

  SimplexReceptacle(const char* name, Forward forward)
      : ReceptaclePort(name, Components::SIMPLEX_RECEPTACLE, T::_PD_repoId), forward_(forward) {}

  // Typed connect (connect_<name>): the IDL type already holds, so no _is_a.
  void connect(ptr_type ref) {
    if (CORBA::is_nil(ref)) detail::nil_reference(*this, operation("connect_").c_str());
    Entry entry{T::_duplicate(ref), forward_(ref), nullptr, 0};
    add(std::move(entry));
  }

  Components::Cookie* connect_plain(std::shared_ptr<ProvidedPort> facet) override {
    Entry entry{T::_nil(), detail::plain_user<Local>(*this, *facet), std::move(facet), 0};
    add(std::move(entry));
    return nullptr;  // a simplex connection has no cookie
  }

  // Returns the former CORBA connection (the caller releases it): nil for a
  // plain one; NoConnection if none.
  ptr_type disconnect() {
    ptr_type former = T::_nil();
    list_.update([&](std::vector<Entry>& entries) {
      if (entries.empty()) detail::not_connected(*this, operation("disconnect_").c_str());
      former = T::_duplicate(entries.front().ref.in());
      entries.clear();
    });
    return former;
  }

  // CCM style (get_connection_<name>): a new reference, nil when unconnected.
  ptr_type get_connection() const {
    const auto& entries = list_.snapshot();
    if (entries.empty()) return T::_nil();
    CORBA::Object_var ref = entries.front().reference();
    return T::_unchecked_narrow(ref.in());
  }

  // Hot path: borrowed, valid until the component is destroyed; nil when unconnected.
  local_ptr borrow() const noexcept {
    const auto& entries = list_.snapshot();
    return entries.empty() ? Local::_nil() : entries.front().user.in();
  }

  // Borrowed like borrow(), but an unconnected receptacle raises NoConnection.
  local_ptr connected() const {
    const auto& entries = list_.snapshot();
    if (entries.empty()) detail::not_connected(*this, "use");
    return entries.front().user.in();
  }

  bool is_connected() const noexcept { return !list_.snapshot().empty(); }

  Components::Cookie* connect_object(CORBA::Object_ptr ref) override {
    check_type(ref, "connect");
    typename T::_var_type typed = T::_unchecked_narrow(ref);
    connect(typed.in());
    return nullptr;  // a simplex connection has no cookie
  }

  CORBA::Object_ptr disconnect_object(Components::Cookie*) override { return disconnect(); }

  Components::ConnectionDescriptions describe_connections() const override {
    Components::ConnectionDescriptions out;
    if (const auto& entries = list_.snapshot(); !entries.empty()) {
      out.length(1);
      out[0].objref = entries.front().reference();
    }
    return out;
  }

 private:
  using Entry = detail::ReceptacleEntry<T, Local>;

  void add(Entry entry) {
    list_.update([&](std::vector<Entry>& entries) {
      if (!entries.empty()) detail::already_connected(*this, operation("connect_").c_str());
      entries.push_back(std::move(entry));
    });
  }
  std::string operation(const char* prefix) const { return prefix + name(); }

  Forward forward_;
  detail::SnapshotList<Entry> list_;
};

template <class T, class Local>
class MultiplexReceptacle final : public ReceptaclePort {
 public:
  using ptr_type = typename T::_ptr_type;
  using local_ptr = typename Local::_ptr_type;
  using Forward = local_ptr (*)(ptr_type);
  // `user` is what the executor calls; `ref` is nil for a plain connection.
  using Connection = detail::ReceptacleEntry<T, Local>;

  MultiplexReceptacle(const char* name, Forward forward,
                      std::size_t limit = std::numeric_limits<std::size_t>::max())
      : ReceptaclePort(name, Components::MULTIPLEX_RECEPTACLE, T::_PD_repoId),
        forward_(forward),
        limit_(limit) {}

  // Typed connect (connect_<name>): returns the connection's cookie.
  Components::Cookie* connect(ptr_type ref) {
    if (CORBA::is_nil(ref)) detail::nil_reference(*this, operation("connect_").c_str());
    return add(Connection{T::_duplicate(ref), forward_(ref), nullptr, 0});
  }

  Components::Cookie* connect_plain(std::shared_ptr<ProvidedPort> facet) override {
    local_ptr user = detail::plain_user<Local>(*this, *facet);
    return add(Connection{T::_nil(), user, std::move(facet), 0});
  }

  // Returns the CORBA connection the cookie named (the caller releases it;
  // nil for a plain one). CookieRequired for a null cookie, InvalidConnection
  // for one not of this port.
  ptr_type disconnect(Components::Cookie* ck) {
    if (ck == nullptr) detail::cookie_required(*this, operation("disconnect_").c_str());
    const auto id = cookie_id(ck);
    ptr_type former = T::_nil();
    list_.update([&](std::vector<Connection>& entries) {
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (id && it->cookie == *id) {
          former = T::_duplicate(it->ref.in());
          entries.erase(it);
          return;
        }
      }
      detail::bad_cookie(*this, operation("disconnect_").c_str());
    });
    return former;
  }

  // Hot path: the current connections, borrowed (valid until the component is destroyed).
  const std::vector<Connection>& connections() const noexcept { return list_.snapshot(); }
  template <class F>
  void for_each(F&& f) const {
    for (const Connection& c : list_.snapshot()) f(c.user.in());
  }
  std::size_t size() const noexcept { return list_.snapshot().size(); }

  Components::Cookie* connect_object(CORBA::Object_ptr ref) override {
    check_type(ref, "connect");
    typename T::_var_type typed = T::_unchecked_narrow(ref);
    return connect(typed.in());
  }

  CORBA::Object_ptr disconnect_object(Components::Cookie* ck) override { return disconnect(ck); }

  Components::ConnectionDescriptions describe_connections() const override {
    const auto& entries = list_.snapshot();
    Components::ConnectionDescriptions out;
    out.length(static_cast<CORBA::ULong>(entries.size()));
    for (CORBA::ULong i = 0; i < out.length(); ++i) {
      out[i].ck = make_cookie(entries[i].cookie);
      out[i].objref = entries[i].reference();
    }
    return out;
  }

 private:
  Components::Cookie* add(Connection connection) {
    connection.cookie = next_cookie_id();
    const std::uint64_t id = connection.cookie;
    list_.update([&](std::vector<Connection>& entries) {
      if (entries.size() >= limit_)
        detail::connection_limit(*this, limit_, operation("connect_").c_str());
      entries.push_back(std::move(connection));
    });
    return make_cookie(id);
  }
  std::string operation(const char* prefix) const { return prefix + name(); }

  Forward forward_;
  std::size_t limit_;
  detail::SnapshotList<Connection> list_;
};

}  // namespace mwccm
