// The component server: hosts containers. The same class serves in process
// (tests, a statically assembled program) and in mwccm-component-server.
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
#include <mutex>
#include <mwccm/container.hpp>
#include <string>
#include <vector>

namespace mwccm {

class ComponentServer : public virtual POA_Components::Deployment::ComponentServer {
 public:
  // Registers the value factories and activates the root POA's manager.
  explicit ComponentServer(CORBA::ORB_ptr orb);
  ~ComponentServer() override;

  // Activates this server in the root POA; returns its reference (borrowed).
  Components::Deployment::ComponentServer_ptr activate();

  // Components::Deployment::ComponentServer. create_container reads the
  // optional config value "name" (string); the default is "c<n>".
  Components::Deployment::Container_ptr create_container(
      const Components::ConfigValues& config) override;
  void remove_container(Components::Deployment::Container_ptr cref) override;
  Components::Deployment::Containers* get_containers() override;
  // Removes every component and container (remove_all), then asks the ORB to
  // stop (orb->run() returns). Callable in an upcall and from any thread.
  void shutdown() override;

  // In process.
  Container& create_local_container(const std::string& name);
  // The container of that name, borrowed; null if there is none.
  Container* find_local_container(const std::string& name) const;
  // Removes every component, home and container; idempotent. Best while the
  // ORB still runs (shutdown() does it then); after the ORB has shut down,
  // its POAs are gone and this only releases the containers.
  void remove_all();
  bool shutdown_requested() const;
  CORBA::ORB_ptr orb() const noexcept { return orb_.in(); }  // borrowed

 private:
  CORBA::ORB_var orb_;
  PortableServer::POA_var root_;
  Components::Deployment::ComponentServer_var reference_;
  mutable std::mutex mutex_;
  std::vector<Container*> containers_;  // one reference count each
  unsigned long created_ = 0;
  bool shutdown_requested_ = false;
};

// Asks `orb` to stop serving without waiting for it (the caller may be inside
// an upcall); an ORB that has stopped already (a shutdown request and a stop
// signal may both come) is left so. What a process's stop path calls, which
// nothing may escape.
void stop_orb(CORBA::ORB_ptr orb) noexcept;

}  // namespace mwccm
