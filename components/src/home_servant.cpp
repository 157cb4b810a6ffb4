// HomeServant: creates components through the glue and hands them to its container.
#include <mwccm/component_servant.hpp>
#include <mwccm/container.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/home_servant.hpp>

namespace mwccm {

HomeServant::HomeServant() = default;
HomeServant::~HomeServant() = default;

Container& HomeServant::container() const {
  if (container_ == nullptr) {
    raise<Components::IllegalState>("home '" + id_ + "' is not installed in a container");
  }
  return *container_;
}

Components::CCMObject_ptr HomeServant::create_component() {
  return create_named_component((id_ + "." + std::to_string(++created_)).c_str());
}

Components::CCMObject_ptr HomeServant::create_named_component(const char* key) {
  Container& where = container();
  ComponentServant* servant = nullptr;
  try {
    servant = create_component_servant();
  } catch (const CORBA::UserException& e) {
    raise<Components::CreateFailure>("home '" + id_ + "' could not create component '" + key +
                                     "': the executor raised " + e._name());
  }
  if (servant == nullptr) {
    raise<Components::CreateFailure>("home '" + id_ + "' made no servant for component '" + key +
                                     "'");
  }
  return where.add_component(*this, servant, key);
}

void HomeServant::remove_component(Components::CCMObject_ptr comp) {
  ComponentServant* servant = container().servant_of(comp);
  if (servant == nullptr) {
    raise<Components::RemoveFailure>("home '" + id_ + "': not a component of its container");
  }
  servant->remove();
}

PortableServer::POA_ptr HomeServant::_default_POA() {
  if (container_ != nullptr) return PortableServer::POA::_duplicate(container_->poa());
  return PortableServer::ServantBase::_default_POA();
}

}  // namespace mwccm
