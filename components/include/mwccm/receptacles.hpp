// Receptacles: the references a component uses. SimplexReceptacle holds at
// most one, MultiplexReceptacle any number, each with a cookie.
//
// The hot path is borrow() / for_each(): one atomic load, no lock, no
// allocation, no _duplicate. That is safe because a disconnected reference is
// retired, not released, until the receptacle is destroyed with its
// component (detail/snapshot_list.hpp). get_connection() is the CCM-style
// accessor that returns a new reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <mwccm/cookie.hpp>
#include <mwccm/detail/port_errors.hpp>
#include <mwccm/detail/snapshot_list.hpp>
#include <mwccm/port.hpp>
#include <vector>

namespace mwccm {

template <class T>
class SimplexReceptacle final : public ReceptaclePort {
 public:
  using ptr_type = typename T::_ptr_type;

  explicit SimplexReceptacle(const char* name)
      : ReceptaclePort(name, Components::SIMPLEX_RECEPTACLE, T::_PD_repoId) {}

  // Typed connect (connect_<name>): the IDL type already holds, so no _is_a.
  void connect(ptr_type ref) {
    if (CORBA::is_nil(ref)) detail::nil_reference(*this, operation("connect_").c_str());
    list_.update([&](std::vector<Entry>& entries) {
      if (!entries.empty()) detail::already_connected(*this, operation("connect_").c_str());
      entries.push_back(Entry{T::_duplicate(ref)});
    });
  }

  // Returns the former connection (the caller releases it); NoConnection if none.
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
  ptr_type get_connection() const { return T::_duplicate(borrow()); }

  // Hot path: borrowed, valid until the component is destroyed; nil when unconnected.
  ptr_type borrow() const noexcept {
    const auto& entries = list_.snapshot();
    return entries.empty() ? T::_nil() : entries.front().ref.in();
  }

  // Borrowed like borrow(), but an unconnected receptacle raises NoConnection.
  ptr_type connected() const {
    const auto& entries = list_.snapshot();
    if (entries.empty()) detail::not_connected(*this, "use");
    return entries.front().ref.in();
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
      out[0].objref = CORBA::Object::_duplicate(entries.front().ref.in());
    }
    return out;
  }

 private:
  struct Entry {
    typename T::_var_type ref;
  };
  std::string operation(const char* prefix) const { return prefix + name(); }

  detail::SnapshotList<Entry> list_;
};

template <class T>
class MultiplexReceptacle final : public ReceptaclePort {
 public:
  using ptr_type = typename T::_ptr_type;
  struct Connection {
    typename T::_var_type ref;
    std::uint64_t cookie;
  };

  explicit MultiplexReceptacle(const char* name,
                               std::size_t limit = std::numeric_limits<std::size_t>::max())
      : ReceptaclePort(name, Components::MULTIPLEX_RECEPTACLE, T::_PD_repoId), limit_(limit) {}

  // Typed connect (connect_<name>): returns the connection's cookie.
  Components::Cookie* connect(ptr_type ref) {
    if (CORBA::is_nil(ref)) detail::nil_reference(*this, operation("connect_").c_str());
    const std::uint64_t id = next_cookie_id();
    list_.update([&](std::vector<Connection>& entries) {
      if (entries.size() >= limit_)
        detail::connection_limit(*this, limit_, operation("connect_").c_str());
      entries.push_back(Connection{T::_duplicate(ref), id});
    });
    return make_cookie(id);
  }

  // Returns the connection the cookie named (the caller releases it).
  // CookieRequired for a null cookie, InvalidConnection for one not of this port.
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
    for (const Connection& c : list_.snapshot()) f(c.ref.in());
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
      out[i].objref = CORBA::Object::_duplicate(entries[i].ref.in());
    }
    return out;
  }

 private:
  std::string operation(const char* prefix) const { return prefix + name(); }

  std::size_t limit_;
  detail::SnapshotList<Connection> list_;
};

}  // namespace mwccm
