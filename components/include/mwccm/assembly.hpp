// Assembly by name: the generic steps a deployment plan drives, on component
// servers anywhere (this process or others), with no generated code.
//
//   mwccm::Assembly assembly(orb);
//   assembly.add_server("node-a", "file:/tmp/a.ior");
//   assembly.create_container("node-a", "a");
//   assembly.install_home("a", "echo-home", "mwccm_home_Example_EchoHome", "/path/libecho.so");
//   assembly.create_component("echo-home", "echo");
//   assembly.configure("echo", {{"greeting", any}});
//   assembly.connect({"pinger", "peer"}, {"echo", "control"});   // receptacle ← facet
//   assembly.subscribe({"pinger", "ticks"}, {"echo", "ticks"});  // source → sink
//   assembly.connect_plain({"hud", "airframe"}, {"airframe", "position"});  // no CORBA
//   assembly.activate();                                         // configuration_complete,
//   activate
//   ...
//   assembly.remove();                                           // undo, in reverse order
//
// Every step is a CORBA operation of Components.idl, but plain C++
// connections, which need both components in this process (a server added
// with add_local_server) and go to their ports directly. Servers, containers,
// homes and component instances are named by the caller; names are unique in
// one Assembly. Every refusal is the CCM exception the step raised, with the
// step (and so both ends of a connection) put before its message:
//   "connect receptacle 'peer' of 'pinger' to facet 'control' of 'echo': ..."
// A name this Assembly does not know is InvalidName. Not thread-safe: one
// thread drives one assembly, as a plan engine does.
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
#include <map>
#include <memory>
#include <mwccm/component_server.hpp>
#include <mwccm/event_filter.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mwccm {

class Delivery;         // delivery.hpp
class DeliveryWiring;   // delivery.hpp
struct WiringSettings;  // delivery.hpp

// One port of one component instance of the assembly, by name.
struct PortEnd {
  std::string component;
  std::string port;
};

class Assembly {
 public:
  explicit Assembly(CORBA::ORB_ptr orb);  // registers the Cookie value factory
  ~Assembly();                            // forgets references; remove() tears down
  Assembly(const Assembly&) = delete;
  Assembly& operator=(const Assembly&) = delete;

  void add_server(const std::string& server, Components::Deployment::ComponentServer_ptr ref);
  // A server in this process: its components can also be connected as plain C++.
  void add_local_server(const std::string& server, ComponentServer& local);
  // `target` as registration.hpp reads it: "file:PATH", "naming:a/b", a bare path.
  void add_server(const std::string& server, const std::string& target);
  void create_container(const std::string& server, const std::string& container);
  // `library` names the shared library to load; empty when the entry point is
  // linked into the server (static assembly).
  void install_home(const std::string& container, const std::string& home,
                    const std::string& entrypoint, const std::string& library);
  void create_component(const std::string& home, const std::string& component);
  void configure(const std::string& component,
                 const std::vector<std::pair<std::string, CORBA::Any>>& values);
  // provide_facet on the provider, connect on the user's receptacle.
  void connect(const PortEnd& receptacle, const PortEnd& facet);
  // get_consumer on the sink, subscribe on the publisher.
  void subscribe(const PortEnd& publisher, const PortEnd& sink);
  // The same as plain C++ objects (a plan's Local_Interface connection): the
  // receptacle calls the facet's executor, the source the sink's, with no
  // servant, POA or reference for the facet or the sink. Both components on
  // local servers (InvalidName otherwise); undone by remove() as the others.
  void connect_plain(const PortEnd& receptacle, const PortEnd& facet);
  void subscribe_plain(const PortEnd& source, const PortEnd& sink);
  // Through the source's container's event channel (docs/events.md): the
  // channel calls the sink, filtered, with the pushed event. Both in this
  // process, as for plain connections; undone by remove().
  void subscribe_channel(const PortEnd& source, const PortEnd& sink, const EventFilter& filter);
  // Across processes (docs/events.md section 4). The sink's side: its
  // container's channel feeds it with the events of `supplier`
  // ("instance.port", in another process), filtered, received through the
  // receiver of `gateway` ("iiop", "udp", "multicast", or "dds": the reader
  // of `topic`), whose endpoint this returns; remove() undoes it first. The
  // source's side: its container's channel sends its events through
  // `gateway` (made from that endpoint, or the writer of the topic).
  std::string accept_channel(const std::string& supplier, const PortEnd& sink,
                             const EventFilter& filter, const std::string& gateway,
                             const ReceiverSettings& settings, const DdsTopic& topic = {});
  void route_channel(const PortEnd& source, std::shared_ptr<Gateway> gateway,
                     const PortEnd& provider);
  // The one path of an event connection by delivery strategy (delivery.hpp:
  // connect_local, accept, route), as the deployment and the ccmevents
  // driver make theirs: the strategy's wiring of this assembly, one per
  // strategy, transport and topic, made on first use and kept until
  // remove() (what its connections share lives there: a gateway per
  // endpoint, a writer per topic). A strategy of one transport is wired by
  // it whatever settings.transport says.
  DeliveryWiring& wiring(const Delivery& strategy, const WiringSettings& settings);
  // Once every connection is wired: each wiring's finish() (a DDS writer
  // waits for its readers); std::runtime_error if one cannot deliver.
  void finish_wiring();
  // configuration_complete on every component not yet configured, then
  // activate_component on every component not yet active, in creation order
  // (so components created later are activated by a second call).
  void activate();

