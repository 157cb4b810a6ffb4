// N plain servants of Footprint::Counter in a RETAIN/USER_ID POA: the
// baseline the components are compared with (the same POA policies as an
// mwccm container, so the difference is what the component layer adds).
#include <Footprint.hh>
#include <string>
#include <vector>

#include "host.hpp"

namespace footprint {
namespace {

class CounterServant final : public POA_Footprint::Counter {
 public:
  CORBA::ULong add(CORBA::ULong amount) override { return total_ += amount; }

 private:
  CORBA::ULong total_ = 0;
};

class PlainHost final : public Host {
 public:
  explicit PlainHost(CORBA::ORB_ptr orb) {
    CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
    PortableServer::POA_var root = PortableServer::POA::_narrow(object.in());
    PortableServer::POAManager_var manager = root->the_POAManager();
    CORBA::PolicyList policies;
    policies.length(2);
    policies[0] = root->create_servant_retention_policy(PortableServer::RETAIN);
    policies[1] = root->create_id_assignment_policy(PortableServer::USER_ID);
    poa_ = root->create_POA("plain", manager.in(), policies);
    for (CORBA::ULong i = 0; i < policies.length(); ++i) policies[i]->destroy();
    manager->activate();
  }
  ~PlainHost() override { poa_->destroy(true, true); }

  const char* kind() const override { return "plain"; }

  void host(unsigned long count) override {
    references_.reserve(count);
    for (unsigned long i = 0; i < count; ++i) {
      PortableServer::Servant_var<CounterServant> servant = new CounterServant;
      const std::string key = "counter." + std::to_string(i);
      PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(key.c_str());
      poa_->activate_object_with_id(oid.in(), servant.in());  // the POA holds it now
      CORBA::Object_var ref = poa_->id_to_reference(oid.in());
      references_.push_back(Footprint::Counter::_narrow(ref.in()));
    }
  }

  CORBA::ULong call_first() override { return references_.at(0)->add(1); }

 private:
  PortableServer::POA_var poa_;
  std::vector<Footprint::Counter_var> references_;
};

}  // namespace

std::unique_ptr<Host> make_host(CORBA::ORB_ptr orb) { return std::make_unique<PlainHost>(orb); }

}  // namespace footprint
