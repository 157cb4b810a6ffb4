// Splitting a .config file into tokens, as the reader asks for them.
#include "config_tokens.hpp"

#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <utility>

namespace mwccm::deployment::detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

ConfigTokens::ConfigTokens(const std::string& file)
    : file_(file), text_(read_input_file(file, kPlanFile)) {}

const ConfigToken* ConfigTokens::peek() {
  if (!next_) next_ = lex();
  return next_ ? &*next_ : nullptr;
}

ConfigToken ConfigTokens::take() {
  peek();
  ConfigToken token = std::move(*next_);
  next_.reset();
  last_line_ = token.line;
  return token;
}

std::optional<ConfigToken> ConfigTokens::lex() {
  const std::string& text = text_;
  std::size_t& i = position_;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') ++line_;
    if (is_space(c)) {
      ++i;
    } else if (c == '#') {
      i = text.find('\n', i);
      if (i == std::string::npos) i = text.size();
    } else if (c == '"' || c == '\'') {
      const int start = line_;
      std::string value;
      ++i;
      while (i < text.size() && text[i] != c) {
        if (text[i] == '\n') ++line_;
        if (text[i] == '\\' && i + 1 < text.size()) ++i;  // \" \' \\ keep the next character
        value += text[i++];
      }
      if (i >= text.size()) {
        throw PlanError({file_, start}, std::string("a ") + (c == '"' ? "string" : "character") +
                                            " that starts here is not closed");
      }
      ++i;
      return ConfigToken{c == '"' ? ConfigToken::Kind::String : ConfigToken::Kind::Char,
                         std::move(value), start};
    } else if (c == '[') {
      throw PlanError({file_, line_}, "array values ([...]) are not read by mwccm");
    } else {
      const std::size_t begin = i;
      while (i < text.size() && !is_space(text[i]) && text[i] != '#' && text[i] != '"' &&
             text[i] != '\'') {
        ++i;
      }
      return ConfigToken{ConfigToken::Kind::Word, text.substr(begin, i - begin), line_};
    }
  }
  return std::nullopt;
}

}  // namespace mwccm::deployment::detail
