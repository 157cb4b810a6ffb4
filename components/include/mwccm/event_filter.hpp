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
// filters decide per event.)
#pragma once

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
  std::string text() const;  // parse(text()) is this filter

 private:
  Mode mode_ = Mode::disjunction;
  std::vector<Term> terms_;
};

}  // namespace mwccm
