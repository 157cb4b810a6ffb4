// N Unit components (one facet each) in one mwccm container, each created,
// configured and activated through the generic steps, as a component server
// hosts them.
#include <Unit_ccm.hh>
#include <mwccm/component_server.hpp>
#include <vector>

#include "host.hpp"

namespace footprint {
namespace {

class ComponentHost final : public Host {
 public:
  explicit ComponentHost(CORBA::ORB_ptr orb) : server_(new mwccm::ComponentServer(orb)) {
    container_ = &server_->create_local_container("footprint");
    const Components::ConfigValues linked_in;  // the Unit home is linked into this program
    Components::CCMHome_var home =
        container_->install_home("unit-home", "mwccm_home_Footprint_UnitHome", linked_in);
    home_ = Components::KeylessCCMHome::_narrow(home.in());
  }
  ~ComponentHost() override { server_->remove_all(); }

  const char* kind() const override { return "components"; }

  void host(unsigned long count) override {
    references_.reserve(count);
    for (unsigned long i = 0; i < count; ++i) {
      Components::CCMObject_var component = home_->create_component();
      component->configuration_complete();
      container_->activate_component(component.in());
      references_.push_back(component._retn());
    }
  }

  CORBA::ULong call_first() override {
    CORBA::Object_var facet = references_.at(0)->provide_facet("counter");
    Footprint::Counter_var counter = Footprint::Counter::_narrow(facet.in());
    return counter->add(1);
  }

 private:
  PortableServer::Servant_var<mwccm::ComponentServer> server_;
  mwccm::Container* container_ = nullptr;  // owned by server_
  Components::KeylessCCMHome_var home_;
  std::vector<Components::CCMObject_var> references_;
};

}  // namespace

std::unique_ptr<Host> make_host(CORBA::ORB_ptr orb) { return std::make_unique<ComponentHost>(orb); }

}  // namespace footprint
