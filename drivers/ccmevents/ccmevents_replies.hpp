// How subscribers' replies reach the publisher, the same for every layer and
// strategy, so that those differ by the delivery of events alone.
//
// Collocated, a subscriber is called on the publishing thread (a channel's
// local delivery, omniORB's collocated call) and counts its reply into the
// publisher's tally at once. A subscriber process replies over one TCP
// connection that the publisher opens to it (loopback by default), as the
// raw fan-out baseline (rawtcp) replies over its connections: 16 bytes a
// reply, native byte order (both ends run on this machine):
//   int32 subscriber, uint32 intact (1, or 0 for a payload found wrong),
//   uint64 event number (0 answers a handshake probe).
// A subscriber process sends the replies of its K subscribers to one event
// together, once the K-th is in: the publisher still waits for the last
// subscriber's, but the replies cost one message per process rather than K,
// so that they hide no less of what a delivery strategy saves (a channel
// sends one message per process too). A probe's answer goes at once.
//
// Under an open-loop --load many events are in flight at once: OpenReplies
// counts each one's replies, and a thread of the publisher's passes the
// reply connections' replies to it (ReplyReader::pass_replies).
#pragma once

#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ccmevents_subscriber.hpp"
#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"

namespace ccmevents {

struct WireReply {
  std::int32_t subscriber;
  std::uint32_t intact;
  std::uint64_t event;
};
static_assert(sizeof(WireReply) == 16);

// Collocated: the replies to the event in flight, counted as they come.
class TallyReplies final : public ReplySink {
 public:
  TallyReplies(int subscribers, mwbench::Measurement& m) : tally_(subscribers), m_(m) {}
  void reply(std::int32_t subscriber, std::uint64_t event, bool intact) override;
  mwbench::ReplyTally& tally() noexcept { return tally_; }
  // After the push: fails the call, naming them, if replies are missing.
  void check_complete();

 private:
  mwbench::ReplyTally tally_;
  mwbench::Measurement& m_;
  bool failed_ = false;
};

// Collocated, delivered on another thread (a DDS reader's): the publisher
// waits, after its push, for the last reply.
class WaitingReplies final : public ReplySink {
 public:
  WaitingReplies(int subscribers, mwbench::Measurement& m) : tally_(subscribers), m_(m) {}
  void reply(std::int32_t subscriber, std::uint64_t event, bool intact) override;
  void expect(std::uint64_t event);
  // Until the event in flight is complete; no reply for `timeout_ms` fails the
  // call naming who is missing. False if the call failed.
  bool await(int timeout_ms);
  std::uint64_t published() const noexcept { return tally_.published(); }

 private:
  mwbench::ReplyTally tally_;
  mwbench::Measurement& m_;
  std::mutex mutex_;  // guards tally_, over_
  std::condition_variable complete_;
  bool over_ = false;  // the event in flight is complete, or a reply was wrong
};

// Open loop: the replies to every event in flight, from any thread (the
// publishing thread when a collocated delivery calls the subscribers within
// the push, a DDS reader's, the reply connections' reader). Event k is call
// k - 1 of Measurement::run_open(); it is complete, and completed() told,
// when the last of its subscribers' replies arrives. Allocates only when
// built.
class OpenReplies final : public ReplySink {
 public:
  // `calls`: the run's warm-up and measured calls.
  OpenReplies(int subscribers, std::uint64_t calls, mwbench::Measurement& m);
  void reply(std::int32_t subscriber, std::uint64_t event, bool intact) override;

 private:
  int subscribers_;
  std::vector<std::atomic<std::int32_t>> missing_;  // replies each call still awaits
  mwbench::Measurement& m_;
};

// A subscriber process's end: listens on `address`, takes the publisher's
// one connection on a thread of its own, and writes every reply to it.
class ReplyConnection final : public ReplySink {
 public:
  // `hosted`: the subscribers of this process, whose replies go together.
  ReplyConnection(const std::string& address, double timeout_s, int hosted);
  ~ReplyConnection() override;
  ReplyConnection(const ReplyConnection&) = delete;
  ReplyConnection& operator=(const ReplyConnection&) = delete;

  std::string endpoint() const;  // "ADDRESS:PORT"
  // A reply before the publisher has connected waits for it, up to the
  // timeout; a reply that cannot be written is dropped (the publisher's
  // own timeout names the subscriber).
  void reply(std::int32_t subscriber, std::uint64_t event, bool intact) override;
  void shut_down() noexcept;  // wakes the accepting thread (the stop callback)

 private:
  void accept_publisher();
  void send_pending();  // with mutex_ held

  int listener_ = -1;
  std::vector<WireReply> pending_;  // replies to one event, not sent yet
  std::size_t hosted_;
  std::string endpoint_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;  // guards connection_, shut_; serializes writes
  std::condition_variable connected_;
  int connection_ = -1;
  bool shut_ = false;
  std::thread acceptor_;
};

// The publisher's end: one connection to each subscriber process.
class ReplyReader {
 public:
  explicit ReplyReader(const std::vector<std::string>& endpoints);  // "ADDRESS:PORT" each
  ~ReplyReader();
  ReplyReader(const ReplyReader&) = delete;
  ReplyReader& operator=(const ReplyReader&) = delete;

  // Calls `probe` (publish an event numbered 0) until each of `subscribers`
  // has answered one, again every 100 ms (a datagram may be lost), within
  // `timeout_s`; std::runtime_error naming the silent subscribers after it.
  void handshake(int subscribers, const std::function<void()>& probe, double timeout_s);
  // Reads replies until the tally's event is complete or a reply is wrong
  // (m.fail); no reply for `timeout_ms` fails the call, naming who is missing.
  void await(mwbench::ReplyTally& tally, mwbench::Measurement& m, int timeout_ms);
  // Open loop, on a thread of its own: hands every reply to `sink` until
  // interrupt(). A subscriber process that closes its connection before
  // that fails the measurement, naming it.
  void pass_replies(ReplySink& sink, mwbench::Measurement& m);
  // From another thread: ends pass_replies() (shuts the connections down).
  void interrupt() noexcept;

 private:
  // Waits up to `timeout_ms` for replies; hands each to `take` until it
  // returns true. False on timeout; throws when a subscriber process closes
  // its connection. Allocates nothing (it runs on the measured path).
  template <class Take>
  bool read(int timeout_ms, Take&& take);

  // What arrived on one connection and is not taken yet: whole replies, and
  // the start of one a segment split.
  struct Received {
    std::vector<WireReply> replies;
    std::size_t bytes = 0;
    std::size_t taken = 0;  // replies handed to `take`
  };
  std::vector<int> connections_;
  std::atomic<bool> interrupted_{false};
  std::vector<pollfd> watched_;  // one per connection, built once
  std::vector<Received> received_;
};

// Open loop: while it lives, a thread passes the replies `reader` receives to
// `sink` (nothing without a reader: collocated, the subscribers reply to the
// sink themselves).
class ReplyPassing {
 public:
  ReplyPassing(ReplyReader* reader, ReplySink& sink, mwbench::Measurement& m);
  ~ReplyPassing();  // interrupts the reader and joins its thread
  ReplyPassing(const ReplyPassing&) = delete;
  ReplyPassing& operator=(const ReplyPassing&) = delete;

 private:
  ReplyReader* reader_;
  std::thread thread_;
};

}  // namespace ccmevents
