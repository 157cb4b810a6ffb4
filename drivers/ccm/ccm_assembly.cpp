#include "ccm_assembly.hpp"

#include <sstream>
#include <stdexcept>

namespace ccm_driver {

std::string endpoint_line(const Endpoint& endpoint) {
  std::string line;
  for (const auto& [key, value] : endpoint) {
    if (!line.empty()) line += ' ';
    line += key + '=' + value;
  }
  return line;
}

Endpoint parse_endpoint(const std::string& line, std::initializer_list<const char*> required) {
  Endpoint endpoint;
  std::istringstream words(line);
  for (std::string word; words >> word;) {
    const auto at = word.find('=');
    if (at != std::string::npos) endpoint[word.substr(0, at)] = word.substr(at + 1);
  }
  for (const char* key : required) {
    if (!endpoint.contains(key)) {
      throw std::runtime_error(std::string("the endpoint has no ") + key +
                               " (a server of another scenario?): " + line);
    }
  }
  return endpoint;
}

namespace {

Components::KeylessCCMHome_ptr install(mwccm::Container& container, const char* id,
                                       const char* entrypoint) {
  const Components::ConfigValues none;
  Components::CCMHome_var home = container.install_home(id, entrypoint, none);
  return Components::KeylessCCMHome::_narrow(home.in());
}

}  // namespace

ComponentHost::ComponentHost(CORBA::ORB_ptr orb)
    : server_(new mwccm::ComponentServer(orb)),
      container_(&server_->create_local_container("ccmperf")) {}

ComponentHost::~ComponentHost() {
  try {
    server_->remove_all();
  } catch (const CORBA::Exception&) {
    // The ORB is going away with the process: nothing left to remove.
  }
}

CcmPerf::Receiver_ptr ComponentHost::create_receiver(bool verify, std::uint64_t payload_bytes) {
  Components::KeylessCCMHome_var home =
      install(*container_, "receiver-home", "mwccm_home_CcmPerf_ReceiverHome");
  receiver_home_ = Components::CCMHome::_duplicate(home.in());
  Components::CCMObject_var object = home->create_named_component(kReceiverKey);
  CcmPerf::Receiver_var receiver = CcmPerf::Receiver::_narrow(object.in());
  // By name, as a deployment plan configures a component.
  Components::ConfigValues config;
  config.length(2);
  config[0].name = "verify";
  config[0].value <<= CORBA::Any::from_boolean(verify);
  config[1].name = "payload_bytes";
  config[1].value <<= static_cast<CORBA::ULong>(payload_bytes);
  receiver->set_configuration(config);
  return receiver._retn();
}

CcmPerf::Caller_ptr ComponentHost::create_caller() {
  Components::KeylessCCMHome_var home =
      install(*container_, "caller-home", "mwccm_home_CcmPerf_CallerHome");
  Components::CCMObject_var object = home->create_named_component(kCallerKey);
  return CcmPerf::Caller::_narrow(object.in());
}

void ComponentHost::activate(Components::CCMObject_ptr component) {
  component->configuration_complete();
  container_->activate_component(component);
}

}  // namespace ccm_driver
