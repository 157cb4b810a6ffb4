// The RoundTrip service, the stop signal and the socket directory
// (grpc_service.hpp).
#include "grpc_service.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace grpc_driver {

std::string status_text(const char* method, const grpc::Status& status) {
  return std::string(method) + ": " + status.error_message() + " (gRPC status " +
         std::to_string(status.error_code()) + ")";
}

RoundTripService::RoundTripService(const mwbench::DriverOptions& options,
                                   std::function<void(const std::string&)> on_mismatch)
    : payload_bytes_(options.payload_bytes),
      verify_(options.option_flag("verify", false)),
      on_mismatch_(std::move(on_mismatch)) {}

grpc::Status RoundTripService::TestMethod(grpc::ServerContext*, const mwbench_grpc::Stamp* request,
                                          mwbench_grpc::Stamp* reply) {
  reply->set_sent_ns(request->sent_ns());
  return grpc::Status::OK;
}

grpc::Status RoundTripService::Ping(grpc::ServerContext*, const mwbench_grpc::Nothing*,
                                    mwbench_grpc::Nothing*) {
  return grpc::Status::OK;
}

grpc::Status RoundTripService::SendOctets(grpc::ServerContext*, const mwbench_grpc::Octets* request,
                                          mwbench_grpc::Verdict* reply) {
  if (!verify_) {
    reply->set_ok(true);
    return grpc::Status::OK;
  }
  const std::string& data = request->data();
  std::string wrong;
  if (data.size() != payload_bytes_) {
    wrong = std::to_string(data.size()) + " bytes, expected " + std::to_string(payload_bytes_);
  } else {
    std::size_t at = 0;
    while (at < data.size() && data[at] == pattern_byte(at)) ++at;
    if (at != data.size()) {
      wrong =
          "payload mismatch at byte " + std::to_string(at) + " of " + std::to_string(data.size());
    }
  }
  reply->set_ok(wrong.empty());
  if (!wrong.empty()) on_mismatch_("octets: " + wrong + " (verify=1)");
  return grpc::Status::OK;
}

void StopSignal::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  changed_.notify_all();
}

void StopSignal::fail(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) failure_ = message;
  stopped_ = true;
  changed_.notify_all();
}

void StopSignal::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return stopped_; });
}

std::string StopSignal::failure() {
  std::lock_guard lock(mutex_);
  return failure_;
}

}  // namespace grpc_driver
