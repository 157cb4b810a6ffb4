// The tokens of DnCX11's .config plan format: words (keys, names, numbers,
// "type:value"), "quoted strings" and 'c'haracters, each with its line;
// newlines are whitespace and '#' starts a comment. Internal.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace mwccm::deployment::detail {

struct ConfigToken {
  enum class Kind { Word, String, Char } kind = Kind::Word;
  std::string text;  // a string's or character's text without quotes and escapes
  int line = 0;
};

// A .config file's tokens, made one at a time as the reader asks: never all
// at once, which for a file of short words would take many times its size.
class ConfigTokens {
 public:
  // Reads `file` (a plan's bound, UTF-8: input_files.hpp); PlanError if refused.
  explicit ConfigTokens(const std::string& file);

  // The next token, not taken; null at the end of the file. PlanError
  // (file:line) on an unterminated string or character, or an array
  // ("[...]", which mwccm does not read).
  const ConfigToken* peek();
  // Takes the next token; there must be one (peek() said so).
  ConfigToken take();
  // The line of the last token taken (1 before any): where the file ends.
  int last_line() const noexcept { return last_line_; }

 private:
  std::optional<ConfigToken> lex();

  std::string file_;
  std::string text_;
  std::size_t position_ = 0;
  int line_ = 1;  // of position_
  std::optional<ConfigToken> next_;
  int last_line_ = 1;
};

}  // namespace mwccm::deployment::detail
