// The serving side of the gRPC driver: the synchronous RoundTrip service,
// what stops the server, and the private directory of its Unix socket.
#pragma once

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "RoundTrip.grpc.pb.h"
#include "common/private_dir.hpp"
#include "mwbench/options.hpp"

namespace grpc_driver {

// Byte `i` of an octets payload: position modulo a prime, as in rawtcp and
// the omniORB driver, so a chunk delivered twice or out of place shows.
inline char pattern_byte(std::size_t i) { return static_cast<char>(i % 251); }

// What a failed call says: "TestMethod: <gRPC's message> (gRPC status N)".
std::string status_text(const char* method, const grpc::Status& status);

// The RoundTrip service, synchronous: gRPC runs each handler on a thread of
// its sync server's pool. With verify=1 SendOctets checks the payload and, on
// a mismatch, replies ok=false and calls `on_mismatch(message)`.
class RoundTripService final : public mwbench_grpc::RoundTrip::Service {
 public:
  RoundTripService(const mwbench::DriverOptions& options,
                   std::function<void(const std::string&)> on_mismatch);

  grpc::Status TestMethod(grpc::ServerContext* context, const mwbench_grpc::Stamp* request,
                          mwbench_grpc::Stamp* reply) override;
  grpc::Status Ping(grpc::ServerContext* context, const mwbench_grpc::Nothing* request,
                    mwbench_grpc::Nothing* reply) override;
  grpc::Status SendOctets(grpc::ServerContext* context, const mwbench_grpc::Octets* request,
                          mwbench_grpc::Verdict* reply) override;

 private:
  const std::uint64_t payload_bytes_;
  const bool verify_;
  std::function<void(const std::string&)> on_mismatch_;
};

// When the server's main thread should shut the server down: on SIGTERM, or
// when a handler found a wrong payload. grpc::Server::Shutdown() waits for
// the handlers, so a handler must not call it; it calls fail() instead.
class StopSignal {
 public:
  void stop();
  void fail(const std::string& message);
  void wait();            // until stop() or fail()
  std::string failure();  // the first fail() message, or empty

 private:
  std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  bool stopped_ = false;
  std::string failure_;
};

// A private directory under /tmp (drivers/common) holding the Unix socket
// `socket`; removes both on destruction (after the server that listened on it).
class SocketDir : public mwbench::common::PrivateDir {
 public:
  SocketDir() : PrivateDir("mwbench-grpc") {}
  std::string socket_path() const { return path() + "/socket"; }
};

}  // namespace grpc_driver
