// The session container: its POA, homes and components, and the container's
// side of the lifecycle. The maps are guarded by mutex_, never held while an
// executor runs (executors may call back into the container).
#include <iostream>
#include <mwccm/container.hpp>
#include <mwccm/cookie.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/home_registry.hpp>
#include <mwccm/registration.hpp>
#include <mwccm/step_observer.hpp>

namespace mwccm {

namespace {

PortableServer::ObjectId_var object_id(const std::string& id) {
  return PortableServer::string_to_ObjectId(id.c_str());
}

std::string home_object_id(const std::string& id) { return "home:" + id; }

// The string value of config entry `name`, or "" when absent.
std::string config_string(const Components::ConfigValues& config, const char* name) {
  for (CORBA::ULong i = 0; i < config.length(); ++i) {
    if (std::string(config[i].name.in()) != name) continue;
    const char* value = nullptr;
    if (!(config[i].value >>= value)) {
      raise<Components::Deployment::InvalidConfiguration>(std::string("config value '") + name +
                                                          "' must be a string");
    }
    return value;
  }
  return {};
}

}  // namespace

Container::Container(CORBA::ORB_ptr orb, PortableServer::POA_ptr parent, const std::string& name)
    : name_(name), orb_(CORBA::ORB::_duplicate(orb)) {
  register_value_factories(orb);
  CORBA::PolicyList policies;
  policies.length(2);
  policies[0] = parent->create_servant_retention_policy(PortableServer::RETAIN);
  policies[1] = parent->create_id_assignment_policy(PortableServer::USER_ID);
  PortableServer::POAManager_var manager = parent->the_POAManager();
  poa_ = parent->create_POA(("mwccm-container-" + name).c_str(), manager.in(), policies);
  for (CORBA::ULong i = 0; i < policies.length(); ++i) policies[i]->destroy();
}

EventChannel& Container::channel() {
  std::call_once(channel_made_, [this] { channel_ = std::make_unique<EventChannel>(name_); });
  return *channel_;
}

ChannelReceivers& Container::receivers() {
  EventChannel& fed = channel();
  std::call_once(receivers_made_, [&] {
    receivers_ = std::make_unique<ChannelReceivers>(fed, orb_.in(), poa_.in());
  });
  return *receivers_;
}

// The last reference may be dropped inside an upcall, after the ORB has shut
// down and destroyed the POAs with it: nothing may escape a destructor
// (std::terminate), so what fails is said, or is already done.
Container::~Container() {
  receivers_.reset();  // no event from another process reaches a component being removed
  try {
    remove();
  } catch (...) {
    std::cerr << "mwccm: removing container '" << name_ << "': " << current_exception_message()
              << '\n';
  }
  try {
    poa_->destroy(false, false);  // not waiting: this may run inside an upcall
  } catch (const CORBA::Exception&) {
    // OBJECT_NOT_EXIST or BAD_INV_ORDER: destroyed with the ORB already.
  }
}

void Container::set_reference(Components::Deployment::Container_ptr ref) {
  reference_ = Components::Deployment::Container::_duplicate(ref);
}

Components::CCMHome_ptr Container::install_home(const char* id, const char* entrypoint,
                                                const Components::ConfigValues& config) {
  const std::string library = config_string(config, "library");
  HomeEntryPoint entry = nullptr;
  try {
    entry = find_home_entry_point(entrypoint, library);
  } catch (const EntryPointNotFound& e) {
    raise<Components::Deployment::ImplEntryPointNotFound>(e.what());
  } catch (const Error& e) {
    raise<Components::Deployment::InstallationFailure>(e.what());
  }
  HomeServant* servant = entry();
  if (servant == nullptr) {
    raise<Components::Deployment::InstallationFailure>(std::string("entry point '") + entrypoint +
                                                       "' returned no home");
  }
  try {
    return Components::CCMHome::_duplicate(install_home_servant(id, servant).reference());
  } catch (const Error& e) {
    raise<Components::Deployment::InstallationFailure>(e.what());
  }
}

HomeServant& Container::install_home_servant(const std::string& id, HomeServant* servant) {
  {
    std::lock_guard lock(mutex_);
    if (!homes_.emplace(id, servant).second) {
      servant->_remove_ref();
      throw Error("container '" + name_ + "' already has a home '" + id + "'");
    }
  }
  servant->container_ = this;
  servant->id_ = id;
  auto oid = object_id(home_object_id(id));
  poa_->activate_object_with_id(oid.in(), servant);
  CORBA::Object_var ref = poa_->id_to_reference(oid.in());
  servant->reference_ = Components::CCMHome::_unchecked_narrow(ref.in());
  return *servant;
}

void Container::remove_home(Components::CCMHome_ptr href) {
  HomeServant* found = nullptr;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, home] : homes_) {
      if (home->reference()->_is_equivalent(href)) found = home;
    }
  }
  if (found == nullptr) {
    raise<Components::RemoveFailure>("container '" + name_ + "' has no such home");
  }
  remove_home_servant(*found);
}

void Container::remove_home_servant(HomeServant& home) {
  remove_components_of(&home);
  auto oid = object_id(home_object_id(home.id()));
  poa_->deactivate_object(oid.in());
  {
    std::lock_guard lock(mutex_);
    homes_.erase(home.id());
  }
  home._remove_ref();
}

void Container::remove_components_of(const HomeServant* home) {
  std::vector<ComponentServant*> doomed;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, installed] : components_) {
      if (home == nullptr || installed.home == home) doomed.push_back(installed.servant);
    }
    for (auto* servant : doomed) servant->_add_ref();  // kept alive while removed
  }
  for (auto* servant : doomed) {
    try {
      servant->remove();
    } catch (const CORBA::Exception&) {
      // Already removed by a concurrent caller: nothing left to do.
    }
    servant->_remove_ref();
  }
}

