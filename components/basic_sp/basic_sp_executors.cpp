// The executors of BasicSP.idl3. RateGen publishes `tick` from a timer thread
// between activation and passivation; GPS refreshes its position on each
// tick and says so; Airframe pulls the GPS position when told, refreshes its
// own and says so; HUD pulls that and records the latency from the tick to
// the display, written to `log_file` (if set) at passivation, so that nothing
// is written while ticks flow. One source for both assembly modes.
#include <time.h>

#include <BasicSP_ccm_executor.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <mwccm/errors.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

// One event object per source, refilled for every push while nobody else
// holds it: a consumer in another process gets its own copy, and one in
// this process that keeps a reference makes the next push take a new
// object. So a tick allocates nothing on its way to the display.
template <class Impl, class Var>
auto* reusable(Var& held) {
  if (held.in() == nullptr || held->_refcount_value() != 1) held = new Impl;
  return held.in();
}

CORBA::ULongLong monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<CORBA::ULongLong>(now.tv_sec) * 1'000'000'000ULL +
         static_cast<CORBA::ULongLong>(now.tv_nsec);
}

// ---- RateGen ----------------------------------------------------------------

class RateGenExecutor final : public BasicSP::RateGen_exec_base {
 public:
  ~RateGenExecutor() override { stop(); }
  CORBA::ULong hertz() override { return hertz_; }
  void hertz(CORBA::ULong value) override { hertz_ = value; }

  void configuration_complete() override {
    if (hertz_ < 1 || hertz_ > 100'000) {
      mwccm::raise<Components::InvalidConfiguration>(
          "RateGen: attribute 'hertz' is from 1 to 100000, not " + std::to_string(hertz_));
    }
  }
  void ccm_activate() override {
    stopping_ = false;
    timer_ = std::thread([this] { run(); });
  }
  void ccm_passivate() override { stop(); }
  void ccm_remove() override { stop(); }

 private:
  // Ticks at absolute deadlines (no drift); a tick that is late is sent at
  // once and the next keeps its own deadline.
  void run() {
    const auto period = std::chrono::nanoseconds(1'000'000'000ULL / hertz_);
    auto deadline = std::chrono::steady_clock::now();
    CORBA::ULongLong number = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
      deadline += period;
      if (wake_.wait_until(lock, deadline, [this] { return stopping_; })) return;
      lock.unlock();
      BasicSP::Tick* tick = reusable<BasicSP::Tick_impl>(tick_);
      tick->number(++number);
      tick->time_ns(monotonic_ns());
      context()->push_tick(tick);
      lock.lock();
    }
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (timer_.joinable()) timer_.join();
  }

  CORBA::ULong hertz_ = 20;
  BasicSP::Tick_var tick_;  // the timer thread's only
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread timer_;
};

// ---- GPS and Airframe: a position behind a facet ----------------------------

// A position shared by a component and its `position` facet.
class SharedPosition {
 public:
  BasicSP::Position get() {
    std::lock_guard lock(mutex_);
    return position_;
  }
  void set(const BasicSP::Position& position) {
    std::lock_guard lock(mutex_);
    position_ = position;
  }

 private:
  std::mutex mutex_;
  BasicSP::Position position_{52.0, 4.0, 0.0, 0, 0};
};

class PositionFacet final : public BasicSP::PositionData_exec_base {
 public:
  explicit PositionFacet(std::shared_ptr<SharedPosition> position)
      : position_(std::move(position)) {}
  BasicSP::Position get_position() override { return position_->get(); }

 private:
  std::shared_ptr<SharedPosition> position_;
};

// What GPS and Airframe share: the position their facet serves, and the
// DataReady they announce a new one with, reused (pushed from the tick's
// thread only, so nothing is allocated per tick).
class PositionPublisher {
 protected:
  template <class Context>
  void publish(const BasicSP::Position& position, Context* context) {
    position_->set(position);
    BasicSP::DataReady* ready = reusable<BasicSP::DataReady_impl>(ready_);
    ready->tick_number(position.tick_number);
    ready->tick_time_ns(position.tick_time_ns);
    context->push_ready(ready);
  }

