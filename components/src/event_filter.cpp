// Parsing and applying a consumer's event filter (event_filter.hpp).
#include <mwccm/event_filter.hpp>
#include <stdexcept>

namespace mwccm {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

EventFilter EventFilter::parse(std::string_view text) {
  EventFilter filter;
  const auto colon = text.find(':');
  const std::string_view mode = trimmed(text.substr(0, colon));
  if (colon == std::string_view::npos || (mode != "conjunction" && mode != "disjunction")) {
    throw std::invalid_argument(
        "an event filter starts with 'conjunction:' or 'disjunction:', "
        "not '" +
        std::string(text.substr(0, 40)) + "'");
  }
  filter.mode_ = mode == "conjunction" ? Mode::conjunction : Mode::disjunction;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view term = trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto equals = term.find('=');
    const std::string_view kind = trimmed(term.substr(0, equals));
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view{} : trimmed(term.substr(equals + 1));
    if ((kind != "source" && kind != "type") || value.empty()) {
      throw std::invalid_argument(
          "an event filter's term is source=INSTANCE.PORT or "
          "type=REPOSITORY_ID, not '" +
          std::string(term) + "'");
    }
    filter.terms_.push_back({kind == "source", std::string(value)});
  }
  if (filter.terms_.empty()) {
    throw std::invalid_argument("an event filter names at least one source= or type= term");
  }
  return filter;
}

bool EventFilter::passes(std::string_view source, const char* type,
                         std::string_view declared_type) const noexcept {
  if (terms_.empty()) return true;
  const std::string_view event_type = type != nullptr ? std::string_view(type) : declared_type;
  for (const Term& term : terms_) {
    const bool holds = term.value == (term.source ? source : event_type);
    if (mode_ == Mode::disjunction && holds) return true;
    if (mode_ == Mode::conjunction && !holds) return false;
  }
  return mode_ == Mode::conjunction;
}

std::string EventFilter::text() const {
  if (terms_.empty()) return "";
  std::string text = mode_ == Mode::conjunction ? "conjunction:" : "disjunction:";
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    text += (i == 0 ? " " : ", ") + std::string(terms_[i].source ? "source=" : "type=") +
            terms_[i].value;
  }
  return text;
}

}  // namespace mwccm
