// A consumer's event filter, as a deployment plan declares it
// (docs/events.md section 3; CIAO's `filter` element):
//
//   disjunction: source=gps.ready, source=airframe.ready
//   conjunction: source=gps.ready, type=IDL:BasicSP/DataReady:1.0
//
// Each term is a predicate on one event: `source=` its supplier
// ("instance.port"), `type=` its repository id. A conjunction passes an
// event for which every term holds, a disjunction one for which some term
// holds. An empty filter passes everything. (RtEC's conjunction, which waits
// for an event of every source before it delivers, is not this: mwccm's
// filters decide per event.) Header-only: plan checks, which have no ORB,
// parse filters too.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mwccm {

class EventFilter {
 public:
  enum class Mode { conjunction, disjunction };
  struct Term {
    bool source;  // a `source=` term; otherwise `type=`
    std::string value;
  };

  EventFilter() = default;  // passes every event
  // The text above; std::invalid_argument saying what is wrong with it.
  static EventFilter parse(std::string_view text);

  // `type` may be null: an event whose type is only the declared one, which
  // a `type=` term then compares with `declared_type`.
  bool passes(std::string_view source, const char* type,
              std::string_view declared_type) const noexcept;
  bool empty() const noexcept { return terms_.empty(); }
  const std::vector<Term>& terms() const noexcept { return terms_; }
  std::string text() const;  // parse(text()) is this filter

 private:
  Mode mode_ = Mode::disjunction;
  std::vector<Term> terms_;
};

namespace detail {

inline std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace detail

inline EventFilter EventFilter::parse(std::string_view text) {
  EventFilter filter;
  const auto colon = text.find(':');
  const std::string_view mode = detail::trimmed(text.substr(0, colon));
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
    const std::string_view term = detail::trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto equals = term.find('=');
    const std::string_view kind = detail::trimmed(term.substr(0, equals));
    const std::string_view value = equals == std::string_view::npos
                                       ? std::string_view{}
                                       : detail::trimmed(term.substr(equals + 1));
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

inline bool EventFilter::passes(std::string_view source, const char* type,
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

inline std::string EventFilter::text() const {
  if (terms_.empty()) return "";
  std::string text = mode_ == Mode::conjunction ? "conjunction:" : "disjunction:";
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    text += (i == 0 ? " " : ", ") + std::string(terms_[i].source ? "source=" : "type=") +
            terms_[i].value;
  }
  return text;
}

}  // namespace mwccm
