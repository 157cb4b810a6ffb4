// The measured calls: one per operation, each sent to the servant a picker
// chooses, built per client thread for Measurement::run_threads().
//
// Everything a call needs is built in its thread's setup, outside the timed
// region: payloads are filled once and lent to omniORB (release = false), the
// random targets are a precomputed index sequence. What is left in the call
// is the stub call and, with verify=1 only, the check of the reply (and,
// with delivery_time=1, two reads of the delivery board: omniorb_delivery.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mwbench/clock.hpp"
#include "mwbench/measurement.hpp"
#include "omniorb_delivery.hpp"
#include "omniorb_payload.hpp"
#include "omniorb_session.hpp"

namespace omniorb_driver {

// target=same: every call goes to servant 0.
class SameTarget {
 public:
  explicit SameTarget(Test::RoundTrip_ptr target) noexcept : target_(target) {}
  Test::RoundTrip_ptr operator()() noexcept { return target_; }

 private:
  Test::RoundTrip_ptr target_;
};

// target=random: servant sequence[k] for the k-th call, the sequence drawn
// uniformly once, before measuring (random_sequence()); each thread starts
// at its own place in it. No random number generator on the measured path.
class RandomTargets {
 public:
  RandomTargets(const OrbSession::Targets& targets, const std::vector<std::uint32_t>& sequence,
                int thread, int threads) noexcept
      : targets_(targets.data()),
        sequence_(sequence.data()),
        mask_(sequence.size() - 1),
        at_(sequence.size() / static_cast<std::size_t>(threads) *
            static_cast<std::size_t>(thread)) {}
  Test::RoundTrip_ptr operator()() noexcept { return targets_[sequence_[at_++ & mask_]].in(); }

 private:
  const Test::RoundTrip_var* targets_;
  const std::uint32_t* sequence_;
  std::size_t mask_;
  std::size_t at_;
};

// Uniformly drawn indices below `servants`, from a fixed seed (every run
// calls the same servants in the same order). A power of two long and at
// least four times `servants`, so that it covers them all and wraps with a
// mask.
std::vector<std::uint32_t> random_sequence(std::size_t servants);

// With verify=1, on the client: the reply of octets_out or octets_inout.
void check_reply(mwbench::Measurement& m, const char* operation, const Test::Octets& data,
                 CORBA::ULong expected_length);

// The inout payload of one thread. After a call it holds the servant's
// reply (omniORB unmarshals into the buffer it lent, or a collocated servant
// lends its own), which is sent again next time: only verify=1 needs the
// request restored.
struct InoutPayload {
  explicit InoutPayload(CORBA::ULong length);
  void restore();

  std::vector<CORBA::Octet> request;  // the pattern, never lent
  std::vector<CORBA::Octet> work;     // lent to `data`
  Test::Octets data;
};

// An octets payload lent by a buffer that stays where it is.
struct OctetsPayload {
  explicit OctetsPayload(CORBA::ULong length);
  std::vector<CORBA::Octet> bytes;
  Test::Octets data;
};

Test::Records make_records(std::uint64_t payload_bytes);

// Runs the --operation on --threads threads; make_pick(thread) gives each
// thread its picker (SameTarget or RandomTargets). `delivery` times each
// call's delivery too, if it was given a board (--threads 1).
template <class MakePick>
void measure_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                   MakePick make_pick, const DeliveryTimer& delivery = {}) {
  const std::string& op = options.operation;
  const bool verify = options.option_flag("verify", false);
  const auto size = static_cast<CORBA::ULong>(options.payload_bytes);
  if (op == "roundtrip") {
    m.run_threads([&](int t) {
      return [&m, delivery, pick = make_pick(t)]() mutable {
        const CORBA::ULongLong sent = mwbench::now_ns();
        CORBA::ULongLong returned = 0;
        delivery([&] { returned = pick()->test_method(sent); });
        if (returned != sent) {
          m.fail("test_method returned a value other than the send_time it was given");
        }
      };
    });
  } else if (op == "ping") {
    m.run_threads([&](int t) {
      return [delivery, pick = make_pick(t)]() mutable { delivery([&] { pick()->ping(); }); };
    });
  } else if (op == "octets") {
    m.run_threads([&](int t) {
      return [delivery, pick = make_pick(t), in = std::make_unique<OctetsPayload>(size)]() mutable {
        delivery([&] { pick()->send_octets(in->data); });
      };
    });
  } else if (op == "octets_out") {
    m.run_threads([&](int t) {
      return [&m, delivery, verify, size, pick = make_pick(t)]() mutable {
        Test::Octets_var data;  // the stub allocates it, as the C++ mapping says
        delivery([&] { pick()->get_octets(size, data.out()); });
        if (verify) check_reply(m, "octets_out", data.in(), size);
      };
    });
  } else if (op == "octets_inout") {
    m.run_threads([&](int t) {
      return [&m, delivery, verify, size, pick = make_pick(t),
              inout = std::make_unique<InoutPayload>(size)]() mutable {
        delivery([&] { pick()->swap_octets(inout->data); });
        if (verify) {
          check_reply(m, "octets_inout", inout->data, size);
          inout->restore();
        }
      };
    });
  } else {  // records; run_driver() admits no other operation
    m.run_threads([&](int t) {
      return [delivery, pick = make_pick(t),
              records = std::make_unique<Test::Records>(make_records(size))]() mutable {
        delivery([&] { pick()->send_records(*records); });
      };
    });
  }
}

}  // namespace omniorb_driver
