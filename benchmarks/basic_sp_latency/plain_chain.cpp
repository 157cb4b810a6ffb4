// Basic SP as a chain of plain C++ objects, with no component layer and no
// ORB (the paper's PRISM-style baseline): the same timer, the same work per
// step (a position copied under a lock, pulled by the next step), the same
// latency record, so that run.py can set mwccm's Basic SP against it.
//
//   basic-sp-plain-chain --hertz N --updates N --log FILE
//
// Ticks until N updates have been displayed, then writes "<update> <latency
// ns>" per update to FILE and exits 0.
#include <time.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

namespace {

std::uint64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(now.tv_nsec);
}

struct Position {
  double latitude, longitude, altitude;
  std::uint64_t tick_number, tick_time_ns;
};

// A position one step publishes and the next pulls, as the components' facets.
class SharedPosition {
 public:
  Position get() {
    std::lock_guard lock(mutex_);
    return position_;
  }
  void set(const Position& position) {
    std::lock_guard lock(mutex_);
    position_ = position;
  }

 private:
  std::mutex mutex_;
  Position position_{52.0, 4.0, 0.0, 0, 0};
};

class Hud {
 public:
  explicit Hud(std::size_t updates) { latencies_.reserve(updates); }
  void connect(SharedPosition& airframe) { airframe_ = &airframe; }
  void airframe_ready() {
    const Position position = airframe_->get();
    latencies_.push_back(monotonic_ns() - position.tick_time_ns);
  }
  const std::vector<std::uint64_t>& latencies() const { return latencies_; }

 private:
  SharedPosition* airframe_ = nullptr;
  std::vector<std::uint64_t> latencies_;
};

class Airframe {
 public:
  Airframe(SharedPosition& gps, Hud& hud) : gps_(gps), hud_(hud) {}
  void gps_ready() {
    Position position = gps_.get();
    position.altitude += 1000.0;
    position_.set(position);
    hud_.airframe_ready();
  }
  SharedPosition& position() { return position_; }

 private:
  SharedPosition& gps_;
  Hud& hud_;
  SharedPosition position_;
};

class Gps {
 public:
  void tick(std::uint64_t number, std::uint64_t time_ns) {
    const double step = static_cast<double>(number % 1000) * 1e-5;
    position_.set({52.0 + step, 4.0 + step, 0.0, number, time_ns});
    airframe_->gps_ready();
  }
  void connect(Airframe& airframe) { airframe_ = &airframe; }
  SharedPosition& position() { return position_; }

 private:
  SharedPosition position_;
  Airframe* airframe_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  unsigned hertz = 20;
  std::size_t updates = 100;
  std::string log;
  CLI::App app{"Basic SP as plain C++ objects: the baseline of the component chain"};
  app.add_option("--hertz", hertz, "ticks per second")->check(CLI::Range(1, 100'000));
  app.add_option("--updates", updates, "updates to display, then exit")
      ->check(CLI::Range(1, 10'000'000));
  app.add_option("--log", log, "where to write the latencies")->required();
  CLI11_PARSE(app, argc, argv);

  // Wired as the plan connects the components.
  Gps gps;
  Hud display(updates);
  Airframe airframe(gps.position(), display);
  display.connect(airframe.position());
  gps.connect(airframe);
  // The timer, as RateGen's: absolute deadlines, a late tick sent at once.
  std::thread timer([&] {
    const auto period = std::chrono::nanoseconds(1'000'000'000ULL / hertz);
    auto deadline = std::chrono::steady_clock::now();
    for (std::uint64_t number = 1; display.latencies().size() < updates; ++number) {
      deadline += period;
      std::this_thread::sleep_until(deadline);
      gps.tick(number, monotonic_ns());
    }
  });
  timer.join();
  std::ofstream out(log, std::ios::trunc);
  for (std::size_t i = 0; i < display.latencies().size(); ++i)
    out << i + 1 << ' ' << display.latencies()[i] << '\n';
  return out ? 0 : 1;
}
