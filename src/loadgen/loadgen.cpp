// The load generator of `rainet loadtest` (loadgen.h).
#include <utility>

#include <unistd.h>
#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "loadgen/loadgen.h"
#include "loadgen/message_fields.h"
#include "wsclient/client.h"

namespace rainet::loadgen {
namespace {

namespace asio = boost::asio;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Stats {
    std::int64_t started = 0, finished = 0, actions = 0, connectErrors = 0, closed = 0;
    std::int64_t abandoned = 0;
    std::map<std::string, std::int64_t> errors;
    std::vector<std::uint32_t> latencyUs;   // act -> ack
    std::vector<std::uint32_t> opponentUs;  // act -> the action event at the opponent
    std::vector<std::uint32_t> watcherUs;   // act -> the action event at the first spectator
    bool measuring = false;
};

// `s` as a JSON string (through nlohmann when it needs escapes).
void appendQuoted(std::string& out, const std::string& s) {
    for (const char c : s)
        if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
            out += Json(s).dump();
            return;
        }
    out += '"';
    out += s;
    out += '"';
}

// One connection of the load (the project's client, without keep-alive pings so that only the
// game's traffic is measured), counting how connections fail.
class Conn {
  public:
    using Handler = std::function<void(MessageFields&)>;
    Conn(asio::io_context& io, Stats& stats, const LoadOptions& o, int port,
         std::function<void()> onOpen, Handler onMessage)
        : stats_(stats),
          client_(
              io, target(o, port),
              wsclient::Client::Handlers{std::move(onOpen),
                                         [onMessage = std::move(onMessage)](const std::string& m) {
                                             if (auto f = readMessageFields(m)) onMessage(*f);
                                         },
                                         [&stats](const wsclient::Closed& c) {
                                             ++(c.wasOpen ? stats.closed : stats.connectErrors);
                                         }}) {
        client_.connect();
    }
    // A frame the client refuses (closed, or its queue full) is counted as the error "unsent".
    void send(std::string text) {
        if (!client_.send(std::move(text))) ++stats_.errors["unsent"];
    }
    void close() { client_.close(); }

  private:
    static wsclient::Target target(const LoadOptions& o, int port) {
        wsclient::Target t;
        t.host = o.host;
        t.port = port;
        t.keepAlive = false;
        return t;
    }
    Stats& stats_;
    wsclient::Client client_;
};

// One seat pair playing game after game: side 1 creates invite games, side 2 joins.
class Pair : public std::enable_shared_from_this<Pair> {
  public:
    Pair(asio::io_context& io, Stats& stats, const LoadOptions& o, std::uint64_t seed)
        : io_(io), stats_(stats), opt_(o), timer_(io), rng_(seed) {}

    void start() { connect(); }
    void stop() {
        stopping_ = true;
        timer_.cancel();
        for (auto& c : conns_) c->close();
    }

