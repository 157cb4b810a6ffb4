// The gRPC driver's open loop (grpc_open_loop.hpp).
#include "grpc_open_loop.hpp"

#include <grpcpp/alarm.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "grpc_service.hpp"
#include "mwbench/clock.hpp"
#include "mwbench/load.hpp"

namespace grpc_driver {

namespace {

using mwbench_grpc::RoundTrip;

// A call's tag on the completion queue is its number + 1: the null tag is the
// alarm that tells the reader the sends are over.
void* tag_of(std::uint64_t call) noexcept {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(call + 1));
}
std::uint64_t call_of(void* tag) noexcept { return reinterpret_cast<std::uintptr_t>(tag) - 1; }

// What one call in flight needs: a ClientContext serves one call only, so it
// is made anew for each; gRPC writes the reply and the status on completion.
// `in_flight` hands the slot from the sender (which fills it) to the reader
// (which empties it) and back.
template <class Reply>
struct Slot {
  std::optional<grpc::ClientContext> context;
  std::unique_ptr<grpc::ClientAsyncResponseReader<Reply>> reader;
  Reply reply;
  grpc::Status status;
  std::uint64_t stamp = 0;  // roundtrip: the timestamp sent, that the echo must equal
  std::atomic<bool> in_flight{false};
};

// Per operation: the messages, the request (made once, before the loop: gRPC
// serializes it when the call starts, so one object serves every call; empty
// but for octets), how a call starts, and what is wrong with a reply, if
// anything.
template <class RequestMessage, class ReplyMessage>
struct Messages {
  using Request = RequestMessage;
  using Reply = ReplyMessage;
  static Request request(const mwbench::DriverOptions&) { return {}; }
};

struct RoundtripCalls : Messages<mwbench_grpc::Stamp, mwbench_grpc::Stamp> {
  static constexpr const char* kMethod = "TestMethod";
  static auto start(RoundTrip::Stub& stub, Slot<Reply>& slot, Request& request,
                    grpc::CompletionQueue* queue) {
    slot.stamp = mwbench::now_ns();
    request.set_sent_ns(slot.stamp);
    return stub.AsyncTestMethod(&*slot.context, request, queue);
  }
  static const char* wrong(const Slot<Reply>& slot) {
    return slot.reply.sent_ns() == slot.stamp
               ? nullptr
               : "roundtrip: the echo differs from the timestamp sent";
  }
};

struct PingCalls : Messages<mwbench_grpc::Nothing, mwbench_grpc::Nothing> {
  static constexpr const char* kMethod = "Ping";
  static auto start(RoundTrip::Stub& stub, Slot<Reply>& slot, Request& request,
                    grpc::CompletionQueue* queue) {
    return stub.AsyncPing(&*slot.context, request, queue);
  }
  static const char* wrong(const Slot<Reply>&) { return nullptr; }
};

struct OctetsCalls : Messages<mwbench_grpc::Octets, mwbench_grpc::Verdict> {
  static constexpr const char* kMethod = "SendOctets";
  static Request request(const mwbench::DriverOptions& o) {
    Request request;
    std::string& data = *request.mutable_data();
    data.resize(o.payload_bytes);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = pattern_byte(i);
    return request;
  }
  static auto start(RoundTrip::Stub& stub, Slot<Reply>& slot, Request& request,
                    grpc::CompletionQueue* queue) {
    return stub.AsyncSendOctets(&*slot.context, request, queue);
  }
  static const char* wrong(const Slot<Reply>& slot) {
    return slot.reply.ok() ? nullptr : "octets: the server found a payload mismatch (verify=1)";
  }
};

// The calls of one open loop: started by the harness's sending thread,
// completed on the reader thread, slot call % capacity each.
template <class Calls>
class AsyncCalls {
 public:
  using Reply = typename Calls::Reply;

  AsyncCalls(RoundTrip::Stub& stub, const mwbench::DriverOptions& o, mwbench::Measurement& m)
      : stub_(stub),
        m_(m),
        capacity_(std::clamp<std::uint64_t>(o.warmup + o.samples, 1, kMaxInFlight)),
        slots_(std::make_unique<Slot<Reply>[]>(capacity_)),
        request_(Calls::request(o)) {}