Components::Deployment::CCMHomes* Container::get_homes() {
  std::lock_guard lock(mutex_);
  auto* out = new Components::Deployment::CCMHomes;
  out->length(static_cast<CORBA::ULong>(homes_.size()));
  CORBA::ULong i = 0;
  for (const auto& [id, home] : homes_)
    (*out)[i++] = Components::CCMHome::_duplicate(home->reference());
  return out;
}

Components::Deployment::CCMObjects* Container::get_components() {
  std::lock_guard lock(mutex_);
  auto* out = new Components::Deployment::CCMObjects;
  out->length(static_cast<CORBA::ULong>(components_.size()));
  CORBA::ULong i = 0;
  for (const auto& [key, installed] : components_) {
    (*out)[i++] = Components::CCMObject::_duplicate(installed.servant->reference());
  }
  return out;
}

// By the reference's object id, which is the component's key (this
// container's POA made it), then checked to be the same object: a reference
// from another process's container of the same name has ids of its own.
// A scan of every component would make an assembly of n components O(n²).
ComponentServant* Container::servant_of(Components::CCMObject_ptr comp) const {
  if (CORBA::is_nil(comp)) return nullptr;
  std::string key;
  try {
    PortableServer::ObjectId_var oid = poa_->reference_to_id(comp);
    CORBA::String_var text = PortableServer::ObjectId_to_string(oid.in());
    key = text.in();
  } catch (const PortableServer::POA::WrongAdapter&) {
    return nullptr;  // not an object of this container
  } catch (const CORBA::BAD_PARAM&) {
    return nullptr;  // an object id that is no string: not one of ours
  }
  std::lock_guard lock(mutex_);
  const auto found = components_.find(key);
  if (found == components_.end() || !found->second.servant->reference()->_is_equivalent(comp))
    return nullptr;
  return found->second.servant;
}

void Container::activate_component(Components::CCMObject_ptr comp) {
  ComponentServant* servant = servant_of(comp);
  if (servant == nullptr) {
    raise<Components::IllegalState>("not a component of container '" + name_ +
                                    "'; activate_component refused");
  }
  activate(*servant);
}

void Container::passivate_component(Components::CCMObject_ptr comp) {
  ComponentServant* servant = servant_of(comp);
  if (servant == nullptr) {
    raise<Components::IllegalState>("not a component of container '" + name_ +
                                    "'; passivate_component refused");
  }
  passivate(*servant);
}

void Container::activate(ComponentServant& component) { component.activate(); }
void Container::passivate(ComponentServant& component) { component.passivate(); }

void Container::register_component(Components::CCMObject_ptr comp, const char* name,
                                   const char* target) {
  ComponentServant* servant = nullptr;
  {
    ObservedStep observed(Step::RegistrationReference, name);
    servant = servant_of(comp);
  }
  if (servant == nullptr) {
    raise<Components::Deployment::RegistrationFailure>("not a component of container '" + name_ +
                                                       "'; register_component refused");
  }
  try {
    register_reference(orb_.in(), comp, target);
  } catch (const Error& e) {
    raise<Components::Deployment::RegistrationFailure>(e.what());
  }
  std::lock_guard lock(mutex_);
  aliases_[name] = servant->key();
}

ComponentServant* Container::find_servant(const std::string& key_or_name) const {
  std::lock_guard lock(mutex_);
  auto alias = aliases_.find(key_or_name);
  auto it = components_.find(alias == aliases_.end() ? key_or_name : alias->second);
  return it == components_.end() ? nullptr : it->second.servant;
}

HomeServant* Container::find_home_servant(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = homes_.find(id);
  return it == homes_.end() ? nullptr : it->second;
}

Components::CCMObject_ptr Container::find_component(const char* key_or_name) {
  ComponentServant* servant = find_servant(key_or_name);
  if (servant == nullptr) {
    raise<Components::InvalidName>("container '" + name_ + "' has no component '" + key_or_name +
                                   "'");
  }
  return Components::CCMObject::_duplicate(servant->reference());
}

Components::CCMHome_ptr Container::find_home(const char* id) {
  HomeServant* home = find_home_servant(id);
  if (home == nullptr) {
    raise<Components::InvalidName>("container '" + name_ + "' has no home '" + id + "'");
  }
  return Components::CCMHome::_duplicate(home->reference());
}

void Container::remove() {
  remove_components_of(nullptr);
  std::vector<HomeServant*> homes;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, home] : homes_) homes.push_back(home);
  }
  for (HomeServant* home : homes) remove_home_servant(*home);
}

Components::CCMObject_ptr Container::add_component(HomeServant& home, ComponentServant* servant,
                                                   const std::string& key) {
  {
    std::lock_guard lock(mutex_);
    if (!components_.emplace(key, Installed{servant, &home}).second) {
      servant->_remove_ref();
      raise<Components::CreateFailure>("container '" + name_ + "' already has a component '" + key +
                                       "'");
    }
  }
  try {
    servant->install(*this, home, key);
  } catch (const CORBA::Exception& e) {
    {
      std::lock_guard lock(mutex_);
      components_.erase(key);
    }
    servant->_remove_ref();
    raise<Components::CreateFailure>("component '" + key + "' of home '" + home.id() +
                                     "' could not be installed: " + e._name());
  }
  return Components::CCMObject::_duplicate(servant->reference());
}

void Container::forget_component(const ComponentServant& component) {
  ComponentServant* servant = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = components_.find(component.key());
    if (it == components_.end()) return;
    servant = it->second.servant;
    components_.erase(it);
    std::erase_if(aliases_, [&](const auto& alias) { return alias.second == component.key(); });
  }
  servant->_remove_ref();
}

}  // namespace mwccm
