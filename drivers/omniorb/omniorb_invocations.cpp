// The measured calls of the invocations other than static: the DII, AMI
// (callback and poller) and oneway. Each call is the whole of what the client
// does for one call of its kind: build and invoke a Request (the DII has no
// other way), send and wait for the handler or the poller. Payloads are built
// before the loop and lent, as for the static stubs.
#include "omniorb_invocations.hpp"

#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/seconds_text.hpp"
#include "mwbench/clock.hpp"
#include "omniorb_calls.hpp"
#include "omniorb_session.hpp"

namespace omniorb_driver {

namespace {

using mwbench::DriverOptions;
using mwbench::Measurement;
using mwbench::UsageError;

enum class Operation { roundtrip, ping, octets, octets_out, octets_inout, records };
constexpr mwbench::NameTable<Operation, 6> kOperations{{{{Operation::roundtrip, "roundtrip"},
                                                         {Operation::ping, "ping"},
                                                         {Operation::octets, "octets"},
                                                         {Operation::octets_out, "octets_out"},
                                                         {Operation::octets_inout, "octets_inout"},
                                                         {Operation::records, "records"}}}};

timespec timeout_of(const DriverOptions& options) {
  const auto ns = static_cast<std::uint64_t>(options.timeout_s * 1e9);
  return {static_cast<time_t>(ns / 1'000'000'000u), static_cast<long>(ns % 1'000'000'000u)};
}

// What the operation sends, built once; only the operation's own is made.
struct Payloads {
  Payloads(Operation op, CORBA::ULong size) {
    if (op == Operation::octets) in.emplace(size);
    if (op == Operation::octets_inout) inout.emplace(size);
    if (op == Operation::records) records.emplace(make_records(size));
  }
  // A sequence for an Any to own whose buffer stays ours (nothing copied).
  static Test::Octets* lent(Test::Octets& data) {
    return new Test::Octets(data.length(), data.length(), data.get_buffer(), false);
  }
  static Test::Records* lent(Test::Records& data) {
    return new Test::Records(data.length(), data.length(), data.get_buffer(), false);
  }
  std::optional<OctetsPayload> in;
  std::optional<InoutPayload> inout;
  std::optional<Test::Records> records;
};

// The parts every call kind shares: the operation, its target and payloads.
struct CallBase {
  CallBase(const DriverOptions& options, Measurement& measurement, Test::RoundTrip_ptr to)
      : m(measurement),
        target(to),
        op(kOperations.parse(options.operation, "--operation ")),
        size(static_cast<CORBA::ULong>(options.payload_bytes)),
        verify(options.option_flag("verify", false)),
        payloads(op, size) {}

  void check_echo(CORBA::ULongLong returned, CORBA::ULongLong sent) {
    if (returned != sent)
      m.fail("test_method returned a value other than the send_time it was given");
  }
  void check_octets(const char* operation, const Test::Octets& data) {
    if (verify) check_reply(m, operation, data, size);
  }

  Measurement& m;
  Test::RoundTrip_ptr target;
  Operation op;
  CORBA::ULong size;
  bool verify;
  Payloads payloads;
};

// invocation=dii: a Request per call, its arguments inserted into Anys.
struct DiiCall : CallBase {
  using CallBase::CallBase;

  void operator()() {
    switch (op) {
      case Operation::roundtrip: {
        CORBA::Request_var request = target->_request("test_method");
        const CORBA::ULongLong sent = mwbench::now_ns();
        request->add_in_arg() <<= sent;
        request->set_return_type(CORBA::_tc_ulonglong);
        invoke(request, "test_method");
        CORBA::ULongLong returned = 0;
        request->return_value() >>= returned;
        check_echo(returned, sent);
        break;
      }
      case Operation::ping: {
        CORBA::Request_var request = target->_request("ping");
        invoke(request, "ping");
        break;
      }
      case Operation::octets: {
        CORBA::Request_var request = target->_request("send_octets");
        request->add_in_arg() <<= Payloads::lent(payloads.in->data);
        invoke(request, "send_octets");
        break;
      }
      case Operation::octets_out: {
        CORBA::Request_var request = target->_request("get_octets");
        request->add_in_arg() <<= size;
        request->add_out_arg() <<= Test::Octets();  // the type the ORB unmarshals the reply as
        invoke(request, "get_octets");
        if (verify) check_octets("octets_out", *reply_of(request, 1));
        break;
      }
      case Operation::octets_inout: {
        CORBA::Request_var request = target->_request("swap_octets");
        request->add_inout_arg() <<= Payloads::lent(payloads.inout->data);
        invoke(request, "swap_octets");
        if (verify) check_octets("octets_inout", *reply_of(request, 0));
        break;
      }
      case Operation::records: {
        CORBA::Request_var request = target->_request("send_records");
        request->add_in_arg() <<= Payloads::lent(*payloads.records);
        invoke(request, "send_records");
        break;
      }
    }
  }

