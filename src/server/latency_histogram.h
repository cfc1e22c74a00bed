#pragma once
// A latency distribution exported at /metrics as a Prometheus histogram: cumulative counts per
// upper bound, a sum and a count. Lock-free (relaxed atomics): recorded on one thread, rendered on
// another; a scrape may see a sample's bucket before its sum, which Prometheus tolerates. Fixed
// bounds from a quarter millisecond (a LAN round trip) to a second (Redis stalled): a handful of
// counters, whatever the traffic.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace rainet::server {

class LatencyHistogram {
  public:
    // Upper bounds in microseconds; one more bucket (+Inf) counts the rest.
    static constexpr std::array<std::int64_t, 9> kBoundsUs{250,    500,    1000,    2000,     5000,
                                                           10'000, 50'000, 250'000, 1'000'000};

    void record(std::chrono::microseconds d);
    // Appends the series of histogram `name` (the `_bucket`, `_sum` in seconds, and `_count`
    // lines, with their HELP and TYPE) to `out`.
    void render(const std::string& name, const std::string& help, std::string& out) const;

    std::int64_t count() const { return count_.load(std::memory_order_relaxed); }

  private:
    std::array<std::atomic<std::int64_t>, kBoundsUs.size() + 1> buckets_{};  // not cumulative
    std::atomic<std::int64_t> sumUs_{0}, count_{0};
};

}  // namespace rainet::server
