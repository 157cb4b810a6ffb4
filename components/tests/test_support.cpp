// The shared ORB and component server of the unit tests (test_support.hpp).
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <vector>

namespace mwccm_test {

namespace {

int pick_free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

struct Shared {
  int port = pick_free_port();
  CORBA::ORB_var orb;
  mwccm::ComponentServer* server = nullptr;

  Shared() {
    std::vector<std::string> args = {
        "mwccm-tests",
        "-ORBendPoint",
        "giop:tcp:127.0.0.1:0",
        "-ORBInitRef",
        "NameService=corbaloc::127.0.0.1:" + std::to_string(port) + "/NameService",
        "-ORBclientCallTimeOutPeriod",
        "10000"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    orb = CORBA::ORB_init(argc, argv.data());
    server = new mwccm::ComponentServer(orb.in());
  }
};

Shared& shared() {
  static Shared* instance = new Shared;
  return *instance;
}

class OrbEnvironment final : public ::testing::Environment {
  void TearDown() override {
    Shared& s = shared();
    s.server->remove_all();
    s.server->_remove_ref();
    s.orb->destroy();
  }
};

[[maybe_unused]] auto* const environment = ::testing::AddGlobalTestEnvironment(new OrbEnvironment);

}  // namespace

CORBA::ORB_ptr orb() { return shared().orb.in(); }
mwccm::ComponentServer& server() { return *shared().server; }
int naming_port() { return shared().port; }

std::string unique_name(const char* prefix) {
  static std::atomic<int> n{0};
  return std::string(prefix) + std::to_string(++n);
}

}  // namespace mwccm_test