  private:
    // Opens the pair's connections (again after an abandon: the players come back with their
    // tokens); messages of earlier connections are ignored.
    void connect() {
        auto self = shared_from_this();
        const int generation = ++generation_;
        welcomed_ = 0;
        conns_.clear();
        for (int i = 0; i < 2 + opt_.spectators; ++i) {
            Json hello{{"type", "hello"}};
            if (i < 2 && !tokens_[i].empty()) hello["token"] = tokens_[i];
            // The connection says hello as soon as it is open (conns_ holds it by then).
            const int port = i == 0 || opt_.joinPort == 0 ? opt_.port : opt_.joinPort;
            conns_.push_back(std::make_unique<Conn>(
                io_, stats_, opt_, port,
                [self, i, generation, text = hello.dump()] {
                    if (generation == self->generation_) self->conns_[i]->send(text);
                },
                [self, i, generation](MessageFields& f) {
                    if (generation == self->generation_) self->onMessage(i, f);
                }));
        }
    }
    // Both players (and spectators) drop the game where it stands and come back for another.
    void abandon() {
        ++stats_.abandoned;
        abandonAt_ = -1;
        legal_.clear();
        timer_.cancel();
        for (auto& c : conns_) c->close();
        connect();
    }
    // Whether this game is to be abandoned at `stage` (0 open, 1 setup, 2+ after that many
    // actions of the pair).
    bool abandonsAt(int stage) {
        if (abandonAt_ != stage) return false;
        abandon();
        return true;
    }
    void onMessage(int who, MessageFields& j) {
        const std::string& type = j.type;
        if (type == "welcome") {
            if (who < 2) tokens_[who] = j.token;
            if (++welcomed_ == static_cast<int>(conns_.size())) create();
        } else if (type == "error") {
            ++stats_.errors[j.code.empty() ? "?" : j.code];
        } else if (type == "ack") {
            const std::string& id = j.id;
            if (id.empty()) return;
            if (id[0] == 'c') {
                game_ = j.game;
                if (abandonsAt(0)) return;
                conns_[1]->send(
                    Json{{"type", "join"}, {"id", "j" + game_}, {"game", game_}}.dump());
            } else if (id[0] == 'j') {
                if (abandonsAt(1)) return;
                for (std::size_t i = 2; i < conns_.size(); ++i)
                    conns_[i]->send(Json{{"type", "watch"}, {"game", game_}}.dump());
                for (int i = 0; i < 2; ++i)
                    conns_[i]->send(Json{
                        {"type", "setup"}, {"id", "s" + game_}, {"game", game_}, {"random", true}}
                                        .dump());
            } else if (id[0] == 'a') {
                const auto us =
                    std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent_)
                        .count();
                if (stats_.measuring) {
                    ++stats_.actions;
                    stats_.latencyUs.push_back(static_cast<std::uint32_t>(us));
                }
            }
        } else if (type == "event" && j.game == game_) {
            const std::string& kind = j.kind;
            // The first action event each of them gets after the act is the act's.
            bool& waiting = who == 1 - sender_ ? awaitOpponent_ : awaitWatcher_;
            if (kind == "action" && (who == 1 - sender_ || who == 2) && waiting) {
                waiting = false;
                const auto us = static_cast<std::uint32_t>(
                    std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent_)
                        .count());
                if (stats_.measuring)
                    (who == 2 ? stats_.watcherUs : stats_.opponentUs).push_back(us);
            }
            if (who >= 2) return;
            if (kind == "action" && abandonAt_ >= 2 && j.ply.value_or(0) + 1 >= abandonAt_ &&
                abandonsAt(abandonAt_))
                return;
            if ((kind == "start" || kind == "action") && j.hasLegal) {
                legal_ = std::move(j.legal);
                mover_ = who;
                schedule();
            } else if (kind == "end" && who == 0) {
                if (stats_.measuring) ++stats_.finished;
                // Everyone moves on, as a browser leaving the page of an ended game does.
                for (auto& c : conns_) c->send(Json{{"type", "leave"}, {"game", game_}}.dump());
                create();
            }
        }
    }
    void create() {
        if (stopping_) return;
        ++stats_.started;
        abandonAt_ = -1;
        if (static_cast<int>(rng_() % 100) < opt_.abandonPercent) {
            const int stage = static_cast<int>(rng_() % 3);
            abandonAt_ = stage < 2 ? stage : 2 + static_cast<int>(rng_() % 30);
        }
        conns_[0]->send(Json{
            {"type", "create"},
            {"id", "c" + std::to_string(++created_)},
            {"opponent", "invite"},
            {"side", "1"}}.dump());
    }
    // Acts after the pace; at pace 0 at once, without a timer (a timer armed and fired per
    // action was a visible part of the client's CPU per action in the closed loop).
    void schedule() {
        if (opt_.paceMs <= 0) return act();
        timer_.expires_after(std::chrono::milliseconds(opt_.paceMs));
        timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
            if (!ec) self->act();
        });
    }
    void act() {
        if (stopping_ || legal_.empty()) return;
        const auto& a = legal_[rng_() % legal_.size()];
        sent_ = Clock::now();
        sender_ = mover_;
        awaitOpponent_ = true;
        awaitWatcher_ = opt_.spectators > 0;
        // Written directly: one act per action, the client's most frequent message.
        std::string text = R"({"type":"act","id":"a)";
        text += std::to_string(++acts_);
        text += R"(","game":)";
        appendQuoted(text, game_);
        text += R"(,"action":)";
        appendQuoted(text, a);
        text += '}';
        conns_[mover_]->send(std::move(text));
        legal_.clear();
    }

    asio::io_context& io_;
    Stats& stats_;
    const LoadOptions& opt_;
    asio::steady_timer timer_;
    std::mt19937_64 rng_;
    std::vector<std::unique_ptr<Conn>> conns_;
    std::string tokens_[2];
    int generation_ = 0;
    int abandonAt_ = -1;  // the stage at which the current game is abandoned; -1: played out
    int welcomed_ = 0, created_ = 0, mover_ = 0;
    std::int64_t acts_ = 0;
    std::string game_;
    std::vector<std::string> legal_;
    Clock::time_point sent_;
    int sender_ = 0;  // who sent the act being timed; its action event has not yet reached:
    bool awaitOpponent_ = false, awaitWatcher_ = false;
    bool stopping_ = false;
};

