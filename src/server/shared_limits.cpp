#include "server/shared_limits.h"

#include "server/ids.h"
#include "store/log.h"

namespace rainet::server {
namespace {

// An address's hash is dropped this many lease TTLs after the last round that wrote to it (every
// live instance with a connection of the address rewrites it each round).
constexpr std::int64_t kHashTtls = 2;
// After a failed call, Redis is not asked again for this long (local counters meanwhile).
constexpr auto kRetryAfterFailure = std::chrono::seconds(1);

std::string connectionKey(const std::string& address) {
    return "rainet:conn:" + address;
}

// A sync round. KEYS: the tracked addresses' hashes. ARGV: this instance, its liveness (ms), the
// hashes' expiry (ms), then this instance's count for each key. Keeps the instance alive, writes
// its counts (0: its field is deleted), and answers, for each key, the sum of the other live
// instances' counts (deleting dead instances' fields).
constexpr const char* kSync = R"lua(
redis.call('SET', 'rainet:node:' .. ARGV[1], '1', 'PX', ARGV[2])
local out = {}
for i, k in ipairs(KEYS) do
  local mine = tonumber(ARGV[i + 3])
  if mine > 0 then
    redis.call('HSET', k, ARGV[1], mine)
    redis.call('PEXPIRE', k, ARGV[3])
  else
    redis.call('HDEL', k, ARGV[1])
  end
  local h = redis.call('HGETALL', k)
  local others = 0
  for j = 1, #h, 2 do
    if h[j] ~= ARGV[1] then
      if redis.call('EXISTS', 'rainet:node:' .. h[j]) == 1 then
        others = others + tonumber(h[j + 1])
      else
        redis.call('HDEL', k, h[j])
      end
    end
  end
  out[i] = others
end
return out
)lua";

// KEYS: the counters. ARGV: mode (wait, take, try), burst, base window (ms), backoff (1 or 0).
// A counter's window starts at its first hit; with backoff, `key:s` counts the windows filled
// and the next window lasts base * 2^s (s up to 6); it is forgotten after twice that.
constexpr const char* kThrottle = R"lua(
local burst = tonumber(ARGV[2])
local base = tonumber(ARGV[3])
local backoff = ARGV[4] == '1'
local wait = 0
for _, k in ipairs(KEYS) do
  if tonumber(redis.call('GET', k) or '0') >= burst then
    local t = redis.call('PTTL', k)
    if t < 0 then t = base end
    if t > wait then wait = t end
  end
end
if ARGV[1] == 'wait' or (ARGV[1] == 'try' and wait > 0) then return wait end
for _, k in ipairs(KEYS) do
  local n = redis.call('INCR', k)
  local s = 0
  if backoff then s = math.min(tonumber(redis.call('GET', k .. ':s') or '0'), 6) end
  if n == 1 then redis.call('PEXPIRE', k, math.floor(base * 2 ^ s)) end
  if backoff and n == burst then
    s = math.min(redis.call('INCR', k .. ':s'), 6)
    redis.call('PEXPIRE', k .. ':s', math.floor(base * 2 ^ s * 2))
  end
end
return 0
)lua";

}  // namespace

SharedCounters::SharedCounters(bus::RedisAddress redis, const std::string& node,
                               std::int64_t liveMs, bool background)
    : redis_(std::move(redis)),
      instance_(node + "-" + IdSource::random()->token().substr(0, 8)),
      liveMs_(liveMs) {
    if (background) worker_.start([this] { run(); });
}

SharedCounters::~SharedCounters() {
    worker_.stop();  // before the members the rounds read are gone
}

