#include "server/latency_histogram.h"

#include <algorithm>
#include <cstdio>

namespace rainet::server {

void LatencyHistogram::record(std::chrono::microseconds d) {
    const std::int64_t us = std::max<std::int64_t>(0, d.count());
    const auto bound = std::lower_bound(kBoundsUs.begin(), kBoundsUs.end(), us);
    buckets_[static_cast<std::size_t>(bound - kBoundsUs.begin())].fetch_add(
        1, std::memory_order_relaxed);
    sumUs_.fetch_add(us, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
}

namespace {

// Microseconds as seconds, exactly (no floating point): "0.00025", "1", "12.5".
std::string seconds(std::int64_t us) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%06lld", static_cast<long long>(us / 1'000'000),
                  static_cast<long long>(us % 1'000'000));
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

}  // namespace

void LatencyHistogram::render(const std::string& name, const std::string& help,
                              std::string& out) const {
    out += "# HELP " + name + " " + help + "\n# TYPE " + name + " histogram\n";
    std::int64_t cumulative = 0;
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
        cumulative += buckets_[i].load(std::memory_order_relaxed);
        const std::string le = i < kBoundsUs.size() ? seconds(kBoundsUs[i]) : "+Inf";
        out += name + "_bucket{le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
    }
    out += name + "_sum " + seconds(sumUs_.load(std::memory_order_relaxed)) + "\n";
    out += name + "_count " + std::to_string(cumulative) + "\n";
}

}  // namespace rainet::server
