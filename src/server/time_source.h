#pragma once
// Where the server reads the time, and the only place it does: game clocks and expiry in
// centiseconds of a monotonic clock, and the wall-clock time it records (a game's created and
// ended times, chat lines, rating periods) in unix milliseconds. Production uses the steady and
// system clocks; tests run the server with a manual source that only moves when told to (both
// times together), so clock and expiry tests never sleep. The server's own protections (a
// connection's message rate, the shutdown deadline) run on real time in tests too: realMs().
#include <atomic>
#include <chrono>
#include <cstdint>

namespace rainet::server {

class TimeSource {
  public:
    virtual ~TimeSource() = default;
    virtual std::int64_t nowCs() const = 0;
    virtual std::int64_t unixMs() const = 0;
    // Whether time moves by itself (then rooms arm real timers for flags).
    virtual bool isManual() const = 0;
    // Milliseconds of the real monotonic clock, whatever the source: never manual.
    static std::int64_t realMs() {
        using namespace std::chrono;
        return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
    }
};

class SteadyTime : public TimeSource {
  public:
    std::int64_t nowCs() const override { return realMs() / 10; }
    std::int64_t unixMs() const override {
        using namespace std::chrono;
        return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    }
    bool isManual() const override { return false; }
};

class ManualTime : public TimeSource {
  public:
    std::int64_t nowCs() const override { return now_.load(); }
    // The wall clock when the server started (so that times stay in order across restarts),
    // moved by advance() only.
    std::int64_t unixMs() const override { return start_ + now_.load() * 10; }
    bool isManual() const override { return true; }
    void advance(std::int64_t cs) { now_ += cs; }

  private:
    std::atomic<std::int64_t> now_{0};
    const std::int64_t start_ = SteadyTime().unixMs();
};

}  // namespace rainet::server
