#include "omniorb_session.hpp"

#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <new>
#include <string_view>
#include <system_error>

#include "omniorb_memory.hpp"

extern char** environ;

namespace omniorb_driver {

namespace {

// omniORB also reads $OMNIORB_CONFIG (default /etc/omniORB.cfg) and one
// environment variable ORB<key> per option; option lists from those would be
// merged with ours (endPoint, for one, adds up). Hide both from ORB_init.
void ignore_outside_configuration() {
  setenv("OMNIORB_CONFIG", "/dev/null", 1);
  std::vector<std::string> names;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    if (text.starts_with("ORB")) names.emplace_back(text.substr(0, text.find('=')));
  }
  for (const auto& name : names) unsetenv(name.c_str());
}

std::string make_socket_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mwbench-omniorb-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + dir);
  }
  return dir;
}

OrbSession::OptionList build_options(const OrbSettings& settings, const std::string& socket_path) {
  OrbSession::OptionList options;
  // On --bind only (loopback by default), port 0: the kernel picks a free
  // port. omniORB puts the host of its endpoint in every reference it makes,
  // so the published corbaloc carries the address too. A collocated ORB
  // listens (omniORB needs an endpoint to make references) but is never
  // called through it. A client ORB opens its endpoint only if it activates
  // objects (drivers/ccm's component client, which is called back); without
  // one, omniORB would listen on every interface.
  const std::string tcp_endpoint = "giop:tcp:" + settings.address + ":";
  switch (settings.role) {
    case mwbench::Role::server:
      options.emplace_back("endPoint",
                           settings.transport == "uds" ? "giop:unix:" + socket_path : tcp_endpoint);
      break;
    case mwbench::Role::collocated:
      options.emplace_back("endPoint", tcp_endpoint);
      // No transport at all for outgoing calls: if omniORB did not recognise
      // its own object and took a socket instead of the local call path, the
      // first call fails instead of measuring loopback TCP.
      options.emplace_back("clientTransportRule", "* none");
      break;
    case mwbench::Role::client:
      options.emplace_back("endPoint", tcp_endpoint);
      // Only the transport under test, so a fallback cannot go unnoticed
      // (omniORB's own word for a Unix-domain socket is "unix").
      options.emplace_back("clientTransportRule",
                           settings.transport == "uds" ? "* unix" : "* " + settings.transport);
      // A corbaloc reference has no type; by default omniORB would send a
      // LocateRequest before the first call on each one, so with random
      // targets many measured calls would be two round trips.
      options.emplace_back("verifyObjectExistsAndType", "0");
      // The connections of --threads: omniORB opens one more whenever all
      // are busy, up to maxGIOPConnectionPerServer. own: one call at a time
      // on each, so N threads keep N connections; shared: one connection,
      // which carries the calls of all threads interleaved.
      options.emplace_back("oneCallPerConnection", settings.own_connections ? "1" : "0");
      options.emplace_back("maxGIOPConnectionPerServer",
                           std::to_string(settings.own_connections ? settings.client_threads : 1));
      break;
  }
  if (settings.role != mwbench::Role::client) {
    options.emplace_back("threadPerConnectionPolicy", settings.thread_per_connection ? "1" : "0");
    if (!settings.thread_per_connection && settings.pool_size != 0) {
      options.emplace_back("maxServerThreadPoolSize", std::to_string(settings.pool_size));
    }
  }
  options.insert(options.end(), settings.extra_options.begin(), settings.extra_options.end());
  return options;
}

}  // namespace

std::string describe(const CORBA::Exception& e) {
  std::string text = std::string("CORBA::") + e._name();
  if (const auto* system = CORBA::SystemException::_downcast(&e)) {
    const char* minor = system->NP_minorString();
    if (minor != nullptr) text += std::string(" (") + minor + ")";
  }
  return text;
}

OrbSession::OrbSession(const OrbSettings& settings) {
  if (settings.role == mwbench::Role::server && settings.transport == "uds") {
    socket_dir_ = make_socket_dir();
    socket_path_ = socket_dir_ + "/orb.sock";
  }
  try {
    if (socket_path_.size() >= sizeof(sockaddr_un{}.sun_path)) {
      throw std::runtime_error("unix socket path too long (set TMPDIR shorter): " + socket_path_);
    }
    options_ = build_options(settings, socket_path_);
    ignore_outside_configuration();
    auto table = std::make_unique<const char*[][2]>(options_.size() + 1);
    for (std::size_t i = 0; i < options_.size(); ++i) {
      table[i][0] = options_[i].first.c_str();
      table[i][1] = options_[i].second.c_str();
    }
    char program[] = "mwbench-driver-omniorb";
    char* argv[] = {program, nullptr};
    int argc = 1;
    orb_ = CORBA::ORB_init(argc, argv, "omniORB4", table.get());
  } catch (const CORBA::Exception& e) {
    if (!socket_dir_.empty()) rmdir(socket_dir_.c_str());
    throw std::runtime_error("ORB_init failed: " + describe(e));
  } catch (...) {
    if (!socket_dir_.empty()) rmdir(socket_dir_.c_str());
    throw;
  }
}