std::optional<bus::Reply> SharedCounters::eval(const char* script,
                                               const std::vector<std::string>& keys,
                                               const std::vector<std::string>& args, bool gated) {
    {
        std::lock_guard lock(worker_.mutex());
        if (gated && down_ && std::chrono::steady_clock::now() < retryAt_) return std::nullopt;
    }
    std::vector<std::string> argv{"EVAL", script, std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = redis_.command(argv);
    std::lock_guard lock(worker_.mutex());
    if (!r) {
        // Redis away: the other nodes' counts are forgotten before the outage is logged, so that
        // whoever sees the log sees the node capping its own connections only (fail open).
        for (auto& [address, c] : counts_) c.others = 0;
        if (!down_)
            logEvent("redis_limits_down",
                     {{"instance", instance_}, {"message", r.error().message}});
        down_ = true;
        retryAt_ = std::chrono::steady_clock::now() + kRetryAfterFailure;
        return std::nullopt;
    }
    if (down_) logEvent("redis_limits_up", {{"instance", instance_}});
    down_ = false;
    return std::move(*r);
}

bool SharedCounters::admitConnection(const std::string& address, std::size_t cap) {
    {
        std::lock_guard lock(worker_.mutex());
        Count& c = counts_[address];
        if (c.mine + c.others >= static_cast<std::int64_t>(cap)) {
            if (c.mine == 0 && c.others == 0) counts_.erase(address);  // cap 0
            return false;
        }
        ++c.mine;
        changed_ = true;
    }
    worker_.wake().notify_one();
    return true;
}

void SharedCounters::releaseConnection(const std::string& address) {
    {
        std::lock_guard lock(worker_.mutex());
        auto it = counts_.find(address);
        if (it == counts_.end() || it->second.mine == 0) return;
        --it->second.mine;
        changed_ = true;  // kept until a round has written the 0
    }
    worker_.wake().notify_one();
}

void SharedCounters::heartbeat() {
    {
        std::lock_guard lock(worker_.mutex());
        changed_ = true;
    }
    worker_.wake().notify_one();
}

std::pair<std::int64_t, std::int64_t> SharedCounters::view(const std::string& address) {
    std::lock_guard lock(worker_.mutex());
    auto it = counts_.find(address);
    if (it == counts_.end()) return {0, 0};
    return {it->second.mine, it->second.others};
}

bool SharedCounters::sync() {
    std::lock_guard one(syncMu_);
    std::vector<std::string> addresses, keys;
    std::vector<std::string> args{instance_, std::to_string(liveMs_),
                                  std::to_string(liveMs_ * kHashTtls)};
    {
        std::lock_guard lock(worker_.mutex());
        changed_ = false;
        addresses.reserve(counts_.size());
        for (const auto& [address, c] : counts_) {
            addresses.push_back(address);
            keys.push_back(connectionKey(address));
            args.push_back(std::to_string(c.mine));
        }
    }
    // Not gated: this thread asks every round whatever happened (no connection waits for it).
    auto r = eval(kSync, keys, args, false);
    const bool ok = r && r->kind == bus::Reply::Kind::Array && r->elements.size() == keys.size();
    std::lock_guard lock(worker_.mutex());
    if (!ok) {
        // Redis away (or an answer of the wrong shape): the others are forgotten, the cap
        // applies to this node's own (fail open).
        for (auto& [address, c] : counts_) c.others = 0;
        return false;
    }
    for (std::size_t i = 0; i < addresses.size(); ++i) {
        auto it = counts_.find(addresses[i]);
        if (it == counts_.end()) continue;
        it->second.others = r->elements[i].integer;
        // Dropped once nobody counts it and a round has written this instance's 0 (`changed_`
        // is set again by a connection that came or went meanwhile: kept for the next round).
        if (it->second.mine == 0 && it->second.others == 0 && args[i + 3] == "0") counts_.erase(it);
    }
    return true;
}

void SharedCounters::run() {
    std::unique_lock lock(worker_.mutex());
    while (!worker_.stopping()) {
        lock.unlock();
        sync();
        lock.lock();
        // A change during the round: the next one after the short gap, else the period.
        if (worker_.wake().wait_for(lock, kSyncGap, [this] { return worker_.stopping(); })) return;
        worker_.wake().wait_for(lock, kSyncEvery - kSyncGap,
                                [this] { return worker_.stopping() || changed_; });
    }
}

std::optional<std::int64_t> SharedCounters::throttle(const char* mode,
                                                     const std::vector<std::string>& keys,
                                                     std::int64_t burst, std::int64_t windowMs,
                                                     bool backoff) {
    auto r =
        eval(kThrottle, keys,
             {mode, std::to_string(burst), std::to_string(windowMs), backoff ? "1" : "0"}, true);
    if (!r) return std::nullopt;
    return r->integer;
}

void SharedThrottle::share(std::shared_ptr<SharedCounters> counters, std::string name) {
    counters_ = std::move(counters);
    name_ = std::move(name);
}

std::optional<std::int64_t> SharedThrottle::shared(const char* mode,
                                                   const std::vector<std::string>& keys) {
    if (!counters_) return std::nullopt;
    std::vector<std::string> full;
    full.reserve(keys.size());
    for (const auto& k : keys) full.push_back("rainet:thr:" + name_ + ":" + k);
    const auto burst = static_cast<std::int64_t>(burst_);
    auto ms = counters_->throttle(mode, full, burst, burst * refillCs_ * 10, backoff_);
    if (!ms) return std::nullopt;
    return (*ms + 9) / 10;  // centiseconds, rounded up
}

std::int64_t SharedThrottle::wait(const std::vector<std::string>& keys, std::int64_t nowCs) {
    if (auto w = shared("wait", keys)) return *w;
    return local_.wait(keys, nowCs);
}

void SharedThrottle::take(const std::vector<std::string>& keys, std::int64_t nowCs) {
    local_.take(keys, nowCs);  // localWait's count, and the fallback's while Redis is away
    static_cast<void>(shared("take", keys));
}

std::int64_t SharedThrottle::tryTake(const std::vector<std::string>& keys, std::int64_t nowCs) {
    if (auto w = shared("try", keys)) {
        if (*w == 0) local_.take(keys, nowCs);
        return *w;
    }
    return local_.tryTake(keys, nowCs);
}

}  // namespace rainet::server