  void invoke(CORBA::Request_ptr request, const char* operation) {
    request->invoke();
    if (CORBA::Exception* e = request->env()->exception()) {
      m.fail(std::string("DII ") + operation + " failed: " + describe(*e));
    }
  }
  static const Test::Octets* reply_of(CORBA::Request_ptr request, CORBA::ULong argument) {
    const Test::Octets* data = nullptr;
    *request->arguments()->item(argument)->value() >>= data;
    return data;
  }
};

// invocation=ami_poller: sendp_, then the poller's get, which blocks until
// the reply is in (or --timeout passes: CORBA::TIMEOUT).
struct PollerCall : CallBase {
  PollerCall(const DriverOptions& options, Measurement& measurement, Test::RoundTrip_ptr to)
      : CallBase(options, measurement, to),
        timeout_ms(static_cast<CORBA::ULong>(options.timeout_s * 1000.0)) {}

  void operator()() {
    switch (op) {
      case Operation::roundtrip: {
        const CORBA::ULongLong sent = mwbench::now_ns();
        Test::AMI_RoundTripPoller_var poller = target->sendp_test_method(sent);
        CORBA::ULongLong returned = 0;
        poller->test_method(timeout_ms, returned);
        check_echo(returned, sent);
        break;
      }
      case Operation::ping: {
        Test::AMI_RoundTripPoller_var poller = target->sendp_ping();
        poller->ping(timeout_ms);
        break;
      }
      case Operation::octets: {
        Test::AMI_RoundTripPoller_var poller = target->sendp_send_octets(payloads.in->data);
        poller->send_octets(timeout_ms);
        break;
      }
      case Operation::octets_out: {
        Test::AMI_RoundTripPoller_var poller = target->sendp_get_octets(size);
        Test::Octets_var data;
        poller->get_octets(timeout_ms, data.out());
        check_octets("octets_out", data.in());
        break;
      }
      case Operation::octets_inout: {
        Test::AMI_RoundTripPoller_var poller = target->sendp_swap_octets(payloads.inout->data);
        Test::Octets_var data;
        poller->swap_octets(timeout_ms, data.out());
        check_octets("octets_inout", data.in());
        break;
      }
      case Operation::records: {
        Test::AMI_RoundTripPoller_var poller = target->sendp_send_records(*payloads.records);
        poller->send_records(timeout_ms);
        break;
      }
    }
  }

  CORBA::ULong timeout_ms;
};

// invocation=ami_callback: sendc_ with the ReplyHandler's reference.
struct CallbackSender : CallBase {
  CallbackSender(const DriverOptions& options, Measurement& measurement, Test::RoundTrip_ptr to,
                 Test::AMI_RoundTripHandler_ptr handler_reference)
      : CallBase(options, measurement, to), handler(handler_reference) {}

  // Sends the call; test_method carries `value`.
  void send(CORBA::ULongLong value) {
    switch (op) {
      case Operation::roundtrip:
        target->sendc_test_method(handler, value);
        break;
      case Operation::ping:
        target->sendc_ping(handler);
        break;
      case Operation::octets:
        target->sendc_send_octets(handler, payloads.in->data);
        break;
      case Operation::octets_out:
        target->sendc_get_octets(handler, size);
        break;
      case Operation::octets_inout:
        target->sendc_swap_octets(handler, payloads.inout->data);
        break;
      case Operation::records:
        target->sendc_send_records(handler, *payloads.records);
        break;
    }
  }

  Test::AMI_RoundTripHandler_ptr handler;
};

}  // namespace

const char* const kClientPoolHelp =
    "N: with invocation=ami_callback, the threads that make AMI calls "
    "(maxClientThreadPoolSize): 1 (the default) makes one call at a time, replies in the order "
    "of the calls; above 1 (omniORB's default is 100), up to N calls in flight on connections of "
    "their own (connections=own) or one (shared), replies in any order, each matched by the "
    "call number it echoes (operation roundtrip only)";

unsigned client_pool_size(const DriverOptions& options) {
  if (!options.options.contains("client_pool_size")) return 1;
  const std::string text = options.option("client_pool_size", "");
  const std::string given = "--option client_pool_size=" + text;
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > 1000) {
    throw UsageError(given + ": must be a whole number from 1 to 1000");
  }
  // A client setting, which the server is given too and ignores.
  if (options.role == mwbench::Role::server) return value;
  if (invocation_of(options) != Invocation::ami_callback) {
    throw UsageError(given + ": applies only to invocation=ami_callback (or an open --load)");
  }
  if (value > 1 && options.operation != "roundtrip") {
    throw UsageError(given + " with --operation " + options.operation +
                     ": replies of several calls in flight come in any order, and only "
                     "roundtrip's carry the call number that matches them to their calls");
  }
  return value;
}

