// The loopback configuration, the cell's endpoint, participant and QoS.
#include "cyclonedds_session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "dds/version.h"
#include "mwbench/dds/wildcard_bind.hpp"

namespace cyclonedds {

namespace {

// Domains 1..100: not 0, the default every other DDS program on the machine
// uses, and low enough that the well-known ports (7400 + 250 × domain + up to
// 29) stay below Linux's ephemeral range (32768 and up).
constexpr std::uint32_t kDomains = 100;

}  // namespace

Endpoint Endpoint::for_process() {
  const auto pid = static_cast<std::uint32_t>(::getpid());
  const std::string suffix = std::to_string(pid);
  return {1 + pid % kDomains, "mwbench_ping_" + suffix, "mwbench_pong_" + suffix};
}

Endpoint Endpoint::parse(const std::string& text) {
  Endpoint e;
  const std::string_view fields =
      std::string_view(text).substr(std::min<std::size_t>(4, text.size()));
  const std::string domain = endpoint_field(fields, "domain");
  e.ping_topic = endpoint_field(fields, "ping");
  e.pong_topic = endpoint_field(fields, "pong");
  if (!text.starts_with("dds:") || domain.empty() || e.ping_topic.empty() || e.pong_topic.empty() ||
      domain.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error("endpoint '" + text + "' is not dds:domain=N;ping=TOPIC;pong=TOPIC");
  }
  e.domain = static_cast<std::uint32_t>(std::stoul(domain));
  return e;
}

std::string Endpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";ping=" + ping_topic + ";pong=" + pong_topic;
}

std::string use_loopback_config() {
  // And Cyclone's receive sockets, which it binds to the wildcard address,
  // on loopback too (mwbench/dds/wildcard_bind.hpp).
  mwbench::dds::bind_wildcard_to("127.0.0.1");
  const std::filesystem::path file =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "cyclonedds-loopback.xml";
  if (!std::filesystem::exists(file)) {
    throw std::runtime_error("no loopback configuration '" + file.string() +
                             "' (the build copies drivers/cyclonedds/cyclonedds-loopback.xml "
                             "there); refusing to run on Cyclone's default network settings");
  }
  const std::string uri = "file://" + file.string();
  if (::setenv("CYCLONEDDS_URI", uri.c_str(), 1) != 0) {
    throw std::runtime_error("setenv CYCLONEDDS_URI failed");
  }
  return uri;
}

Participant::Participant(const Endpoint& endpoint) : endpoint_(endpoint) {
  participant_ =
      check(dds_create_participant(endpoint.domain, nullptr, nullptr), "dds_create_participant");
  try {
    ping_ = check(dds_create_topic(participant_, &mwbench_dds_Sample_desc,
                                   endpoint.ping_topic.c_str(), nullptr, nullptr),
                  "dds_create_topic (ping)");
    pong_ = check(dds_create_topic(participant_, &mwbench_dds_Sample_desc,
                                   endpoint.pong_topic.c_str(), nullptr, nullptr),
                  "dds_create_topic (pong)");
  } catch (...) {
    dds_delete(participant_);
    throw;
  }
}

Participant::~Participant() { dds_delete(participant_); }

nlohmann::json middleware_config(const std::string& uri, const Endpoint& endpoint, Wait wait) {
  return {
      {"CYCLONEDDS_URI", uri},
      {"domain_id", endpoint.domain},
      {"topics", {{"ping", endpoint.ping_topic}, {"pong", endpoint.pong_topic}}},
      {"type", "mwbench_dds::Sample (PingPong.idl)"},
      {"qos",
       {{"reliability", "reliable"}, {"history", "keep_last 1"}, {"durability", "volatile"}}},
      {"wait", to_string(wait)},
      {"cyclonedds_version", DDS_VERSION},
  };
}

OwnedSample::OwnedSample(std::size_t capacity) : buffer_(capacity) {
  sample_.payload._buffer = buffer_.data();
  sample_.payload._maximum = static_cast<std::uint32_t>(capacity);
  sample_.payload._length = 0;
  sample_.payload._release = false;  // ours: Cyclone must neither free nor grow it
}

OwnedSample::~OwnedSample() {
  if (sample_.payload._release) dds_free(sample_.payload._buffer);
}

}  // namespace cyclonedds
