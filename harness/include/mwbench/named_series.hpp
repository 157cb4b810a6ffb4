// Named series (docs/driver-contract.md section 4, "Named series"): parts of
// a sample that the call itself times, one value per sample. The deploy
// driver's sample is one whole assembly; each phase of it, timed by the
// process that performs it, is a named series.
//
//   NamedSeries& parsing = measurement.named_series("plan_parsing", "total");
//   measurement.run([&] { ...; parsing.record(ns); });
//
// The call records each series once. The harness keeps the values of the
// measured calls only (not the warm-up's), so value i belongs to sample i;
// a series with another number of values than samples fails the run.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mwbench {

class NamedSeries {
 public:
  // Preallocates (and touches) `capacity` values, so record() never allocates.
  NamedSeries(std::string name, std::string part_of, std::uint64_t capacity);

  // Inside the call: this call's value, in the sample's unit (ns).
  void record(std::uint64_t value) noexcept {
    if (size_ < values_.size()) {
      values_[size_++] = value;
    } else {
      overflowed_ = true;
    }
  }

  const std::string& name() const noexcept { return name_; }
  // The series this one is a segment of, or "" for none.
  const std::string& part_of() const noexcept { return part_of_; }
  std::span<const std::uint64_t> values() const noexcept { return {values_.data(), size_}; }

  // The harness's: forget what the warm-up recorded, before the first sample.
  void restart() noexcept {
    size_ = 0;
    overflowed_ = false;
  }
  // The harness's: throws std::runtime_error naming the series unless it
  // holds exactly one value per sample.
  void check_complete(std::uint64_t samples) const;

 private:
  std::string name_;
  std::string part_of_;
  std::vector<std::uint64_t> values_;
  std::size_t size_ = 0;
  bool overflowed_ = false;
};

// Whether `name` may name a series: [a-z][a-z0-9_]*, at most 64 characters.
bool valid_series_name(const std::string& name) noexcept;

}  // namespace mwbench