// Open descriptors of a process (0 when unknown).
long openDescriptors(int pid) {
    std::error_code ec;
    long n = 0;
    for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec), end;
         !ec && it != end; it.increment(ec))
        ++n;
    return n;
}

// A file's size and its -wal's, in bytes (0 when missing).
std::uintmax_t fileWithWal(const std::string& path) {
    std::uintmax_t total = 0;
    for (const std::string& p : {path, path + "-wal"}) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(p, ec);
        if (!ec) total += size;
    }
    return total;
}

// utime + stime of a process in seconds, and its RSS in KiB (0 when unknown).
std::pair<double, long> processUsage(int pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string s((std::istreambuf_iterator<char>(stat)), {});
    double cpu = 0;
    if (auto p = s.rfind(')'); p != std::string::npos) {
        std::istringstream in(s.substr(p + 2));
        std::string f;
        std::vector<std::string> fields;
        while (in >> f) fields.push_back(f);
        if (fields.size() > 13)
            cpu = (std::stod(fields[11]) + std::stod(fields[12])) /
                  static_cast<double>(sysconf(_SC_CLK_TCK));
    }
    long rss = 0;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) rss = std::stol(line.substr(6));
    return {cpu, rss};
}

}  // namespace

void run(const LoadOptions& o) {
    asio::io_context io(1);
    Stats stats;
    std::vector<std::shared_ptr<Pair>> pairs;
    asio::steady_timer ramp(io), phase(io);
    std::uint64_t seed = 1;
    std::function<void()> rampUp = [&] {
        const int batch = std::max(1, o.rampPerSecond / 10);
        for (int i = 0; i < batch && static_cast<int>(pairs.size()) < o.games; ++i) {
            pairs.push_back(std::make_shared<Pair>(io, stats, o, seed++));
            pairs.back()->start();
        }
        if (static_cast<int>(pairs.size()) < o.games) {
            ramp.expires_after(std::chrono::milliseconds(100));
            ramp.async_wait([&](boost::system::error_code) { rampUp(); });
        }
    };
    rampUp();
    // Samples over the whole run (ramp included), for soak tests: memory, descriptors and the
    // database must level off while games start, end and are abandoned.
    asio::steady_timer sampler(io);
    const Clock::time_point began = Clock::now();
    std::function<void()> sample = [&] {
        const double t = std::chrono::duration<double>(Clock::now() - began).count();
        std::cout << "sample t " << static_cast<long>(t) << " s  started " << stats.started
                  << "  finished " << stats.finished << "  abandoned " << stats.abandoned
                  << "  actions " << stats.actions;
        if (o.serverPid)
            std::cout << "  rss " << static_cast<double>(processUsage(o.serverPid).second) / 1024.0
                      << " MiB  fds " << openDescriptors(o.serverPid);
        if (!o.dbFile.empty())
            std::cout << "  db " << static_cast<double>(fileWithWal(o.dbFile)) / (1 << 20)
                      << " MiB";
        std::cout << std::endl;
        sampler.expires_after(std::chrono::seconds(o.sampleSeconds));
        sampler.async_wait([&](boost::system::error_code ec) {
            if (!ec) sample();
        });
    };
    if (o.sampleSeconds) sample();
    const double rampSeconds = static_cast<double>(o.games) / o.rampPerSecond + 5;  // and settle
    std::pair<double, long> serverStart{}, selfStart{};
    Clock::time_point measureStart;
    double measured = 0;
    long rssEnd = 0;
    std::cerr << "loadtest: ramping up " << o.games << " games for " << rampSeconds << " s\n";
    phase.expires_after(std::chrono::milliseconds(static_cast<int>(rampSeconds * 1000)));
    phase.async_wait([&](boost::system::error_code) {
        stats.measuring = true;
        measureStart = Clock::now();
        if (o.serverPid) serverStart = processUsage(o.serverPid);
        selfStart = processUsage(getpid());
        std::cerr << "loadtest: measuring for " << o.seconds << " s\n";
        phase.expires_after(std::chrono::seconds(o.seconds));
        phase.async_wait([&](boost::system::error_code) {
            stats.measuring = false;
            measured = std::chrono::duration<double>(Clock::now() - measureStart).count();
            auto serverEnd = o.serverPid ? processUsage(o.serverPid) : std::pair<double, long>{};
            auto selfEnd = processUsage(getpid());
            rssEnd = serverEnd.second;
            auto percentiles = [](std::vector<std::uint32_t>& l) {
                std::sort(l.begin(), l.end());
                auto pct = [&](double p) {
                    return l.empty() ? 0.0
                                     : l[static_cast<std::size_t>(
                                           p * static_cast<double>(l.size() - 1))] /
                                           1000.0;
                };
                std::ostringstream out;
                out << "p50 " << pct(0.5) << "  p99 " << pct(0.99) << "  max " << pct(1.0);
                return out.str();
            };
            std::cout << "games (concurrent)    " << o.games << " (+" << o.spectators
                      << " spectators each), pace " << o.paceMs << " ms\n"
                      << "measured              " << measured << " s\n"
                      << "actions               " << stats.actions << " ("
                      << static_cast<double>(stats.actions) / measured << " /s)\n"
                      << "games finished        " << stats.finished << "\n"
                      << "games abandoned       " << stats.abandoned << "\n"
                      << "act->ack latency ms   " << percentiles(stats.latencyUs) << "\n"
                      << "act->opponent ms      " << percentiles(stats.opponentUs) << "\n"
                      << "act->spectator ms     " << percentiles(stats.watcherUs) << "\n"
                      << "connect errors        " << stats.connectErrors << ", closed "
                      << stats.closed << "\n";
            for (auto& [code, n] : stats.errors) std::cout << "error " << code << "  " << n << "\n";
            if (o.serverPid)
                std::cout << "server RSS            " << static_cast<double>(rssEnd) / 1024.0
                          << " MiB (" << static_cast<double>(rssEnd) / o.games << " KiB per game)\n"
                          << "server CPU            "
                          << 100 * (serverEnd.first - serverStart.first) / measured
                          << " %\n"
                          // The cost of an action, robust to how much of the cores the server
                          // got on a shared machine (docs/performance.md).
                          << "server CPU per action "
                          << (stats.actions ? 1e6 * (serverEnd.first - serverStart.first) /
                                                  static_cast<double>(stats.actions)
                                            : 0.0)
                          << " us\n";
            // The client shares the machine with the server: the closed loop's ceiling is the
            // sum of the two CPU costs per action.
            std::cout << "loadtest CPU          "
                      << 100 * (selfEnd.first - selfStart.first) / measured << " %\n"
                      << "loadtest CPU per action "
                      << (stats.actions ? 1e6 * (selfEnd.first - selfStart.first) /
                                              static_cast<double>(stats.actions)
                                        : 0.0)
                      << " us\n";
            std::cout.flush();
            for (auto& p : pairs) p->stop();
            ramp.cancel();
            sampler.cancel();
            io.stop();
        });
    });
    io.run();
}

}  // namespace rainet::loadgen
