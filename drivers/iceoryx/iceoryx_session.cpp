// RouDi, the runtime, the cell's endpoint.
#include "iceoryx_session.hpp"

#include <pwd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "common/open_loop_pings.hpp"
#include "iceoryx_hoofs/log/logmanager.hpp"
#include "iceoryx_posh/iceoryx_posh_types.hpp"
#include "iceoryx_posh/runtime/posh_runtime.hpp"
#include "iceoryx_versions.hpp"
#include "mwbench/name_table.hpp"
#include "mwbench/options.hpp"

namespace iceoryx {

namespace {

constexpr const char* kRuntimePrefix = "mwbench-iox-";

// RouDi names the payload segment after the user it runs as.
std::string user_name() {
  const passwd* user = ::getpwuid(::geteuid());
  return user != nullptr ? user->pw_name : std::to_string(::geteuid());
}

std::filesystem::path program_dir() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path();
}

}  // namespace

std::vector<std::uint8_t> payload_pattern(std::size_t bytes) {
  std::vector<std::uint8_t> p(bytes);
  for (std::size_t i = 0; i < bytes; ++i) p[i] = pattern_byte(i);
  return p;
}

namespace {

constexpr mwbench::NameTable<Wait, 2> kWaits{{{{Wait::waitset, "waitset"}, {Wait::spin, "spin"}}}};

}  // namespace

Wait parse_wait(const std::string& value) { return kWaits.parse(value, "--option wait="); }

const char* to_string(Wait wait) noexcept { return kWaits.name(wait); }

nlohmann::json roudi_daemon() {
  const std::string shm_user = "/dev/shm/" + user_name();
  return {
      {"program", "iox-roudi"},
      {"package", "iceoryx"},
      {"args",
       {"--config-file", (program_dir() / "roudi_config.toml").string(), "--log-level", "info"}},
      {"version_args", {"--version"}},
      {"ready_socket", kRoudiSocket},
      {"leftovers",
       {"/dev/shm/iceoryx_mgmt", shm_user, kRoudiSocket, std::string(kRoudiSocket) + ".lock",
        "/tmp/iox-unique-roudi.lock", std::string("/tmp/") + kRuntimePrefix + "*"}},
  };
}

void require_roudi() {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, kRoudiSocket, sizeof(address.sun_path) - 1);
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  const int connected = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  const int error = errno;
  ::close(fd);
  if (connected == 0) return;
  throw std::runtime_error(
      std::string("RouDi (iox-roudi) is not running: cannot reach its socket ") + kRoudiSocket +
      " (" + std::strerror(error) + "); start iox-roudi first (mwbench run starts it itself)");
}

void init_runtime(const std::string& role) {
  require_roudi();
  // Warnings and errors only: the runtime's debug lines would bury a
  // failure's reason in the stderr tail the orchestrator shows.
  iox::log::LogManager::GetLogManager().SetDefaultLogLevel(iox::log::LogLevel::kWarn,
                                                           iox::log::LogLevelOutput::kHideLogLevel);
  const std::string name = kRuntimePrefix + role + "-" + std::to_string(::getpid());
  iox::runtime::PoshRuntime::initRuntime(
      iox::RuntimeName_t(iox::cxx::TruncateToCapacity, name.c_str()));
}

Endpoint Endpoint::for_process() {
  Endpoint e;
  e.instance = std::to_string(::getpid());
  return e;
}

Endpoint Endpoint::parse(const std::string& text) {
  Endpoint e;
  const std::string_view fields =
      std::string_view(text).substr(std::min<std::size_t>(4, text.size()));
  e.service = endpoint_field(fields, "service");
  e.instance = endpoint_field(fields, "instance");
  e.ping = endpoint_field(fields, "ping");
  e.pong = endpoint_field(fields, "pong");
  if (!text.starts_with("iox:") || e.service.empty() || e.instance.empty() || e.ping.empty() ||
      e.pong.empty()) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not iox:service=S;instance=I;ping=EVENT;pong=EVENT");
  }
  return e;
}

std::string Endpoint::to_string() const {
  return "iox:service=" + service + ";instance=" + instance + ";ping=" + ping + ";pong=" + pong;
}

std::string Endpoint::ping_name() const { return service + "/" + instance + "/" + ping; }
std::string Endpoint::pong_name() const { return service + "/" + instance + "/" + pong; }

iox::capro::ServiceDescription service(const std::string& service, const std::string& instance,
                                       const std::string& event) {
  return {iox::capro::IdString_t(iox::cxx::TruncateToCapacity, service.c_str()),
          iox::capro::IdString_t(iox::cxx::TruncateToCapacity, instance.c_str()),
          iox::capro::IdString_t(iox::cxx::TruncateToCapacity, event.c_str())};
}

iox::popo::PublisherOptions publisher_options() {
  iox::popo::PublisherOptions options;
  options.historyCapacity = 0;
  return options;
}

static_assert(mwbench::common::kOutstandingPings <= iox::MAX_SUBSCRIBER_QUEUE_CAPACITY,
              "an open loop's queue is one iceoryx allows");

iox::popo::SubscriberOptions subscriber_options(std::uint64_t queue_capacity) {
  iox::popo::SubscriberOptions options;
  options.queueCapacity = queue_capacity;
  options.historyRequest = 0;
  options.queueFullPolicy = iox::popo::QueueFullPolicy::DISCARD_OLDEST_DATA;
  return options;
}

nlohmann::json runtime_config(Wait wait) {
  return {
      {"runtime", iox::runtime::PoshRuntime::getInstance().getInstanceName().c_str()},
      {"roudi_socket", kRoudiSocket},
      {"publisher", {{"history_capacity", 0}}},
      {"wait", to_string(wait)},
      {"iceoryx_version", ICEORYX_LATEST_RELEASE_VERSION},
  };
}

nlohmann::json subscriber_config(std::uint64_t queue_capacity) {
  return {{"queue_capacity", queue_capacity}, {"queue_full_policy", "discard_oldest_data"}};
}

nlohmann::json middleware_config(const Endpoint& endpoint, Wait wait,
                                 std::uint64_t queue_capacity) {
  nlohmann::json config = runtime_config(wait);
  config["services"] = {{"ping", endpoint.ping_name()}, {"pong", endpoint.pong_name()}};
  config["subscriber"] = subscriber_config(queue_capacity);
  return config;
}

void* loan_chunk(iox::popo::UntypedPublisher& publisher, std::uint32_t size,
                 std::uint32_t alignment) {
  void* chunk = nullptr;
  publisher.loan(size, alignment)
      .and_then([&chunk](void* loaned) { chunk = loaned; })
      .or_else([size](iox::popo::AllocationError error) {
        throw std::runtime_error("loan of a " + std::to_string(size) +
                                 "-byte chunk failed: " + iox::popo::asStringLiteral(error));
      });
  return chunk;
}

}  // namespace iceoryx