  void run() {
    std::thread reader([this] { read(); });
    // However run_open() ends (the last reply, the timeout, a stop, a
    // failure), the reader hears that the sends are over and is joined.
    struct SendsOver {
      AsyncCalls& calls;
      std::thread& reader;
      ~SendsOver() { calls.end(reader); }
    } sends_over{*this, reader};
    m_.run_open([this](std::uint64_t call) { send(call); });
  }

 private:
  // On the harness's sending thread: starts the call and returns.
  void send(std::uint64_t call) {
    Slot<Reply>& slot = slots_[call % capacity_];
    if (slot.in_flight.load(std::memory_order_acquire)) {
      m_.fail("--load " + mwbench::to_string(m_.options().load) + ": call " + std::to_string(call) +
              " finds " + std::to_string(kMaxInFlight) +
              " calls in flight, the most the driver keeps (the server is that far behind the "
              "schedule); offer a lower rate");
      return;
    }
    slot.context.emplace();
    slot.in_flight.store(true, std::memory_order_relaxed);  // published by the queue
    slot.reader = Calls::start(stub_, slot, request_, &queue_);
    slot.reader->Finish(&slot.reply, &slot.status, tag_of(call));
  }

  // The reader thread: every completion, until the sends are over and the
  // calls still in flight then are cancelled and drained.
  void read() noexcept {
    try {
      void* tag = nullptr;
      bool ok = false;
      bool sends_over = false;
      std::uint64_t draining = 0;
      while (queue_.Next(&tag, &ok)) {
        if (tag == nullptr) {  // the alarm: nothing more will be sent
          sends_over = true;
          draining = cancel_in_flight();
          if (draining == 0) return;
          continue;
        }
        const std::uint64_t call = call_of(tag);
        Slot<Reply>& slot = slots_[call % capacity_];
        if (!sends_over) judge(call, slot);
        slot.reader.reset();
        slot.context.reset();
        slot.in_flight.store(false, std::memory_order_release);
        if (sends_over && --draining == 0) return;
      }
    } catch (const std::exception& e) {
      m_.fail(std::string("the reader of the completion queue: ") + e.what());
    }
  }

  // A reply: completed() first, so that its time is the reply's arrival.
  void judge(std::uint64_t call, const Slot<Reply>& slot) {
    if (!slot.status.ok()) return m_.fail(status_text(Calls::kMethod, slot.status));
    m_.completed(call);
    if (const char* wrong = Calls::wrong(slot)) m_.fail(wrong);
  }

  // The calls lost (unanswered when the harness stopped waiting): cancelled,
  // so that each completes with CANCELLED. Returns how many.
  std::uint64_t cancel_in_flight() {
    std::uint64_t cancelled = 0;
    for (std::uint64_t i = 0; i < capacity_; ++i) {
      if (!slots_[i].in_flight.load(std::memory_order_acquire)) continue;
      slots_[i].context->TryCancel();
      ++cancelled;
    }
    return cancelled;
  }

  // After the last send: an alarm that fires at once wakes the reader with
  // the null tag; then the queue is shut down and drained, as gRPC asks
  // before it is destroyed.
  void end(std::thread& reader) noexcept {
    grpc::Alarm sends_over;
    sends_over.Set(&queue_, std::chrono::system_clock::now(), nullptr);
    reader.join();
    queue_.Shutdown();
    void* tag = nullptr;
    bool ok = false;
    while (queue_.Next(&tag, &ok)) {
    }
  }

  RoundTrip::Stub& stub_;
  mwbench::Measurement& m_;
  const std::uint64_t capacity_;
  std::unique_ptr<Slot<Reply>[]> slots_;  // destroyed after the queue is drained
  typename Calls::Request request_;
  grpc::CompletionQueue queue_;
};

template <class Calls>
void run_calls(RoundTrip::Stub& stub, const mwbench::DriverOptions& o, mwbench::Measurement& m) {
  AsyncCalls<Calls>(stub, o, m).run();
}

}  // namespace

void measure_open_loop(RoundTrip::Stub& stub, const mwbench::DriverOptions& o,
                       mwbench::Measurement& m) {
  if (o.operation == "roundtrip") return run_calls<RoundtripCalls>(stub, o, m);
  if (o.operation == "ping") return run_calls<PingCalls>(stub, o, m);
  run_calls<OctetsCalls>(stub, o, m);
}

}  // namespace grpc_driver
