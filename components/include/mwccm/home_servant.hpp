// The base of every generated home servant: implements Components::KeylessCCMHome
// (which, in mwccm, derives from CCMHome). The generated home servant derives from it and
// from POA_<Module>::<Home>, owns the home executor, and overrides
// create_component_servant(); its typed create() is create_typed<T>().
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
#include <atomic>
#include <string>

namespace mwccm {

class ComponentServant;
class Container;

class HomeServant : public virtual POA_Components::KeylessCCMHome {
 public:
  ~HomeServant() override;

  // A new component, installed in this home's container under the key
  // "<home id>.<n>" (create_component) or `key`. CreateFailure if the key is
  // taken or the glue fails.
  Components::CCMObject_ptr create_component() override;
  Components::CCMObject_ptr create_named_component(const char* key) override;
  void remove_component(Components::CCMObject_ptr comp) override;

  PortableServer::POA_ptr _default_POA() override;

  const std::string& id() const noexcept { return id_; }  // as given to install_home
  Container& container() const;                           // IllegalState before install
  Components::CCMHome_ptr reference() const noexcept { return reference_.in(); }  // borrowed

 protected:
  HomeServant();

  // Glue: a new component servant (reference count 1, passed to the caller)
  // around a new executor from the home executor.
  virtual ComponentServant* create_component_servant() = 0;

  // Glue's typed create(): create_component() narrowed to T.
  template <class T>
  typename T::_ptr_type create_typed() {
    Components::CCMObject_var created = create_component();
    return T::_narrow(created.in());
  }

 private:
  friend class Container;
  Container* container_ = nullptr;
  std::string id_;
  Components::CCMHome_var reference_;
  std::atomic<unsigned long> created_{0};
};

}  // namespace mwccm
