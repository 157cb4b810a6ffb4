// The tokens of DnCX11's .config plan format: words (keys, names, numbers,
// "type:value"), "quoted strings" and 'c'haracters, each with its line;
// newlines are whitespace and '#' starts a comment. Internal.
#pragma once

#include <string>
#include <vector>

namespace mwccm::deployment::detail {

struct ConfigToken {
  enum class Kind { Word, String, Char } kind = Kind::Word;
  std::string text;  // a string's or character's text without quotes and escapes
  int line = 0;
};

// Throws PlanError (file:line) on an unterminated string or character, an
// array ("[...]", which mwccm does not read), or a file it cannot read.
std::vector<ConfigToken> read_config_tokens(const std::string& file);

}  // namespace mwccm::deployment::detail