Invocation invocation_of(const DriverOptions& options) {
  // The open loop's only invocation is its default.
  const char* fallback = options.load.open() ? "ami_callback" : "static";
  return kInvocations.parse(options.option("invocation", fallback), "--option invocation=");
}

void check_invocation(Invocation invocation, const DriverOptions& options) {
  const std::string name = kInvocations.name(invocation);
  client_pool_size(options);  // its own checks, against the invocation and operation
  if (invocation == Invocation::oneway && options.operation != "ping") {
    const std::string& op = options.operation;
    if (op == "octets_out" || op == "octets_inout") {
      throw UsageError("--option invocation=oneway cannot carry " + op +
                       ": a oneway call has no reply");
    }
    throw UsageError("--option invocation=oneway carries ping only (as ping_oneway), not " + op);
  }
  if (options.load.open()) {
    const std::string load = "--load " + mwbench::to_string(options.load);
    if (invocation != Invocation::ami_callback) {
      throw UsageError(load + ": the open loop of omniorb is AMI callbacks, not invocation=" +
                       name + " (leave invocation unset, or ami_callback)");
    }
    if (options.option_flag("delivery_time", false)) {
      throw UsageError(load + ": --option delivery_time=1 times closed-loop calls only");
    }
  }
  if (invocation == Invocation::static_stub) return;
  if (options.threads != 1) {
    throw UsageError("--threads " + std::to_string(options.threads) +
                     ": --option invocation=" + name + " measures on one thread (--threads 1)");
  }
  if (options.option("target", "same") != "same") {
    throw UsageError("--option target=random: --option invocation=" + name +
                     " calls servant 0 only (target=same)");
  }
}

void measure_invocation(Invocation invocation, const DriverOptions& options, Measurement& m,
                        CORBA::ORB_ptr orb, Test::RoundTrip_ptr target,
                        mwbench::common::DeliveryBoard* board, const DeliveryTimer& delivery,
                        ReplyHandler* handler) {
  switch (invocation) {
    case Invocation::static_stub:
      throw std::logic_error("measure_invocation: static invocation is measure_calls()");
    case Invocation::dii:
      m.run([call = DiiCall(options, m, target), &delivery]() mutable { delivery(call); });
      break;
    case Invocation::ami_poller:
      m.run([call = PollerCall(options, m, target), &delivery]() mutable { delivery(call); });
      break;
    case Invocation::ami_callback: {
      Test::AMI_RoundTripHandler_var reference = handler->activate(orb);
      CallbackSender sender(options, m, target, reference.in());
      if (m.open_loop()) {
        // Call k's reply is completed(k): test_method carries k, for the
        // handler to check (one pool thread) or to match (several).
        handler->report_completions(client_pool_size(options) > 1);
        m.run_open([&](std::uint64_t call) { sender.send(call); });
        break;
      }
      const timespec timeout = timeout_of(options);
      m.run([&] {
        const CORBA::ULongLong sent = mwbench::now_ns();
        delivery([&] {
          sender.send(sent);
          if (!handler->wait(timeout)) {
            m.fail("no AMI reply within --timeout " +
                   mwbench::common::seconds_text(options.timeout_s) + " s");
          }
        });
        if (sender.op == Operation::roundtrip) sender.check_echo(handler->returned(), sent);
      });
      break;
    }
    case Invocation::oneway: {
      const timespec timeout = timeout_of(options);
      m.run_reported([&](std::uint64_t calls) {
        // Allocated and touched before the first call.
        std::vector<std::uint64_t> deliveries(calls);
        std::uint64_t taken = 0;
        for (; taken < calls && !m.stop_requested(); ++taken) {
          const std::uint32_t expected = board->entries() + 1;
          const std::uint64_t sent_ns = mwbench::now_ns();
          target->ping_oneway();
          if (!board->wait_for_entries(expected, timeout)) {
            throw std::runtime_error("ping_oneway: no call reached the servant within --timeout " +
                                     mwbench::common::seconds_text(options.timeout_s) + " s");
          }
          deliveries[taken] = board->entry_ns() - sent_ns;
        }
        deliveries.resize(taken);
        return deliveries;
      });
      break;
    }
  }
}

}  // namespace omniorb_driver
