// The component server: containers in the root POA, shutdown on request.
#include <algorithm>
#include <iostream>
#include <mwccm/component_server.hpp>
#include <mwccm/cookie.hpp>
#include <mwccm/errors.hpp>

namespace mwccm {

ComponentServer::ComponentServer(CORBA::ORB_ptr orb) : orb_(CORBA::ORB::_duplicate(orb)) {
  register_value_factories(orb);
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  root_ = PortableServer::POA::_narrow(object.in());
  PortableServer::POAManager_var manager = root_->the_POAManager();
  manager->activate();
}

ComponentServer::~ComponentServer() { remove_all(); }

Components::Deployment::ComponentServer_ptr ComponentServer::activate() {
  if (CORBA::is_nil(reference_.in())) {
    PortableServer::ObjectId_var oid = root_->activate_object(this);
    CORBA::Object_var ref = root_->id_to_reference(oid.in());
    reference_ = Components::Deployment::ComponentServer::_narrow(ref.in());
  }
  return reference_.in();
}

Container& ComponentServer::create_local_container(const std::string& name) {
  std::lock_guard lock(mutex_);
  for (const Container* c : containers_) {
    if (c->name() == name) throw Error("component server already has a container '" + name + "'");
  }
  auto* container = new Container(orb_.in(), root_.in(), name);
  PortableServer::ObjectId_var oid = root_->activate_object(container);
  CORBA::Object_var ref = root_->id_to_reference(oid.in());
  Components::Deployment::Container_var typed =
      Components::Deployment::Container::_narrow(ref.in());
  container->set_reference(typed.in());
  containers_.push_back(container);
  return *container;
}

Components::Deployment::Container_ptr ComponentServer::create_container(
    const Components::ConfigValues& config) {
  std::string name;
  for (CORBA::ULong i = 0; i < config.length(); ++i) {
    const char* value = nullptr;
    if (std::string(config[i].name.in()) != "name") {
      raise<Components::Deployment::InvalidConfiguration>(
          std::string("create_container takes only \"name\", not '") + config[i].name.in() + "'");
    }
    if (!(config[i].value >>= value)) {
      raise<Components::Deployment::InvalidConfiguration>("container \"name\" must be a string");
    }
    name = value;
  }
  if (name.empty()) {
    std::lock_guard lock(mutex_);
    name = "c" + std::to_string(++created_);
  }
  try {
    Container& container = create_local_container(name);
    return Components::Deployment::Container::_duplicate(container.reference());
  } catch (const Error& e) {
    raise<Components::CreateFailure>(e.what());
  }
}

void ComponentServer::remove_container(Components::Deployment::Container_ptr cref) {
  Container* found = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(containers_.begin(), containers_.end(), [&](const Container* c) {
      return c->reference()->_is_equivalent(cref);
    });
    if (it == containers_.end()) {
      raise<Components::RemoveFailure>("not a container of this component server");
    }
    found = *it;
    containers_.erase(it);
  }
  found->remove();
  PortableServer::ObjectId_var oid = root_->servant_to_id(found);
  root_->deactivate_object(oid.in());
  found->_remove_ref();
}

Container* ComponentServer::find_local_container(const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (Container* container : containers_) {
    if (container->name() == name) return container;
  }
  return nullptr;
}

Components::Deployment::Containers* ComponentServer::get_containers() {
  std::lock_guard lock(mutex_);
  auto* out = new Components::Deployment::Containers;
  out->length(static_cast<CORBA::ULong>(containers_.size()));
  for (CORBA::ULong i = 0; i < out->length(); ++i) {
    (*out)[i] = Components::Deployment::Container::_duplicate(containers_[i]->reference());
  }
  return out;
}

void ComponentServer::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (shutdown_requested_) return;  // a request and a stop signal may both come
    shutdown_requested_ = true;
  }
  // Removed while the ORB still serves: once it has shut down, its POAs are
  // gone, and the components could no longer be passivated and removed.
  remove_all();
  stop_orb(orb_.in());
}

void stop_orb(CORBA::ORB_ptr orb) noexcept {
  try {
    orb->shutdown(false);  // false: we may be inside an upcall
  } catch (const CORBA::BAD_INV_ORDER&) {
    // Shut down already (or destroyed): what was asked is done.
  } catch (...) {
    std::cerr << "mwccm: stopping the ORB: " << current_exception_message() << '\n';
  }
}

bool ComponentServer::shutdown_requested() const {
  std::lock_guard lock(mutex_);
  return shutdown_requested_;
}

void ComponentServer::remove_all() {
  std::vector<Container*> doomed;
  {
    std::lock_guard lock(mutex_);
    doomed.swap(containers_);
  }
  for (Container* container : doomed) {
    try {
      container->remove();
      PortableServer::ObjectId_var oid = root_->servant_to_id(container);
      root_->deactivate_object(oid.in());
    } catch (const CORBA::Exception&) {
      // The ORB has shut down already: the POAs and their objects are gone
      // with it; what is left is to release the container.
    } catch (const std::exception& e) {
      // An executor's ccm_remove that threw: the others are removed all the same.
      std::cerr << "mwccm: removing container '" << container->name() << "': " << e.what() << '\n';
    }
    container->_remove_ref();
  }
}

}  // namespace mwccm
