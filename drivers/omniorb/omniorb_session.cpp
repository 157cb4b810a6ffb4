#include "omniorb_session.hpp"

#include <unistd.h>
#include <sys/un.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <system_error>

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
  std::string dir = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                    "/mwbench-omniorb-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + dir);
  }
  return dir;
}

OrbSession::OptionList build_options(const OrbSettings& settings,
                                     const std::string& socket_path) {
  OrbSession::OptionList options;
  // Loopback only, port 0: the kernel picks a free port. A collocated ORB
  // listens too (omniORB needs an endpoint to make references) but is never
  // called through it.
  const std::string tcp_endpoint = "giop:tcp:127.0.0.1:";
  switch (settings.role) {
    case mwbench::Role::server:
      options.emplace_back("endPoint", settings.transport == "unix"
                                           ? "giop:unix:" + socket_path
                                           : tcp_endpoint);
      break;
    case mwbench::Role::collocated:
      options.emplace_back("endPoint", tcp_endpoint);
      // No transport at all for outgoing calls: if omniORB did not recognise
      // its own object and took a socket instead of the local call path, the
      // first call fails instead of measuring loopback TCP.
      options.emplace_back("clientTransportRule", "* none");
      break;
    case mwbench::Role::client:
      // Only the transport under test, so a fallback cannot go unnoticed.
      options.emplace_back("clientTransportRule", "* " + settings.transport);
      break;
  }
  if (settings.role != mwbench::Role::client) {
    options.emplace_back("threadPerConnectionPolicy",
                         settings.thread_per_connection ? "1" : "0");
    if (!settings.thread_per_connection && settings.pool_size != 0) {
      options.emplace_back("maxServerThreadPoolSize", std::to_string(settings.pool_size));
    }
  }
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
  if (settings.role == mwbench::Role::server && settings.transport == "unix") {
    socket_dir_ = make_socket_dir();
    socket_path_ = socket_dir_ + "/orb.sock";
  }
  try {
    if (socket_path_.size() >= sizeof(sockaddr_un{}.sun_path)) {
      throw std::runtime_error("unix socket path too long (set TMPDIR shorter): " + socket_path_);
    }
    options_ = build_options(settings, socket_path_);
    ignore_outside_configuration();
    auto table = std::make_unique<const char* [][2]>(options_.size() + 1);
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
  try {
    orb_->destroy();  // waits for omniORB's threads; none outlives the session
  } catch (const CORBA::Exception&) {
    // Already destroyed: nothing left to stop.
  }
  if (!socket_dir_.empty()) {
    unlink(socket_path_.c_str());  // omniORB removes it itself; this is for a failed start
    rmdir(socket_dir_.c_str());
  }
}

std::string OrbSession::activate(PortableServer::Servant servant) {
  CORBA::Object_var object = orb_->resolve_initial_references("RootPOA");
  poa_ = PortableServer::POA::_narrow(object);
  PortableServer::ObjectId_var id = poa_->activate_object(servant);
  CORBA::Object_var reference = poa_->id_to_reference(id.in());
  CORBA::String_var ior = orb_->object_to_string(reference);
  return ior.in();
}

void OrbSession::dispatch() {
  PortableServer::POAManager_var manager = poa_->the_POAManager();
  manager->activate();
}

Test::RoundTrip_var OrbSession::resolve(const std::string& ior) {
  Test::RoundTrip_var typed;
  try {
    CORBA::Object_var object = orb_->string_to_object(ior.c_str());
    typed = Test::RoundTrip::_narrow(object);
  } catch (const CORBA::Exception& e) {
    throw std::runtime_error("the endpoint is not a usable object reference: " + describe(e));
  }
  if (CORBA::is_nil(typed)) {
    throw std::runtime_error(std::string("the endpoint is not a ") + Test::RoundTrip::_PD_repoId);
  }
  return typed;
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