OrbSession::~OrbSession() {
  poa_ = PortableServer::POA::_nil();  // let go before the ORB destroys it
  if (abandoned_) {
    (void)orb_._retn();  // kept, never destroyed: see abandon_calls_in_flight()
    remove_socket_dir();
    return;
  }
  try {
    orb_->destroy();  // waits for omniORB's threads; none outlives the session
  } catch (const CORBA::Exception&) {
    // Already destroyed: nothing left to stop.
  }
  remove_socket_dir();
}

void OrbSession::remove_socket_dir() noexcept {
  if (socket_dir_.empty()) return;
  unlink(socket_path_.c_str());  // omniORB removes it itself; this is for a failed start
  rmdir(socket_dir_.c_str());
}

std::string OrbSession::activate(ServantSet& servants, const mwbench::DriverOptions& options) {
  CORBA::Object_var object = orb_->resolve_initial_references("omniINSPOA");
  poa_ = PortableServer::POA::_narrow(object);
  const auto wanted = static_cast<std::size_t>(options.servants);
  const MemoryWatch watch(options, "activating", wanted);
  std::size_t active = 0;
  servants.use_orb(orb_.in());
  try {
    for (; active < wanted; ++active) {
      watch.check(active);
      PortableServer::Servant servant = servants.add();
      PortableServer::ObjectId_var id =
          PortableServer::string_to_ObjectId(std::to_string(active).c_str());
      poa_->activate_object_with_id(id.in(), servant);
    }
  } catch (const std::bad_alloc&) {
    watch.fail_inside_orb(active, [this] { remove_socket_dir(); });
  } catch (const CORBA::NO_MEMORY&) {
    watch.fail_inside_orb(active, [this] { remove_socket_dir(); });
  }
  PortableServer::ObjectId_var first = PortableServer::string_to_ObjectId("0");
  return corbaloc_base(first.in());
}

std::string OrbSession::corbaloc_base(const PortableServer::ObjectId& id) {
  if (!socket_path_.empty()) return "corbaloc:omniunix:" + socket_path_ + ":/";
  // TCP: the port the kernel chose is in the object's IOR, in its IIOP
  // profile; decoded as omniORB's own catior does. "1.2@": without a
  // version, corbaloc means GIOP 1.0, which is not what the IOR offers.
  CORBA::Object_var reference = poa_->id_to_reference(id);
  CORBA::String_var text = orb_->object_to_string(reference);
  const std::string_view hex(text.in());
  cdrMemoryStream stream(static_cast<CORBA::ULong>(hex.size() / 2), 0);
  for (std::size_t i = 4; i + 1 < hex.size(); i += 2) {  // after "IOR:"
    unsigned byte = 0;
    std::from_chars(hex.data() + i, hex.data() + i + 2, byte, 16);
    stream.marshalOctet(static_cast<CORBA::Octet>(byte));
  }
  stream.rewindInputPtr();
  stream.setByteSwapFlag(stream.unmarshalBoolean());
  IOP::IOR ior;
  ior.type_id = IOP::IOR::unmarshaltype_id(stream);
  ior.profiles <<= stream;
  for (CORBA::ULong i = 0; i < ior.profiles.length(); ++i) {
    if (ior.profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
    IIOP::ProfileBody body;
    IIOP::unmarshalProfile(ior.profiles[i], body);
    return "corbaloc::1.2@" + std::string(body.address.host.in()) + ":" +
           std::to_string(body.address.port) + "/";
  }
  throw std::runtime_error("the ORB made a reference without an IIOP profile: " +
                           std::string(text.in()));
}

void OrbSession::dispatch() {
  PortableServer::POAManager_var manager = poa_->the_POAManager();
  manager->activate();
}

OrbSession::Targets OrbSession::resolve(const std::string& base,
                                        const mwbench::DriverOptions& options) {
  const auto wanted = static_cast<std::size_t>(options.servants);
  const MemoryWatch watch(options, "resolving", wanted);
  Targets targets;
  try {
    targets.reserve(wanted);
    for (std::size_t i = 0; i < wanted; ++i) {
      watch.check(i);
      CORBA::Object_var object = orb_->string_to_object((base + std::to_string(i)).c_str());
      // Unchecked: a checked _narrow would ask each servant its type, one
      // remote call per reference; servant 0 is asked once, in the driver.
      targets.emplace_back(Test::RoundTrip::_unchecked_narrow(object));
    }
  } catch (const std::bad_alloc&) {
    watch.fail_inside_orb(targets.size(), [this] { remove_socket_dir(); });
  } catch (const CORBA::NO_MEMORY&) {
    watch.fail_inside_orb(targets.size(), [this] { remove_socket_dir(); });
  } catch (const CORBA::Exception& e) {
    throw std::runtime_error("the endpoint '" + base + "' is not a corbaloc base: " + describe(e));
  }
  return targets;
}

void OrbSession::run() {
  try {
    orb_->run();
  } catch (const CORBA::BAD_INV_ORDER&) {
    // A stopper ran before run(): the ORB is shut down already.
  }
}

std::function<void()> OrbSession::stopper() const {
  return [orb = CORBA::ORB_var(CORBA::ORB::_duplicate(orb_))] {
    try {
      orb->shutdown(0);
    } catch (const CORBA::Exception&) {
      // Shut down or destroyed already: nothing to stop.
    }
  };
}

}  // namespace omniorb_driver
