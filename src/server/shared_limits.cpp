#include "server/shared_limits.h"

#include "server/ids.h"
#include "store/log.h"

namespace rainet::server {
namespace {

// An address's hash keeps at most this long after its last admission: a safety net for counts
// that a release lost while Redis was away (the node instance itself is alive, so its field
// would otherwise never be dropped).
constexpr const char* kConnectionHashMs = "86400000";
// After a failed call, Redis is not asked again for this long (local counters meanwhile).
constexpr auto kRetryAfterFailure = std::chrono::seconds(1);

std::string connectionKey(const std::string& address) {
    return "rainet:conn:" + address;
}

// KEYS[1]: the address's hash. ARGV: this instance, the cap, the hash's expiry (ms). Counts the
// fields of live instances (deleting the dead ones'), and adds one to ours if under the cap.
constexpr const char* kAdmit = R"lua(
local h = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #h, 2 do
  if h[i] == ARGV[1] or redis.call('EXISTS', 'rainet:node:' .. h[i]) == 1 then
    total = total + tonumber(h[i + 1])
  else
    redis.call('HDEL', KEYS[1], h[i])
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
)lua";

constexpr const char* kRelease = R"lua(
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
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
                               std::int64_t liveMs)
    : redis_(std::move(redis)),
      instance_(node + "-" + IdSource::random()->token().substr(0, 8)),
      liveMs_(liveMs) {}

std::optional<bus::Reply> SharedCounters::eval(const char* script,
                                               const std::vector<std::string>& keys,
                                               const std::vector<std::string>& args) {
    {
        std::lock_guard lock(mu_);
        if (down_ && std::chrono::steady_clock::now() < retryAt_) return std::nullopt;
    }
    std::vector<std::string> argv{"EVAL", script, std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = redis_.command(argv);
    std::lock_guard lock(mu_);
    if (!r) {
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

std::optional<bool> SharedCounters::admitConnection(const std::string& address, std::size_t cap) {
    auto r =
        eval(kAdmit, {connectionKey(address)}, {instance_, std::to_string(cap), kConnectionHashMs});
    if (!r) return std::nullopt;
    return r->integer == 1;
}

void SharedCounters::releaseConnection(const std::string& address) {
    (void)eval(kRelease, {connectionKey(address)}, {instance_});
}

void SharedCounters::heartbeat() {
    // Not through eval(): a failed heartbeat is the round's business (its Redis ping says so),
    // and the instance's connections are simply not counted elsewhere until the next one.
    (void)redis_.command({"SET", "rainet:node:" + instance_, "1", "PX", std::to_string(liveMs_)});
}

std::optional<std::int64_t> SharedCounters::throttle(const char* mode,
                                                     const std::vector<std::string>& keys,
                                                     std::int64_t burst, std::int64_t windowMs,
                                                     bool backoff) {
    auto r = eval(kThrottle, keys,
                  {mode, std::to_string(burst), std::to_string(windowMs), backoff ? "1" : "0"});
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
    if (!shared("take", keys)) local_.take(keys, nowCs);
}

std::int64_t SharedThrottle::tryTake(const std::vector<std::string>& keys, std::int64_t nowCs) {
    if (auto w = shared("try", keys)) return *w;
    return local_.tryTake(keys, nowCs);
}

}  // namespace rainet::server
