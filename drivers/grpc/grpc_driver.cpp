// mwbench-driver-grpc: unary calls of the RoundTrip service (RoundTrip.proto)
// through gRPC's synchronous API: blocking stubs on the client, the sync
// server's thread pool on the server. Remote over tcp (--bind, a port the
// kernel picks) and uds (a Unix socket in a private directory); collocated
// through the server's in-process channel (Server::InProcessChannel). An
// open-loop --load calls through the asynchronous stub instead
// (grpc_open_loop.*), against the same server.
//
// With --threads N each client thread has a channel of its own, and so a
// connection of its own (a local subchannel pool, which gRPC would otherwise
// share between channels to one target). There are no servants:
// max_servants is 1. The service itself is in grpc_service.*.
#include <google/protobuf/stubs/common.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "RoundTrip.grpc.pb.h"
#include "grpc_open_loop.hpp"
#include "grpc_service.hpp"
#include "mwbench/driver.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Role;
using namespace grpc_driver;

[[noreturn]] void throw_status(const char* method, const grpc::Status& status) {
  throw std::runtime_error(status_text(method, status));
}

nlohmann::json grpc_config(const DriverOptions& o) {
  nlohmann::json config = {
      {"api", "synchronous (blocking stub, sync server)"},
      {"protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION)},
      {"channel", o.transport == "inproc" ? "Server::InProcessChannel, one per client thread"
                                          : "one per client thread, local subchannel pool"},
      {"max_message_size", "unlimited"},
      {"http_proxy", false}};
  if (o.role != Role::server && o.load.open()) {
    config["api"] =
        "asynchronous client (async stub, one CompletionQueue drained by a reader thread), "
        "sync server";
    config["max_in_flight"] = kMaxInFlight;
  }
  return config;
}

// Unlimited message sizes both ways (gRPC refuses over 4 MiB by default), no
// HTTP proxy from the environment, and a connection per channel.
grpc::ChannelArguments channel_arguments() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return args;
}

std::unique_ptr<grpc::Server> build_server(RoundTripService& service, const std::string& address,
                                           int* port) {
  grpc::ServerBuilder builder;
  if (!address.empty()) builder.AddListeningPort(address, grpc::InsecureServerCredentials(), port);
  builder.RegisterService(&service);
  builder.SetMaxReceiveMessageSize(-1);
  builder.SetMaxSendMessageSize(-1);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || (port != nullptr && *port == 0)) {
    throw std::runtime_error("gRPC could not start a server" +
                             (address.empty() ? std::string() : " on " + address));
  }
  return server;
}

class GrpcDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("grpc", "gRPC", grpc::Version());
    d.operations = {{"roundtrip", false}, {"ping", false}, {"octets", true}};
    d.modes = {{"remote", {"tcp", "uds"}}, {"collocated", {"inproc"}}};
    d.host_local = {"uds"};
    d.options = {
        {"verify",
         "check every payload byte in the server and fail on a mismatch: 0 (default) or 1"},
    };
    d.max_servants = 1;
    d.open_loop = {"roundtrip", "ping", "octets"};
    return d;
  }

  void serve(const DriverOptions& o, mwbench::ServerContext& context) override {
    std::optional<SocketDir> dir;  // destroyed after the server
    if (o.transport == "uds") dir.emplace();
    StopSignal stop_signal;
    RoundTripService service(o, [&stop_signal](const std::string& m) { stop_signal.fail(m); });
    const std::string address = dir ? "unix:" + dir->socket_path() : o.bind_address + ":0";
    int port = 0;
    std::unique_ptr<grpc::Server> server = build_server(service, address, &port);
    const mwbench::ScopedStopCallback stop(context, [&stop_signal] { stop_signal.stop(); });
    context.record_middleware_config(grpc_config(o));
    // A gRPC target: the ipv4: scheme needs no resolver.
    context.publish_endpoint(dir ? address : "ipv4:" + o.bind_address + ":" + std::to_string(port));

    stop_signal.wait();  // here, not in a handler: Shutdown() waits for the handlers
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    server->Wait();
    if (const std::string failure = stop_signal.failure(); !failure.empty()) {
      throw std::runtime_error(failure);
    }
  }

  void measure(const DriverOptions& o, mwbench::Measurement& m) override {
    // Collocated: the service and a server without ports, in this process.
    std::optional<RoundTripService> local_service;
    std::unique_ptr<grpc::Server> local_server;
    std::string target;
    if (o.role == Role::collocated) {
      local_service.emplace(o, [&m](const std::string& message) { m.fail(message); });
      local_server = build_server(*local_service, "", nullptr);
    } else {
      o.option_flag("verify", false);  // checked by the server; refused here if malformed
      target = m.read_endpoint();
    }
    m.record_middleware_config(grpc_config(o));

    // Each thread's channel and stub, made and connected by that thread
    // before anything is timed.
    auto connect = [&] {
      std::shared_ptr<grpc::Channel> channel =
          local_server ? local_server->InProcessChannel(channel_arguments())
                       : grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(),
                                                   channel_arguments());
      const auto deadline = std::chrono::system_clock::now() +
                            std::chrono::milliseconds(static_cast<long>(o.timeout_s * 1000));
      if (!local_server && !channel->WaitForConnected(deadline)) {
        throw std::runtime_error("could not connect to " + target + " within --timeout");
      }
      return mwbench_grpc::RoundTrip::NewStub(channel);
    };

    // One call each: a ClientContext is good for one call only, so each call
    // makes one (on the stack); request and reply are the thread's own.
    if (o.load.open()) {
      measure_open_loop(*connect(), o, m);
    } else if (o.operation == "roundtrip") {
      m.run_threads([&](int) {
        return [&m, stub = connect(), request = mwbench_grpc::Stamp(),
                reply = mwbench_grpc::Stamp()]() mutable {
          grpc::ClientContext context;
          request.set_sent_ns(mwbench::now_ns());
          const grpc::Status status = stub->TestMethod(&context, request, &reply);
          if (!status.ok()) throw_status("TestMethod", status);
          if (reply.sent_ns() != request.sent_ns()) {
            m.fail("roundtrip: the echo differs from the timestamp sent");
          }
        };
      });
    } else if (o.operation == "ping") {
      m.run_threads([&](int) {
        return [stub = connect(), request = mwbench_grpc::Nothing(),
                reply = mwbench_grpc::Nothing()]() mutable {
          grpc::ClientContext context;
          const grpc::Status status = stub->Ping(&context, request, &reply);
          if (!status.ok()) throw_status("Ping", status);
        };
      });
    } else {  // octets
      m.run_threads([&](int) {
        mwbench_grpc::Octets request;
        std::string& data = *request.mutable_data();
        data.resize(o.payload_bytes);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = pattern_byte(i);
        return [&m, stub = connect(), request = std::move(request),
                reply = mwbench_grpc::Verdict()]() mutable {
          grpc::ClientContext context;
          const grpc::Status status = stub->SendOctets(&context, request, &reply);
          if (!status.ok()) throw_status("SendOctets", status);
          if (!reply.ok()) m.fail("octets: the server found a payload mismatch (verify=1)");
        };
      });
    }
    if (local_server) local_server->Shutdown();
  }
};

}  // namespace

int main(int argc, char** argv) {
  GrpcDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
