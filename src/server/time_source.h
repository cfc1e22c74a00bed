#pragma once
// Where the server's clocks read the time, in centiseconds. Production uses the steady clock; tests
// run the server with a manual source that only moves when told to, so clock tests never sleep.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace rainet::server {

class TimeSource {
  public:
    virtual ~TimeSource() = default;
    virtual std::int64_t nowCs() const = 0;
    // Whether time moves by itself (then rooms arm real timers for flags).
    virtual bool isManual() const = 0;
};

class SteadyTime : public TimeSource {
  public:
    std::int64_t nowCs() const override {
        using namespace std::chrono;
        return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count() / 10;
    }
    bool isManual() const override { return false; }
};

class ManualTime : public TimeSource {
  public:
    std::int64_t nowCs() const override { return now_.load(); }
    bool isManual() const override { return true; }
    void advance(std::int64_t cs) { now_ += cs; }

  private:
    std::atomic<std::int64_t> now_{0};
};

}  // namespace rainet::server