  // Ends in other processes (a plan's connections across component servers):
  // what this assembly's components provide, and connecting to what others
  // provide. `provider` names the far end in messages and in remove().
  CORBA::Object_ptr provide(const PortEnd& facet);                  // a new reference
  Components::EventConsumerBase_ptr consumer(const PortEnd& sink);  // a new reference
  void connect_to(const PortEnd& receptacle, CORBA::Object_ptr facet, const PortEnd& provider);
  void subscribe_to(const PortEnd& publisher, Components::EventConsumerBase_ptr sink,
                    const PortEnd& provider);
  void register_component(const std::string& component, const std::string& target);

  // The container of a component on a local server (a delivery strategy's
  // receivers are there); InvalidName otherwise.
  Container& local_container(const std::string& component) const;

  // Borrowed references; InvalidName for a name this assembly does not know.
  Components::CCMObject_ptr component(const std::string& name) const;
  Components::Deployment::ComponentServer_ptr server(const std::string& name) const;

  // Undoes the assembly in D&C's teardown order: passivates the active
  // components (so no executor pushes or calls through a port being
  // disconnected), unsubscribes and disconnects, removes every component,
  // then every container; each in reverse order of creation. Stops at the
  // first refusal (the exception says which step).
  void remove();
  // ComponentServer::shutdown on every server, then forgets them.
  void shutdown_servers();

 private:
  struct Connection {
    PortEnd user;                   // the receptacle or the publisher
    PortEnd provider;               // the facet or the sink
    bool subscription;              // publisher → sink, else receptacle ← facet
    Components::Cookie_var cookie;  // null for a simplex receptacle
  };
  struct Installed {
    Components::CCMObject_var ref;
    std::string container;
    bool configured = false;
    bool active = false;
  };
  template <class T>
  const T& find(const std::map<std::string, T>& in, const std::string& name,
                const char* what) const;
  template <class Connect>
  void record(const PortEnd& user, const PortEnd& provider, bool subscription,
              const std::string& step, Connect&& connect);
  // The servant of a component on a local server, and its container;
  // InvalidName otherwise.
  ComponentServant& local_servant(const std::string& component) const;

  CORBA::ORB_var orb_;
  std::map<std::string, Components::Deployment::ComponentServer_var> servers_;
  std::map<std::string, ComponentServer*> local_servers_;  // borrowed
  std::map<std::string, Components::Deployment::Container_var> containers_;
  std::map<std::string, std::string> container_servers_;  // container → its server
  std::map<std::string, Components::KeylessCCMHome_var> homes_;
  std::map<std::string, std::string> home_containers_;  // home → its container
  std::map<std::string, Installed> components_;
  std::vector<std::string> creation_order_;
  std::vector<Connection> connections_;
  struct Inbound {
    std::string component;  // the sink's, whose container's channel holds the route
    std::string supplier;
    std::uint64_t route;
  };
  std::vector<Inbound> inbound_;
  // Last: the strategies' wirings go before the connections they made.
  std::map<std::string, std::unique_ptr<DeliveryWiring>> wirings_;
};

}  // namespace mwccm
