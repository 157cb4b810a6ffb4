// What the zmq driver's REQ and REP sockets send, and how they wait for it.
//
// Per operation, one request message and one reply message (ZeroMQ frames
// them; nothing of ours is added):
//   roundtrip  8-byte send timestamp; the REP side echoes the 8 bytes.
//   ping       1 byte; the REP side echoes it.
//   octets     --payload-bytes bytes of pattern_byte(); the REP side replies
//              1 status byte (1 ok, 0 mismatch when verify=1).
//   fanout     PUB to every SUB: a FanoutHeader (kEvent, the event's number)
//              + --payload-bytes bytes of pattern_byte(); each subscriber's
//              PUSH replies with a FanoutHeader alone (its own number). The
//              handshake's probes and their answers are FanoutHeaders of
//              kind kProbe (zmq_publisher.hpp).
// The payload pattern is rawtcp's and the omniORB driver's: byte i is i mod 251.
//
// receive() is the measured wait: with wait=block a blocking zmq_recv(); with
// wait=spin zmq_recv(ZMQ_DONTWAIT) again and again until a message is there.
// Both copy the message into a buffer the caller allocated before the loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "mwbench/options.hpp"

namespace zmq_driver {

inline constexpr std::uint8_t kPingByte = 'p';
inline constexpr std::uint8_t kStatusOk = 1;
inline constexpr std::uint8_t kStatusMismatch = 0;

// Byte `i` of a request's payload: position modulo a prime, so a chunk
// delivered twice or in the wrong place does not still match.
inline std::uint8_t pattern_byte(std::size_t i) { return static_cast<std::uint8_t>(i % 251); }

inline std::vector<std::uint8_t> octets_request(std::size_t length) {
  std::vector<std::uint8_t> message(length);
  for (std::size_t i = 0; i < length; ++i) message[i] = pattern_byte(i);
  return message;
}

// The start of every fan-out message, copied in and out with memcpy (host
// order: both ends are on one machine). `subscriber` is 0 from the publisher.
struct FanoutHeader {
  std::uint64_t number;  // the event's, or the probe's
  std::uint32_t kind;
  std::uint32_t subscriber;
};
inline constexpr std::uint32_t kEvent = 1;
inline constexpr std::uint32_t kProbe = 2;

enum class Wait { block, spin };

// --option wait=block|spin (default block); UsageError for anything else.
Wait wait_option(const mwbench::DriverOptions& options);
const char* to_string(Wait wait) noexcept;

// Receives one message into `buf` and returns its size (which may exceed
// buf.size(): ZeroMQ truncates the copy, not the size). Throws zmq::error_t
// on an error, ETERM when the context is shut down, for both ways of waiting.
inline std::size_t receive(zmq::socket_t& socket, zmq::mutable_buffer buf, Wait wait) {
  if (wait == Wait::block) {
    // Empty only on EAGAIN, which a blocking socket without ZMQ_RCVTIMEO never gives.
    if (const auto got = socket.recv(buf, zmq::recv_flags::none)) return got->untruncated_size;
    throw std::runtime_error("zmq_recv: EAGAIN on a blocking socket");
  }
  for (;;) {
    if (const auto got = socket.recv(buf, zmq::recv_flags::dontwait)) return got->untruncated_size;
  }
}

// The endpoints the server publishes, one per client thread, on one line
// separated by spaces; and back.
std::string join_endpoints(const std::vector<std::string>& endpoints);
std::vector<std::string> split_endpoints(const std::string& line);

}  // namespace zmq_driver