  std::shared_ptr<SharedPosition> position_ = std::make_shared<SharedPosition>();

 private:
  BasicSP::DataReady_var ready_;
};

class GpsExecutor final : public BasicSP::GPS_exec_base, PositionPublisher {
 public:
  BasicSP::CCM_PositionData_ptr get_position() override { return new PositionFacet(position_); }

  // A fix that moves a little with every tick.
  void push_tick(BasicSP::Tick* tick) override {
    const double step = static_cast<double>(tick->number() % 1000) * 1e-5;
    publish({52.0 + step, 4.0 + step, 0.0, tick->number(), tick->time_ns()}, context());
  }
};

class AirframeExecutor final : public BasicSP::Airframe_exec_base, PositionPublisher {
 public:
  BasicSP::CCM_PositionData_ptr get_position() override { return new PositionFacet(position_); }

  // Pulls the GPS fix and flies 1,000 m above it.
  void push_gps_ready(BasicSP::DataReady*) override {
    BasicSP::CCM_PositionData_ptr gps = context()->borrow_gps();
    if (CORBA::is_nil(gps)) return;  // not connected: nothing to refresh from
    BasicSP::Position position = gps->get_position();
    position.altitude += 1000.0;
    publish(position, context());
  }
};

// ---- HUD --------------------------------------------------------------------

class HudExecutor final : public BasicSP::HUD_exec_base {
 public:
  CORBA::ULongLong updates() override { return updates_.load(); }
  char* log_file() override { return CORBA::string_dup(log_file_.c_str()); }
  void log_file(const char* value) override { log_file_ = value; }

  // A log file must be writable before anything runs.
  void configuration_complete() override {
    if (log_file_.empty()) return;
    std::ofstream probe(log_file_, std::ios::app);
    if (!probe) {
      mwccm::raise<Components::InvalidConfiguration>("HUD: cannot append to log_file '" +
                                                     log_file_ + "'");
    }
    records_.reserve(kReserved);
  }

  void push_airframe_ready(BasicSP::DataReady*) override {
    BasicSP::CCM_PositionData_ptr airframe = context()->borrow_airframe();
    if (CORBA::is_nil(airframe)) return;
    const BasicSP::Position position = airframe->get_position();
    const CORBA::ULongLong latency = monotonic_ns() - position.tick_time_ns;
    const CORBA::ULongLong number = updates_.fetch_add(1) + 1;
    if (log_file_.empty()) return;
    std::lock_guard lock(mutex_);
    records_.push_back({number, latency, position.tick_number});
  }

  void ccm_passivate() override { write_log(); }
  void ccm_remove() override { write_log(); }

 private:
  struct Record {
    CORBA::ULongLong update;
    CORBA::ULongLong latency_ns;
    CORBA::ULongLong tick;  // the tick whose position was displayed
  };
  static constexpr std::size_t kReserved = 65'536;  // a minute at 1,000 Hz without growing

  // Appends "<update> <latency ns> <tick>" per update recorded since the last write.
  void write_log() {
    std::lock_guard lock(mutex_);
    if (log_file_.empty() || records_.empty()) return;
    std::ofstream out(log_file_, std::ios::app);
    for (const Record& record : records_)
      out << record.update << ' ' << record.latency_ns << ' ' << record.tick << '\n';
    records_.clear();
  }

  std::atomic<CORBA::ULongLong> updates_{0};
  std::string log_file_;
  std::mutex mutex_;
  std::vector<Record> records_;
};

}  // namespace

MWCCM_REGISTER_BasicSP_RateGenHome(RateGenExecutor);
MWCCM_REGISTER_BasicSP_GPSHome(GpsExecutor);
MWCCM_REGISTER_BasicSP_AirframeHome(AirframeExecutor);
MWCCM_REGISTER_BasicSP_HUDHome(HudExecutor);
