// The rawtcp wire format: the least a middleware must send for each
// operation, with nothing of its own around it.
//
// Per operation, one request and one reply:
//   roundtrip     8-byte send timestamp; the server echoes the 8 bytes.
//   ping          1 byte; the server echoes it.
//   octets        4-byte length (network order) + payload; the server replies
//                 1 status byte (1 ok, 0 payload mismatch when verify=1).
//   octets_out    4-byte length asked for; the server replies 4-byte length
//                 + that many bytes.
//   octets_inout  4-byte length + payload; the server replies 4-byte length
//                 + as many bytes of its own.
//   fanout        8-byte event number + 4-byte length (network order) +
//                 payload, written to every subscriber's connection; each
//                 replies 4-byte subscriber number + the 8-byte event number.
//                 Before the first event a subscriber sends its 4-byte number
//                 alone (its hello: it is ready to receive).
// Payloads carry pattern_byte() from the client and reply_byte() from the
// server, as in the omniORB driver, so verify=1 can check both directions.
#pragma once

#include <arpa/inet.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "rawtcp_transport.hpp"

namespace rawtcp {

inline constexpr std::uint8_t kPingByte = 'p';
inline constexpr std::uint8_t kStatusOk = 1;
inline constexpr std::uint8_t kStatusMismatch = 0;
inline constexpr std::size_t kMaxPayload = std::size_t{1} << 30;  // refuse absurd lengths

// Numbers go in host order, as roundtrip's timestamp does: both ends are on
// one machine. The length is in network order, as every rawtcp length is.
inline constexpr std::size_t kEventHeaderBytes = sizeof(std::uint64_t) + sizeof(std::uint32_t);
inline constexpr std::size_t kFanoutReplyBytes = sizeof(std::uint32_t) + sizeof(std::uint64_t);

// Byte `i` of a client's payload: position modulo a prime, so a chunk
// delivered twice or in the wrong place does not still match.
inline std::uint8_t pattern_byte(std::size_t i) { return static_cast<std::uint8_t>(i % 251); }
// Byte `i` of a server's payload: the pattern descending, so an echo of the
// request does not pass for a reply.
inline std::uint8_t reply_byte(std::size_t i) { return static_cast<std::uint8_t>(250 - i % 251); }

// `length` as 4 bytes in network order, then room for `payload` bytes.
inline std::vector<std::uint8_t> length_prefix(std::size_t length, std::size_t payload = 0) {
  std::vector<std::uint8_t> message(sizeof(std::uint32_t) + payload);
  const std::uint32_t length_be = htonl(static_cast<std::uint32_t>(length));
  std::memcpy(message.data(), &length_be, sizeof length_be);
  return message;
}

// A 4-byte length and `length` bytes of byte(i), in one buffer: sent with one
// send() per call, as a middleware sends one marshalled message.
template <class Byte>
std::vector<std::uint8_t> framed(std::size_t length, Byte byte) {
  std::vector<std::uint8_t> message = length_prefix(length, length);
  for (std::size_t i = 0; i < length; ++i) message[sizeof(std::uint32_t) + i] = byte(i);
  return message;
}

// A fan-out event: its header and `payload` bytes of pattern_byte(), in one
// buffer built once; set_event() writes each event's number into it.
inline std::vector<std::uint8_t> fanout_event(std::size_t payload) {
  std::vector<std::uint8_t> message(kEventHeaderBytes + payload);
  const std::uint32_t length_be = htonl(static_cast<std::uint32_t>(payload));
  std::memcpy(message.data() + sizeof(std::uint64_t), &length_be, sizeof length_be);
  for (std::size_t i = 0; i < payload; ++i) message[kEventHeaderBytes + i] = pattern_byte(i);
  return message;
}

inline void set_event(std::vector<std::uint8_t>& message, std::uint64_t event) {
  std::memcpy(message.data(), &event, sizeof event);
}

// An event's header as it arrived: its number and its payload's length.
inline void parse_event_header(const std::uint8_t (&header)[kEventHeaderBytes],
                               std::uint64_t& event, std::size_t& length) {
  std::uint32_t length_be;
  std::memcpy(&event, header, sizeof event);
  std::memcpy(&length_be, header + sizeof event, sizeof length_be);
  length = ntohl(length_be);
}

// A subscriber's reply, and back.
inline void make_reply(std::uint8_t (&reply)[kFanoutReplyBytes], std::uint32_t subscriber,
                       std::uint64_t event) {
  std::memcpy(reply, &subscriber, sizeof subscriber);
  std::memcpy(reply + sizeof subscriber, &event, sizeof event);
}

inline void parse_reply(const std::uint8_t (&reply)[kFanoutReplyBytes], std::uint32_t& subscriber,
                        std::uint64_t& event) {
  std::memcpy(&subscriber, reply, sizeof subscriber);
  std::memcpy(&event, reply + sizeof subscriber, sizeof event);
}

// Reads a 4-byte length. Returns false if the peer closed the connection
// before it (a clean end between messages); throws above kMaxPayload.
inline bool recv_length(int fd, std::size_t& length) {
  std::uint32_t length_be;
  if (!recv_all(fd, &length_be, sizeof length_be)) return false;
  length = ntohl(length_be);
  if (length > kMaxPayload) {
    throw std::runtime_error("peer announced " + std::to_string(length) + " bytes");
  }
  return true;
}

// Receives `length` bytes into `buf`, grown only if it is too small.
inline void recv_payload(int fd, std::vector<std::uint8_t>& buf, std::size_t length) {
  if (length > buf.size()) buf.resize(length);
  if (length > 0 && !recv_all(fd, buf.data(), length)) {
    throw std::runtime_error("peer closed the connection in the middle of a message");
  }
}

// Where a message's payload starts: after its 4-byte length.
inline constexpr std::size_t kPayloadOffset = sizeof(std::uint32_t);
// What a recv() of a message asks for at least: a message that fits arrives in one call.
inline constexpr std::size_t kFirstRead = std::size_t{64} << 10;

// Reads length-prefixed messages from a stream socket. A recv() asks for as much as
// the buffer holds, so a message that fits takes one system call, as a middleware
// reads a whole message into its buffer: reading the length and then the payload would
// cost the raw socket a second call that no middleware pays. What a recv() brings
// beyond the message (in an open loop the next request, sent without waiting) stays
// for the next call; in a closed loop nothing does, and each message is read into the
// buffer's start.
class MessageReader {
 public:
  // The next message: sets `length`, its payload at payload(). Returns false if the
  // peer closed the connection between messages; throws above kMaxPayload, when it
  // closes in the middle of a message, or on an error.
  bool next(int fd, std::size_t& length) {
    start_ = next_;
    if (start_ == end_) start_ = next_ = end_ = 0;
    while (end_ - start_ < kPayloadOffset) {
      if (receive(fd, kPayloadOffset) == 0) {
        if (end_ == start_) return false;
        throw std::runtime_error("peer closed the connection in the middle of a message");
      }
    }
    std::uint32_t length_be;
    std::memcpy(&length_be, buf_.data() + start_, sizeof length_be);
    length = ntohl(length_be);
    if (length > kMaxPayload) {
      throw std::runtime_error("peer announced " + std::to_string(length) + " bytes");
    }
    const std::size_t total = kPayloadOffset + length;
    while (end_ - start_ < total) {
      if (receive(fd, total) == 0) {
        throw std::runtime_error("peer closed the connection in the middle of a message");
      }
    }
    next_ = start_ + total;
    return true;
  }
  const std::uint8_t* payload() const noexcept { return buf_.data() + start_ + kPayloadOffset; }

