// Quick pairing across the nodes (server/cluster_seeks.h).
#include "server/cluster_seeks.h"

#include <charconv>
#include <sstream>
#include <string_view>

#include "protocol/schema.h"
#include "server/ids.h"
#include "store/log.h"

namespace rainet::server {

namespace {

// Shared by every script. Keys: `rainet:seek:<player>` (hash: node, inst, token, kind, seq),
// `rainet:seeks:<kind>` (sorted set of players by seq: oldest first), `rainet:seekkinds` (the
// kinds with a seek waiting), `rainet:seekseq` (the queue's order), `rainet:seekv` (the
// summary's version). The summary is "<version>\n<kind>\t<players>..." by first waiting.
constexpr const char* kPrelude = R"lua(
local function drop(p)
  local h = 'rainet:seek:' .. p
  local k = redis.call('HGET', h, 'kind')
  if k then
    local z = 'rainet:seeks:' .. k
    redis.call('ZREM', z, p)
    if redis.call('ZCARD', z) == 0 then redis.call('SREM', 'rainet:seekkinds', k) end
  end
  redis.call('DEL', h)
end
local alive = {}
local function live(n)
  if alive[n] == nil then alive[n] = redis.call('EXISTS', 'rainet:alive:' .. n) == 1 end
  return alive[n]
end
local function summary()
  local rows = {}
  for _, k in ipairs(redis.call('SMEMBERS', 'rainet:seekkinds')) do
    local first = redis.call('ZRANGE', 'rainet:seeks:' .. k, 0, 0, 'WITHSCORES')
    if first[2] then
      rows[#rows + 1] = {tonumber(first[2]), k, redis.call('ZCARD', 'rainet:seeks:' .. k)}
    end
  end
  table.sort(rows, function(a, b) return a[1] < b[1] end)
  local out = redis.call('GET', 'rainet:seekv') or '0'
  for _, r in ipairs(rows) do out = out .. '\n' .. r[2] .. '\t' .. r[3] end
  return out
end
local function changed()
  redis.call('INCR', 'rainet:seekv')
  local s = summary()
  redis.call('PUBLISH', 'rainet:seeks', s)
  return s
end
)lua";

// ARGV: player, node, instance, token, kind. {summary} if queued, else {summary, partner's
// player, node, instance, token, seq}.
constexpr const char* kPlace = R"lua(
local me, z = ARGV[1], 'rainet:seeks:' .. ARGV[5]
drop(me)
local partner = nil
while true do
  local first = redis.call('ZRANGE', z, 0, 0)
  if #first == 0 then break end
  local p = first[1]
  local f = redis.call('HMGET', 'rainet:seek:' .. p, 'node', 'inst', 'token', 'seq')
  drop(p)
  if f[1] and live(f[1]) then
    partner = {p, f[1], f[2], f[3], f[4]}
    break
  end
end
if not partner then
  local seq = redis.call('INCR', 'rainet:seekseq')
  redis.call('HSET', 'rainet:seek:' .. me, 'node', ARGV[2], 'inst', ARGV[3], 'token', ARGV[4],
             'kind', ARGV[5], 'seq', seq)
  redis.call('ZADD', z, seq, me)
  redis.call('SADD', 'rainet:seekkinds', ARGV[5])
  redis.call('SADD', 'rainet:seeknodes', ARGV[2])
  return {changed()}
end
return {changed(), partner[1], partner[2], partner[3], partner[4], partner[5]}
)lua";

// ARGV: player, node, instance, token, kind, seq. Back in its place unless the player seeks again.
constexpr const char* kPutBack = R"lua(
if redis.call('EXISTS', 'rainet:seek:' .. ARGV[1]) == 1 then return false end
redis.call('HSET', 'rainet:seek:' .. ARGV[1], 'node', ARGV[2], 'inst', ARGV[3], 'token', ARGV[4],
           'kind', ARGV[5], 'seq', ARGV[6])
redis.call('ZADD', 'rainet:seeks:' .. ARGV[5], ARGV[6], ARGV[1])
redis.call('SADD', 'rainet:seekkinds', ARGV[5])
redis.call('SADD', 'rainet:seeknodes', ARGV[2])
return changed()
)lua";

