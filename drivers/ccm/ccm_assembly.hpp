// Where the components live, and how a server tells its client where to
// find them.
//
// ComponentHost is an mwccm component server in this process with one
// container: homes are installed by entry point and components created by
// key through CORBA operations, as a deployment plan would, and then
// configured, connected and activated. A server hosts one Receiver; a
// component client one Caller; a collocated comp-comp process both, in one
// container, so the Caller's call reaches the Receiver's facet through
// omniORB's local call path and the POA, never a direct C++ call.
//
// The server publishes its endpoint as one line of "key=value" words:
// objects=<corbaloc base> (a plain server), or component=<IOR>
// container=<IOR> home_file=<path> [naming=<corbaloc> home_name=<path>]
// (a component server).
#pragma once

#include <map>
#include <mwccm/component_server.hpp>
#include <string>

#include "CcmPerf_ccm_glue.hpp"

namespace ccm_driver {

using Endpoint = std::map<std::string, std::string>;
std::string endpoint_line(const Endpoint& endpoint);
// Throws std::runtime_error naming the key when one of `required` is absent.
Endpoint parse_endpoint(const std::string& line, std::initializer_list<const char*> required);

// The key of the Receiver, which find_component looks up.
inline constexpr const char* kReceiverKey = "receiver";
inline constexpr const char* kCallerKey = "caller";

class ComponentHost {
 public:
  explicit ComponentHost(CORBA::ORB_ptr orb);  // activates the root POA's manager
  ~ComponentHost();                            // removes every component and home

  // Server: removes every component and home while the ORB still serves (once
  // it has shut down, its POAs are gone), then shuts the ORB down. From any
  // thread; the stop callback of a component server.
  void shutdown() { server_->shutdown(); }
  ComponentHost(const ComponentHost&) = delete;
  ComponentHost& operator=(const ComponentHost&) = delete;

  // A Receiver configured by name (verify, payload_bytes); not yet activated.
  CcmPerf::Receiver_ptr create_receiver(bool verify, std::uint64_t payload_bytes);
  // A Caller; not yet activated.
  CcmPerf::Caller_ptr create_caller();
  // configuration_complete, then the container activates it.
  void activate(Components::CCMObject_ptr component);

  // The executor behind a component of this process (borrowed: lives as long
  // as the component). The measuring thread calls a Caller's directly.
  template <class Executor>
  Executor& executor(const char* key) {
    mwccm::ComponentServant* servant = container_->find_servant(key);
    auto* executor = servant ? dynamic_cast<Executor*>(servant->executor()) : nullptr;
    if (executor == nullptr) throw std::runtime_error(std::string("no component ") + key);
    return *executor;
  }

  Components::Deployment::Container_ptr container() const { return container_->reference(); }
  Components::CCMHome_ptr receiver_home() const { return receiver_home_.in(); }  // borrowed

 private:
  PortableServer::Servant_var<mwccm::ComponentServer> server_;
  mwccm::Container* container_;  // owned by server_
  Components::CCMHome_var receiver_home_;
};

}  // namespace ccm_driver