 private:
  // One recv() into the buffer's free end, first moving the unread bytes to its
  // start if `wanted` bytes from the current message's start would not fit (and
  // growing it for a message larger than it). Returns the bytes received, 0 at the
  // peer's close.
  std::size_t receive(int fd, std::size_t wanted) {
    if (start_ + wanted > buf_.size()) {
      std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
      end_ -= start_;
      start_ = next_ = 0;
      if (wanted > buf_.size()) buf_.resize(wanted);
    }
    for (;;) {
      const ssize_t r = ::recv(fd, buf_.data() + end_, buf_.size() - end_, 0);
      if (r >= 0) {
        end_ += static_cast<std::size_t>(r);
        return static_cast<std::size_t>(r);
      }
      if (errno != EINTR) throw_errno("recv");
    }
  }

  std::vector<std::uint8_t> buf_ = std::vector<std::uint8_t>(kFirstRead);
  std::size_t start_ = 0;  // the current message
  std::size_t next_ = 0;   // the byte after it
  std::size_t end_ = 0;    // the bytes received
};

// The request of an octets operation: octets and octets_inout a 4-byte length and
// `size` bytes of pattern_byte(), octets_out the length alone.
inline std::vector<std::uint8_t> octets_request(const std::string& operation, std::size_t size) {
  return operation == "octets_out" ? length_prefix(size) : framed(size, pattern_byte);
}

// The index of the first of the `length` bytes at `data` that differs from
// byte(i), or `length` if none does.
template <class Byte>
std::size_t first_difference(const std::uint8_t* data, std::size_t length, Byte byte) {
  std::size_t at = 0;
  while (at < length && data[at] == byte(at)) ++at;
  return at;
}

// With verify=1, on the client: "" if the reply's payload is the server's
// pattern, else what is wrong (for Measurement::fail()).
inline std::string reply_mismatch(const std::string& operation, const std::uint8_t* payload,
                                  std::size_t length) {
  const std::size_t bad = first_difference(payload, length, reply_byte);
  if (bad == length) return {};
  return operation + ": reply differs from the server's pattern at byte " + std::to_string(bad) +
         " of " + std::to_string(length) + " (verify=1)";
}

}  // namespace rawtcp