// ARGV: player, and node, instance, token ('' for any seek of the player). The summary, or nil
// if nothing changed.
constexpr const char* kWithdraw = R"lua(
local f = redis.call('HMGET', 'rainet:seek:' .. ARGV[1], 'node', 'inst', 'token')
if not f[1] then return false end
if ARGV[2] ~= '' and (f[1] ~= ARGV[2] or f[2] ~= ARGV[3] or f[3] ~= ARGV[4]) then return false end
drop(ARGV[1])
return changed()
)lua";

// The sweep: with `snode` set, every seek of that node is dropped unless its instance is `sinst`
// and its token in `keep`; every seek of a dead node is dropped. Then `rainet:seeknodes` is set
// again to the nodes that still have a seek. The summary.
constexpr const char* kSweepBody = R"lua(
local n, nodes = 0, {}
for _, k in ipairs(redis.call('SMEMBERS', 'rainet:seekkinds')) do
  for _, p in ipairs(redis.call('ZRANGE', 'rainet:seeks:' .. k, 0, -1)) do
    local f = redis.call('HMGET', 'rainet:seek:' .. p, 'node', 'inst', 'token')
    local mine = snode and f[1] == snode and not (f[2] == sinst and keep[f[3]])
    if not f[1] or mine or not live(f[1]) then
      drop(p)
      n = n + 1
    else
      nodes[f[1]] = true
    end
  end
end
redis.call('DEL', 'rainet:seeknodes')
for node in pairs(nodes) do redis.call('SADD', 'rainet:seeknodes', node) end
if n > 0 then return changed() end
return summary()
)lua";

// ARGV: node, instance, then the tokens this instance's connections wait on (the purge).
constexpr const char* kPurgeHead = R"lua(
local snode, sinst, keep = ARGV[1], ARGV[2], {}
for i = 3, #ARGV do keep[ARGV[i]] = true end
)lua";

// ARGV: the version of the summary this node applied last ('' if none, or a full sweep is due).
// False if that is still the version and every node with a seek is live: nothing to drop,
// nothing new to apply. Else the sweep of dead nodes' seeks (its summary).
constexpr const char* kRoundHead = R"lua(
local snode, sinst, keep = nil, nil, {}
if ARGV[1] ~= '' and (redis.call('GET', 'rainet:seekv') or '0') == ARGV[1] then
  local quiet = true
  for _, node in ipairs(redis.call('SMEMBERS', 'rainet:seeknodes')) do
    if not live(node) then
      quiet = false
      break
    end
  end
  if quiet then return false end
end
)lua";

bool parseNumber(std::string_view s, std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

}  // namespace

ClusterSeeks::ClusterSeeks(bus::RedisAddress redis, std::string node, std::int64_t ttlMs,
                           Summary onSummary, Post toWriter)
    : node_(std::move(node)),
      instance_(IdSource::random()->token().substr(0, 12)),
      ttl_(ttlMs),
      onSummary_(std::move(onSummary)),
      toWriter_(std::move(toWriter)),
      link_(redis) {
    bus::Subscriber::Options options;
    options.onState = [this](bool up) { onLink(up); };
    sub_ = std::make_unique<bus::Subscriber>(
        std::move(redis),
        [this](const std::string& ch, const std::string& payload) { onMessage(ch, payload); },
        options);
}

ClusterSeeks::~ClusterSeeks() {
    stop();
}

std::string ClusterSeeks::kindOf(const SeekQueue::Seek& s) {
    // No spaces or tabs inside a part: the preset is a name the parser checked.
    return s.preset + ":" + std::to_string(s.clockInitial) + ":" +
           std::to_string(s.clockIncrement) + ":" + (s.rated ? "1" : "0");
}

void ClusterSeeks::start() {
    sub_->subscribe(kSummaryChannel);
    sub_->subscribe(channel(node_));
    if (!sub_->waitSubscribed(std::chrono::seconds(1)))
        logEvent("warning", {{"message", "the seeks' channels are not subscribed yet (Redis)"}});
    worker_.start([this] { run(); });
}

void ClusterSeeks::stop() {
    worker_.stop();
    sub_.reset();  // no handler runs past here
}

void ClusterSeeks::run() {
    worker_.loop(
        std::chrono::milliseconds(std::max<std::int64_t>(ttl_ / 3, 10)), [this] { round(); },
        nullptr, [](const std::exception&) {});
}

