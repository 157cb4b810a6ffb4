// The names mwccm gives meaning to in a plan (docs/deployment.md section 1
// lists them with their DAnCE counterparts). Any other property is an
// attribute of the component (configProperty) or is read and kept only.
#pragma once

#include <string>

namespace mwccm::deployment::properties {

// implementation execParameter: the home's entry point in the artifact.
inline constexpr const char* kHomeEntrypoint = "mwccm.HomeEntrypoint";
// implementation execParameter: what the implementation makes; the only value
// besides a component (the default) is kComponentServer.
inline constexpr const char* kImplementationType = "mwccm.ImplementationType";
inline constexpr const char* kComponentServer = "mwccm.ComponentServer";

// instance configProperty: publish the component's reference.
inline constexpr const char* kRegisterNaming = "mwccm.RegisterNaming";  // a naming-service path
inline constexpr const char* kInstanceIOR = "mwccm.InstanceIOR";        // a file for its IOR

// configProperty of a component server instance: the process's real-time
// configuration (section 6).
inline constexpr const char* kPriority = "mwccm.Process.Priority";  // SCHED_FIFO priority; 0: plain
inline constexpr const char* kCpuAffinity = "mwccm.Process.CPUAffinity";  // "0" or "0,1"
inline constexpr const char* kOrbThreads = "mwccm.Process.ORBThreads";    // ORB thread pool size
// ... and where its channels receive events from other processes (docs/events.md).
inline constexpr const char* kChannelAddress = "mwccm.Channel.Address";  // the UDP receiver's
inline constexpr const char* kMulticastGroup = "mwccm.Channel.MulticastGroup";  // "GROUP:PORT"
inline constexpr const char* kMulticastInterface = "mwccm.Channel.MulticastInterface";
// ... true: an address of every interface (0.0.0.0) in the two above is meant;
// without it the check refuses one, as servers bind to loopback unless told otherwise.
inline constexpr const char* kAllowWildcard = "mwccm.Channel.AllowWildcard";
// ... and the DDS domain of its participant (`dds` delivery), 0..232.
inline constexpr const char* kDdsDomain = "mwccm.Channel.DdsDomain";

// connection deployRequirement: connect as plain C++ objects, without CORBA,
// when both ends are in one process (section 7). As DDS4CCM plans write it.
inline constexpr const char* kConnectionType = "mwccm.ConnectionType";
inline constexpr const char* kLocalInterface = "Local_Interface";

// connection deployRequirement: how the container delivers the events of
// the source to the sink (docs/events.md section 1): its resourceType names
// a registered delivery strategy (mwccm/delivery_check.hpp: the plan check
// asks it which properties it takes), kDirect when there is none. The
// properties the deployment reads: a channel's kGateway (how it reaches a
// sink in another process), a dds connection's topic and QoS.
inline constexpr const char* kEventDelivery = "mwccm.EventDelivery";
inline constexpr const char* kDirect = "direct";
inline constexpr const char* kGateway = "gateway";
inline constexpr const char* kTopic = "topic";  // default: "INSTANCE/PORT" of the source
inline constexpr const char* kReliability = "reliability";
inline constexpr const char* kReliable = "reliable";           // the default
inline constexpr const char* kHistoryDepth = "history_depth";  // KEEP_LAST N; absent: KEEP_ALL
// .config's names for those properties, after a link (a .config connection
// has properties, not requirements with properties of their own): the
// property's name after this prefix, as mwccm.EventDelivery.gateway.
inline constexpr const char* kEventDeliveryPrefix = "mwccm.EventDelivery.";
inline constexpr const char* kEventGateway = "mwccm.EventDelivery.gateway";

// instance configProperty mwccm.EventFilter.<sink>: the sink's filter
// (docs/events.md section 3), a tk_string.
inline constexpr const char* kEventFilterPrefix = "mwccm.EventFilter.";

// The mwccm name of a property DAnCE or DnCX11 spell their own way
// (edu.vanderbilt.dre.DAnCE.InstanceIOR, nl.remedy.it.DnCX11.InstanceIOR,
// ...LocalityManager.ProcessPriority, ...); any other name unchanged. The
// readers apply it, so plans written for those tools mean the same here.
const char* canonical_name(const char* name);
// The same for a value of mwccm.ImplementationType (their LocalityManager).
const char* canonical_implementation_type(const char* value);
// Whether a component instance's configProperty of this name sets an
// attribute, rather than meaning something to mwccm (registration, filters).
bool sets_an_attribute(const std::string& name);

}  // namespace mwccm::deployment::properties
