// Splitting a .config file into tokens.
#include "config_tokens.hpp"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <mwccm/deployment/plan_error.hpp>

namespace mwccm::deployment::detail {
namespace {

constexpr long kMaxBytes = 64L << 20;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

std::vector<ConfigToken> read_config_tokens(const std::string& file) {
  struct stat status {};
  if (stat(file.c_str(), &status) != 0) throw PlanError({file, 0}, "cannot read the file");
  if (!S_ISREG(status.st_mode)) throw PlanError({file, 0}, "not a regular file");
  if (status.st_size > kMaxBytes) throw PlanError({file, 0}, "larger than 64 MiB");
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw PlanError({file, 0}, "cannot read the file");

  std::vector<ConfigToken> tokens;
  int line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (is_space(c)) {
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const int start = line;
      std::string value;
      ++i;
      while (i < text.size() && text[i] != c) {
        if (text[i] == '\n') ++line;
        if (text[i] == '\\' && i + 1 < text.size()) ++i;  // \" \' \\ keep the next character
        value += text[i++];
      }
      if (i >= text.size()) {
        throw PlanError({file, start}, std::string("a ") + (c == '"' ? "string" : "character") +
                                           " that starts here is not closed");
      }
      ++i;
      tokens.push_back(
          {c == '"' ? ConfigToken::Kind::String : ConfigToken::Kind::Char, value, start});
    } else if (c == '[') {
      throw PlanError({file, line}, "array values ([...]) are not read by mwccm");
    } else {
      std::string word;
      while (i < text.size() && !is_space(text[i]) && text[i] != '#' && text[i] != '"' &&
             text[i] != '\'') {
        word += text[i++];
      }
      tokens.push_back({ConfigToken::Kind::Word, word, line});
    }
  }
  return tokens;
}

}  // namespace mwccm::deployment::detail