void ClusterSeeks::round() {
    if (purgeDue_.exchange(false)) toWriter_([this] { purge(); });
    std::string seen;  // '': the sweep runs whatever the version
    {
        std::lock_guard lock(mu_);
        if (known_ && !schedule_.due()) seen = std::to_string(version_);
    }
    auto r = eval(kSweepBody, {std::move(seen)}, kRoundHead);
    if (!r || r->kind != bus::Reply::Kind::String) return;  // unchanged, or Redis away
    {
        std::lock_guard lock(mu_);
        schedule_.done();
    }
    ++fullSweeps_;
    applySummary(r->str);
}

std::optional<bus::Reply> ClusterSeeks::eval(const char* script, std::vector<std::string> args,
                                             const char* head) {
    std::vector<std::string> argv{"EVAL", std::string(kPrelude) + head + script, "0"};
    for (auto& a : args) argv.push_back(std::move(a));
    auto r = link_.command(argv);
    if (!r) {
        logEvent("redis_seeks_error", {{"message", r.error().message}});
        return std::nullopt;
    }
    return std::move(*r);
}

void ClusterSeeks::applySummary(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    long long version = 0;
    if (!std::getline(in, line)) return;
    try {
        version = std::stoll(line);
    } catch (const std::exception&) {
        return;
    }
    std::vector<protocol::SeekEntry> out;
    while (std::getline(in, line)) {
        // "<preset>:<initial>:<increment>:<rated>\t<players>"
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        std::istringstream kind(line.substr(0, tab));
        std::vector<std::string> k;
        for (std::string f; std::getline(kind, f, ':');) k.push_back(f);
        std::uint64_t initial = 0, increment = 0, players = 0;
        if (k.size() != 4 || !parseNumber(k[1], initial) || !parseNumber(k[2], increment) ||
            !parseNumber(line.substr(tab + 1), players))
            continue;
        out.push_back(
            {protocol::enumFromName<protocol::Preset>(k[0]).value_or(protocol::Preset{}),
             protocol::clockSetting(static_cast<int>(initial), static_cast<int>(increment)),
             k[3] == "1", static_cast<int>(players)});
    }
    {
        std::lock_guard lock(mu_);
        if (known_ && version < version_) return;  // an older one arrived late
        version_ = version;
        known_ = true;
    }
    onSummary_(std::move(out));
}

Result<std::optional<ClusterSeeks::Waiting>> ClusterSeeks::place(const std::shared_ptr<Client>& c,
                                                                 const SeekQueue::Seek& s) {
    std::uint64_t token;
    {
        // Known before the script runs: a partner's notice may arrive right after it.
        std::lock_guard lock(mu_);
        token = ++nextToken_;
        if (auto old = byClient_.find(c.get()); old != byClient_.end()) byToken_.erase(old->second);
        byClient_[c.get()] = token;
        byToken_[token] = Local{c, c.get(), s.player.id};
    }
    const std::string kind = kindOf(s);
    auto r =
        eval(kPlace, {std::to_string(s.player.id), node_, instance_, std::to_string(token), kind});
    auto forget = [&] {
        std::lock_guard lock(mu_);
        byToken_.erase(token);
        if (auto it = byClient_.find(c.get()); it != byClient_.end() && it->second == token)
            byClient_.erase(it);
    };
    if (!r || r->kind != bus::Reply::Kind::Array || r->elements.empty()) {
        forget();
        return Error{"quick pairing is unavailable (Redis)"};
    }
    applySummary(r->elements[0].str);
    if (r->elements.size() < 6) return std::optional<Waiting>{};
    forget();
    Waiting w;
    std::uint64_t player = 0;
    parseNumber(r->elements[1].str, player);
    w.player = static_cast<std::int64_t>(player);
    w.node = r->elements[2].str;
    w.instance = r->elements[3].str;
    parseNumber(r->elements[4].str, w.token);
    w.seq = r->elements[5].str;
    w.kind = kind;
    return std::optional<Waiting>{std::move(w)};
}

void ClusterSeeks::putBack(const Waiting& w) {
    auto r = eval(kPutBack, {std::to_string(w.player), w.node, w.instance, std::to_string(w.token),
                             w.kind, w.seq});
    if (r && r->kind == bus::Reply::Kind::String) applySummary(r->str);
}

