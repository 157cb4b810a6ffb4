// Input a user names, read the one way every mwccm tool reads it: a plan, a
// component interface description, a node map, an IOR file, a deployment's
// state. Any of them may be hostile or a mistake (/dev/zero, a FIFO, a
// directory, gigabytes, bytes that are not text), so a file is
//   - refused unless it is a regular file, by what it is ("is a FIFO"),
//     found with stat() before it is opened: a FIFO is never opened, so
//     nothing blocks; and opened without blocking and checked again with
//     fstat(), in case it was replaced in between;
//   - read up to its kind's bound and no further (a file that grows while it
//     is read, or a /proc file whose size says 0, is still bounded);
//   - refused unless it is UTF-8 text without NUL bytes, naming the line of
//     the first byte that is not.
// Every refusal says where, as "file:line: message" ("file: message" for the
// file as a whole), with the bound it broke. And a value a message quotes is
// kept short (quote(), shortened()), so that no input makes a long error line.
// Header-only: the plan tools, which have no ORB, read files too.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace mwccm {

// A kind of file and the most it may hold, in bytes.
struct FileKind {
  const char* name;  // "a node map": how a refusal names it
  std::size_t max_bytes;
};

// An IOR file (a `file:` reference): one stringified reference, a few KiB
// (the bound leaves room for many profiles).
inline constexpr FileKind kIorFile{"an IOR file", std::size_t{1} << 20};

// A file refused: where (line 0: the file as a whole) and why.
class FileRefused : public std::runtime_error {
 public:
  FileRefused(std::string file, int line, std::string message)
      : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + message),
        file_(std::move(file)),
        line_(line),
        message_(std::move(message)) {}
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

// `text` for a message, kept on one line and short: control characters
// escaped ("\x0A"), and cut after 60 bytes (at a character boundary) with an
// ellipsis.
inline std::string shortened(std::string_view text) {
  constexpr std::size_t kShown = 60;
  std::size_t shown = text.size();
  if (shown > kShown) {
    shown = kShown;
    while (shown > 0 && (static_cast<unsigned char>(text[shown]) & 0xC0) == 0x80) --shown;
  }
  std::string out;
  for (const char c : text.substr(0, shown)) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(c));
      out += escaped;
    }
  }
  return shown == text.size() ? out : out + "…";
}

// A value a message quotes: 'text', shortened, with the length of a long
// one: 'aaaa…' (20971520 bytes).
inline std::string quote(std::string_view text) {
  const std::string shown = "'" + shortened(text) + "'";
  return text.size() > 60 ? shown + " (" + std::to_string(text.size()) + " bytes)" : shown;
}

namespace detail {

// What a file that is not a regular one is, for a refusal.
inline std::string not_a_regular_file(mode_t mode) {
  const char* what = S_ISDIR(mode)    ? "a directory"
                     : S_ISFIFO(mode) ? "a FIFO"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : nullptr;
  return what == nullptr ? "is not a regular file"
                         : std::string("is ") + what + ", not a regular file";
}

inline std::string bound_of(const FileKind& kind) {
  const std::size_t mib = kind.max_bytes >> 20;
  const std::string size = mib << 20 == kind.max_bytes && mib > 0
                               ? std::to_string(mib) + " MiB"
                               : std::to_string(kind.max_bytes) + " bytes";
  return std::string(kind.name) + " is at most " + size;
}

// The length of the UTF-8 sequence that starts `text` at `i`, or 0 when the
// bytes there are not one (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF).
inline std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t at) {
    return at < text.size() ? static_cast<unsigned char>(text[at]) : 0u;
  };
  const unsigned lead = byte(i);
  const auto in = [](unsigned b, unsigned low, unsigned high) { return b >= low && b <= high; };
  if (lead < 0x80) return 1;
  if (in(lead, 0xC2, 0xDF)) return in(byte(i + 1), 0x80, 0xBF) ? 2 : 0;
  if (in(lead, 0xE0, 0xEF)) {
    const unsigned low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
    return in(byte(i + 1), low, high) && in(byte(i + 2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(lead, 0xF0, 0xF4)) {
    const unsigned low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
    return in(byte(i + 1), low, high) && in(byte(i + 2), 0x80, 0xBF) && in(byte(i + 3), 0x80, 0xBF)
               ? 4
               : 0;
  }
  return 0;
}

inline void check_text(const std::string& file, std::string_view text) {
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') ++line;
    if (c != 0 && c < 0x80) {  // ASCII, most of any file
      ++i;
      continue;
    }
    if (c == 0) throw FileRefused(file, line, "a NUL byte: the file must be UTF-8 text");
    const std::size_t length = utf8_length(text, i);
    if (length == 0) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", c);
      throw FileRefused(file, line,
                        std::string("invalid UTF-8 (byte ") + byte + "): the file must be UTF-8");
    }
    i += length;
  }
}

// Closes a descriptor on every path.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace detail

// The text of `file`, checked as this header's comment says; FileRefused
// otherwise. Returns at once whatever the file is: nothing here blocks.
inline std::string read_text_file(const std::string& file, const FileKind& kind) {
  const auto cannot_read = [&] {
    return FileRefused(file, 0, std::string("cannot read the file (") + std::strerror(errno) + ")");
  };
  const auto too_large = [&](const std::string& size) {
    return FileRefused(file, 0, "is " + size + " bytes; " + detail::bound_of(kind));
  };
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) throw cannot_read();
  if (!S_ISREG(status.st_mode))
    throw FileRefused(file, 0, detail::not_a_regular_file(status.st_mode));
  if (static_cast<std::size_t>(status.st_size) > kind.max_bytes)
    throw too_large(std::to_string(status.st_size));
  const detail::Descriptor in{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (in.fd < 0) throw cannot_read();
  if (::fstat(in.fd, &status) != 0) throw cannot_read();
  if (!S_ISREG(status.st_mode))
    throw FileRefused(file, 0, detail::not_a_regular_file(status.st_mode));
  std::string text;
  text.reserve(static_cast<std::size_t>(status.st_size));
  char buffer[16384];
  for (;;) {
    const ssize_t got = ::read(in.fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw cannot_read();
    if (got == 0) break;
    if (text.size() + static_cast<std::size_t>(got) > kind.max_bytes)  // it grew as it was read
      throw too_large("more than " + std::to_string(kind.max_bytes));
    text.append(buffer, static_cast<std::size_t>(got));
  }
  detail::check_text(file, text);
  return text;
}

// What `path` is when it exists and is not a regular file ("is a FIFO, not
// a regular file"); "" for a regular file or none: for a file a tool will
// write, which must not block it either.
inline std::string not_a_regular_file(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return {};
  return detail::not_a_regular_file(status.st_mode);
}

}  // namespace mwccm
