// The session container: one POA, the homes installed in it, their
// components, and the lifecycle it drives (component_servant.hpp).
//
// The POA is a child of the root POA with RETAIN and USER_ID, so every object
// is found by its key: a component by "<key>", its facets and sinks by
// "<key>#<port>", a home by "home:<id>". It shares the root POA's manager:
// components are reachable exactly when the server is, and holding a single
// container is done by passivating its components (ccm_passivate), not by a
// second POA state to keep in step.
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
#include <map>
#include <memory>
#include <mutex>
#include <mwccm/channel_receivers.hpp>
#include <mwccm/component_servant.hpp>
#include <mwccm/event_channel.hpp>
#include <mwccm/home_servant.hpp>
#include <string>
#include <vector>

namespace mwccm {

class Container : public virtual POA_Components::Deployment::Container {
 public:
  // Creates the POA "mwccm-container-<name>" under `parent` (the root POA).
  Container(CORBA::ORB_ptr orb, PortableServer::POA_ptr parent, const std::string& name);
  ~Container() override;

  // Components::Deployment::Container.
  Components::CCMHome_ptr install_home(const char* id, const char* entrypoint,
                                       const Components::ConfigValues& config) override;
  void remove_home(Components::CCMHome_ptr href) override;
  Components::Deployment::CCMHomes* get_homes() override;
  Components::Deployment::CCMObjects* get_components() override;
  void activate_component(Components::CCMObject_ptr comp) override;
  void passivate_component(Components::CCMObject_ptr comp) override;
  void register_component(Components::CCMObject_ptr comp, const char* name,
                          const char* target) override;
  Components::CCMObject_ptr find_component(const char* key_or_name) override;
  Components::CCMHome_ptr find_home(const char* id) override;
  void remove() override;  // removes every component and home; the container stays usable

  // In process: the same steps without a reference.
  HomeServant& install_home_servant(const std::string& id, HomeServant* servant);  // adopts
  ComponentServant* find_servant(const std::string& key_or_name) const;  // borrowed; null if none
  // The servant behind `comp`, or null when it is not a component of this container.
  ComponentServant* servant_of(Components::CCMObject_ptr comp) const;
  HomeServant* find_home_servant(const std::string& id) const;  // borrowed; null if none
  void activate(ComponentServant& component);
  void passivate(ComponentServant& component);

  // The container's event channel (docs/events.md), made on first use; it
  // lives as long as the container, after its components.
  EventChannel& channel();
  // Its receivers from other processes' channels (docs/events.md section 4),
  // made on first use; they stop before the channel goes.
  ChannelReceivers& receivers();

  const std::string& name() const noexcept { return name_; }
  PortableServer::POA_ptr poa() const noexcept { return poa_.in(); }  // borrowed
  CORBA::ORB_ptr orb() const noexcept { return orb_.in(); }           // borrowed
  // This container's reference once the component server activated it; nil before.
  Components::Deployment::Container_ptr reference() const noexcept { return reference_.in(); }
  void set_reference(Components::Deployment::Container_ptr ref);

 private:
  friend class HomeServant;
  friend class ComponentServant;
  // HomeServant::create_*: installs `servant` (adopted) under `key`.
  Components::CCMObject_ptr add_component(HomeServant& home, ComponentServant* servant,
                                          const std::string& key);
  // ComponentServant::remove: forgets it (the servant deactivated itself).
  void forget_component(const ComponentServant& component);
  void remove_components_of(const HomeServant* home);  // null: of every home
  void remove_home_servant(HomeServant& home);

  std::unique_ptr<EventChannel> channel_;  // declared first: destroyed last
  std::once_flag channel_made_;
  std::unique_ptr<ChannelReceivers> receivers_;  // feed channel_: destroyed before it
  std::once_flag receivers_made_;
  std::string name_;
  CORBA::ORB_var orb_;
  PortableServer::POA_var poa_;
  Components::Deployment::Container_var reference_;
  mutable std::mutex mutex_;                   // the maps below; never held across an executor call
  std::map<std::string, HomeServant*> homes_;  // by id, one reference count each
  struct Installed {
    ComponentServant* servant;  // one reference count
    HomeServant* home;          // the home that created it
  };
  std::map<std::string, Installed> components_;  // by key
  std::map<std::string, std::string> aliases_;   // registered name → key
};

}  // namespace mwccm