void ClusterSeeks::notify(const Waiting& w, const std::string& text) {
    if (w.node == node_ && w.instance == instance_) return deliver(w.token, text);
    // A plain PUBLISH (not the batched publishAll): its count of receivers says whether the
    // waiting seek's node heard it.
    auto sent = link_.command(
        {"PUBLISH", channel(w.node), w.instance + " " + std::to_string(w.token) + "\n" + text});
    if (!sent || sent->kind != bus::Reply::Kind::Integer || sent->integer == 0)
        // The game stands with both seated; the waiting player finds it among its games at its
        // next welcome (docs/scaling.md).
        logEvent("seek_notice_lost", {{"node", w.node}, {"player", w.player}});
}

void ClusterSeeks::deliver(std::uint64_t token, const std::string& text) {
    std::shared_ptr<Client> client;
    {
        std::lock_guard lock(mu_);
        auto it = byToken_.find(token);
        if (it == byToken_.end()) return logEvent("seek_partner_gone", {{"token", token}});
        client = it->second.client.lock();
        if (auto k = byClient_.find(it->second.key); k != byClient_.end() && k->second == token)
            byClient_.erase(k);
        byToken_.erase(it);
    }
    if (!client) return logEvent("seek_partner_gone", {{"token", token}});
    client->send(text);
}

void ClusterSeeks::withdraw(const Client* c, std::int64_t player) {
    std::optional<bus::Reply> r;
    if (player) {
        {
            std::lock_guard lock(mu_);
            if (auto it = byClient_.find(c); it != byClient_.end()) {
                byToken_.erase(it->second);
                byClient_.erase(it);
            }
        }
        r = eval(kWithdraw, {std::to_string(player), "", "", ""});
    } else {
        std::uint64_t token = 0;
        {
            std::lock_guard lock(mu_);
            auto it = byClient_.find(c);
            if (it == byClient_.end()) return;  // no seek of this connection waits
            token = it->second;
            player = byToken_[token].player;
            byToken_.erase(token);
            byClient_.erase(it);
        }
        r = eval(kWithdraw, {std::to_string(player), node_, instance_, std::to_string(token)});
    }
    if (!r) {
        purgeDue_ = true;  // the seek may still wait in Redis: the next round drops it
        return;
    }
    if (r->kind == bus::Reply::Kind::String) applySummary(r->str);
}

void ClusterSeeks::purge() {
    std::vector<std::string> args{node_, instance_};
    {
        std::lock_guard lock(mu_);
        for (const auto& [token, local] : byToken_) args.push_back(std::to_string(token));
    }
    auto r = eval(kSweepBody, std::move(args), kPurgeHead);
    if (!r) {
        purgeDue_ = true;
        return;
    }
    if (r->kind == bus::Reply::Kind::String) applySummary(r->str);
}

void ClusterSeeks::onMessage(const std::string& ch, const std::string& payload) {
    if (ch == kSummaryChannel) return applySummary(payload);
    // "<instance> <token>\n<text>": a seek of this node was paired by another.
    const auto nl = payload.find('\n');
    const auto sp = payload.find(' ');
    std::uint64_t token = 0;
    if (nl == std::string::npos || sp == std::string::npos || sp > nl ||
        !parseNumber(std::string_view(payload).substr(sp + 1, nl - sp - 1), token))
        return logEvent("seek_notice_garbled", {{"node", node_}});
    if (payload.compare(0, sp, instance_) != 0)
        // For this node's previous process (restarted under the same id): nobody waits here.
        return logEvent("seek_partner_gone", {{"token", token}});
    deliver(token, payload.substr(nl + 1));
}

void ClusterSeeks::onLink(bool up) {
    if (up) return;
    // Notices published while the link is down are lost: every connection waiting on a seek
    // here is closed to reconnect (and seek again), and their seeks are dropped from Redis by
    // the purge of the next round that reaches it. A Redis restarted empty counts versions
    // from 0 again: any summary is newer than none.
    std::vector<std::shared_ptr<Client>> closing;
    {
        std::lock_guard lock(mu_);
        for (auto& [token, local] : byToken_)
            if (auto c = local.client.lock()) closing.push_back(std::move(c));
        byToken_.clear();
        byClient_.clear();
        version_ = 0;
        known_ = false;
    }
    purgeDue_ = true;
    onSummary_({});
    for (auto& c : closing) c->closeToReconnect();
}

}  // namespace rainet::server
