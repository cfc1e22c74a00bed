// `rainet loadtest`: opens N client pairs (plus spectators) to a running `rainet serve` over
// loopback, plays random legal games at a given pace, and reports actions/s, latencies (act -> ack
// to the mover, act -> event at the opponent and at a spectator; p50/p99), the server's RSS per
// game and CPU. Games that end are replaced, so N stay in play.
#include <utility>

#include <unistd.h>
#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "cli/command.h"

namespace rainet::cli {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string host = "127.0.0.1";
    int port = 8080;
    int games = 100;
    int spectators = 0;  // per game
    int paceMs = 1000;   // per game, between actions
    int seconds = 30;
    int rampPerSecond = 500;  // new games started per second
    int serverPid = 0;
};

struct Stats {
    std::int64_t started = 0, finished = 0, actions = 0, connectErrors = 0, closed = 0;
    std::map<std::string, std::int64_t> errors;
    std::vector<std::uint32_t> latencyUs;   // act -> ack
    std::vector<std::uint32_t> opponentUs;  // act -> the action event at the opponent
    std::vector<std::uint32_t> watcherUs;   // act -> the action event at the first spectator
    bool measuring = false;
};

class Conn : public std::enable_shared_from_this<Conn> {
  public:
    using Handler = std::function<void(const Json&)>;
    Conn(asio::io_context& io, Stats& stats) : ws_(io), stats_(stats) {}
    void start(const tcp::endpoint& ep, Handler onOpen, Handler onMessage) {
        onMessage_ = std::move(onMessage);
        beast::get_lowest_layer(ws_).async_connect(
            ep, [self = shared_from_this(), onOpen](beast::error_code ec) {
                if (ec) return void(++self->stats_.connectErrors);
                beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true), ec);
                self->ws_.async_handshake("127.0.0.1", "/ws", [self, onOpen](beast::error_code ec) {
                    if (ec) return void(++self->stats_.connectErrors);
                    self->ws_.text(true);
                    self->open_ = true;
                    onOpen(nullptr);
                    self->read();
                });
            });
    }
    void send(std::string text) {
        if (!open_) return;
        queue_.push_back(std::move(text));
        if (queue_.size() == 1) write();
    }
    void close() {
        open_ = false;
        beast::error_code ec;
        beast::get_lowest_layer(ws_).socket().close(ec);
    }

  private:
    void read() {
        ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) {
                if (self->open_) ++self->stats_.closed;
                self->open_ = false;
                return;
            }
            Json j = Json::parse(beast::buffers_to_string(self->buf_.data()), nullptr, false);
            self->buf_.consume(self->buf_.size());
            if (self->onMessage_) self->onMessage_(j);
            self->read();
        });
    }
    void write() {
        ws_.async_write(asio::buffer(queue_.front()),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec) return;
                            self->queue_.pop_front();
                            if (!self->queue_.empty()) self->write();
                        });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buf_;
    std::deque<std::string> queue_;
    Stats& stats_;
    Handler onMessage_;
    bool open_ = false;
};

// One seat pair playing game after game: side 1 creates invite games, side 2 joins.
class Pair : public std::enable_shared_from_this<Pair> {
  public:
    Pair(asio::io_context& io, Stats& stats, const Options& o, std::uint64_t seed)
        : io_(io), stats_(stats), opt_(o), timer_(io), rng_(seed) {}

    void start(const tcp::endpoint& ep) {
        auto self = shared_from_this();
        for (int i = 0; i < 2 + opt_.spectators; ++i) {
            auto c = std::make_shared<Conn>(io_, stats_);
            conns_.push_back(c);
            c->start(
                ep, [self, c](const Json&) { c->send(R"({"type":"hello"})"); },
                [self, i](const Json& j) { self->onMessage(i, j); });
        }
    }
    void stop() {
        stopping_ = true;
        timer_.cancel();
        for (auto& c : conns_) c->close();
    }

  private:
    void onMessage(int who, const Json& j) {
        if (!j.is_object()) return;
        const std::string type = j.value("type", "");
        if (type == "welcome") {
            if (++welcomed_ == static_cast<int>(conns_.size())) create();
        } else if (type == "error") {
            ++stats_.errors[j.value("code", "?")];
        } else if (type == "ack") {
            const std::string id = j["id"].get<std::string>();
            if (id[0] == 'c') {
                game_ = j["game"];
                conns_[1]->send(
                    Json{{"type", "join"}, {"id", "j" + game_}, {"game", game_}}.dump());
            } else if (id[0] == 'j') {
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
        } else if (type == "event" && j["game"] == game_) {
            const std::string kind = j.value("kind", "");
            // The first action event each of them gets after the act is the act's.
            bool& waiting = who == 1 - sender_ ? awaitOpponent_ : awaitWatcher_;
            if (kind == "action" && (who == 1 - sender_ || who == 2) && waiting) {
                waiting = false;
                const auto us = static_cast<std::uint32_t>(
                    std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent_)
                        .count());
                if (stats_.measuring) (who == 2 ? stats_.watcherUs : stats_.opponentUs).push_back(us);
            }
            if (who >= 2) return;
            if ((kind == "start" || kind == "action") && j.contains("legal")) {
                legal_ = j["legal"].get<std::vector<std::string>>();
                mover_ = who;
                schedule();
            } else if (kind == "end" && who == 0) {
                if (stats_.measuring) ++stats_.finished;
                create();
            }
        }
    }
    void create() {
        if (stopping_) return;
        ++stats_.started;
        conns_[0]->send(Json{
            {"type", "create"},
            {"id", "c" + std::to_string(++created_)},
            {"opponent", "invite"},
            {"side", "1"}}.dump());
    }
    void schedule() {
        timer_.expires_after(std::chrono::milliseconds(opt_.paceMs));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->stopping_ || self->legal_.empty()) return;
            const auto& a = self->legal_[self->rng_() % self->legal_.size()];
            self->sent_ = Clock::now();
            self->sender_ = self->mover_;
            self->awaitOpponent_ = true;
            self->awaitWatcher_ = self->opt_.spectators > 0;
            self->conns_[self->mover_]->send(Json{
                {"type", "act"},
                {"id", "a" + std::to_string(++self->acts_)},
                {"game", self->game_},
                {"action", a}}.dump());
            self->legal_.clear();
        });
    }

    asio::io_context& io_;
    Stats& stats_;
    const Options& opt_;
    asio::steady_timer timer_;
    std::mt19937_64 rng_;
    std::vector<std::shared_ptr<Conn>> conns_;
    int welcomed_ = 0, created_ = 0, mover_ = 0;
    std::int64_t acts_ = 0;
    std::string game_;
    std::vector<std::string> legal_;
    Clock::time_point sent_;
    int sender_ = 0;  // who sent the act being timed; its action event has not yet reached:
    bool awaitOpponent_ = false, awaitWatcher_ = false;
    bool stopping_ = false;
};

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
            cpu = (std::stod(fields[11]) + std::stod(fields[12])) / sysconf(_SC_CLK_TCK);
    }
    long rss = 0;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) rss = std::stol(line.substr(6));
    return {cpu, rss};
}

int run(const Args& args);
const Command kLoadtest{"loadtest",
                        "loadtest [--port P] [--games N] [--spectators K] [--pace MS] "
                        "[--seconds S] [--ramp GAMES_PER_S] [--server-pid PID]",
                        "play N concurrent random games against a local server and report "
                        "actions/s, latency, RSS and CPU",
                        run};

int run(const Args& args) {
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i + 1 >= args.size())
            return usageError(kLoadtest, "option " + args[i] + " needs a value");
        const std::string& a = args[i];
        int v = 0;
        try {
            v = std::stoi(args[i + 1]);
        } catch (const std::exception&) {
            return usageError(kLoadtest, a + " needs a number");
        }
        ++i;
        if (a == "--port")
            o.port = v;
        else if (a == "--games")
            o.games = std::max(1, v);
        else if (a == "--spectators")
            o.spectators = std::max(0, v);
        else if (a == "--pace")
            o.paceMs = std::max(0, v);
        else if (a == "--seconds")
            o.seconds = std::max(1, v);
        else if (a == "--ramp")
            o.rampPerSecond = std::max(1, v);
        else if (a == "--server-pid")
            o.serverPid = v;
        else
            return usageError(kLoadtest, "unknown option " + a);
    }
    asio::io_context io(1);
    Stats stats;
    const tcp::endpoint ep(asio::ip::make_address(o.host), static_cast<unsigned short>(o.port));
    std::vector<std::shared_ptr<Pair>> pairs;
    asio::steady_timer ramp(io), phase(io);
    std::uint64_t seed = 1;
    std::function<void()> rampUp = [&] {
        const int batch = std::max(1, o.rampPerSecond / 10);
        for (int i = 0; i < batch && static_cast<int>(pairs.size()) < o.games; ++i) {
            pairs.push_back(std::make_shared<Pair>(io, stats, o, seed++));
            pairs.back()->start(ep);
        }
        if (static_cast<int>(pairs.size()) < o.games) {
            ramp.expires_after(std::chrono::milliseconds(100));
            ramp.async_wait([&](beast::error_code) { rampUp(); });
        }
    };
    rampUp();
    const double rampSeconds = static_cast<double>(o.games) / o.rampPerSecond + 5;  // and settle
    std::pair<double, long> serverStart{}, selfStart{};
    Clock::time_point measureStart;
    double measured = 0;
    long rssEnd = 0;
    std::cerr << "loadtest: ramping up " << o.games << " games for " << rampSeconds << " s\n";
    phase.expires_after(std::chrono::milliseconds(static_cast<int>(rampSeconds * 1000)));
    phase.async_wait([&](beast::error_code) {
        stats.measuring = true;
        measureStart = Clock::now();
        if (o.serverPid) serverStart = processUsage(o.serverPid);
        selfStart = processUsage(getpid());
        std::cerr << "loadtest: measuring for " << o.seconds << " s\n";
        phase.expires_after(std::chrono::seconds(o.seconds));
        phase.async_wait([&](beast::error_code) {
            stats.measuring = false;
            measured = std::chrono::duration<double>(Clock::now() - measureStart).count();
            auto serverEnd = o.serverPid ? processUsage(o.serverPid) : std::pair<double, long>{};
            auto selfEnd = processUsage(getpid());
            rssEnd = serverEnd.second;
            auto percentiles = [](std::vector<std::uint32_t>& l) {
                std::sort(l.begin(), l.end());
                auto pct = [&](double p) {
                    return l.empty() ? 0.0
                                     : l[static_cast<std::size_t>(p * (l.size() - 1))] / 1000.0;
                };
                std::ostringstream out;
                out << "p50 " << pct(0.5) << "  p99 " << pct(0.99) << "  max " << pct(1.0);
                return out.str();
            };
            std::cout << "games (concurrent)    " << o.games << " (+" << o.spectators
                      << " spectators each), pace " << o.paceMs << " ms\n"
                      << "measured              " << measured << " s\n"
                      << "actions               " << stats.actions << " ("
                      << stats.actions / measured << " /s)\n"
                      << "games finished        " << stats.finished << "\n"
                      << "act->ack latency ms   " << percentiles(stats.latencyUs) << "\n"
                      << "act->opponent ms      " << percentiles(stats.opponentUs) << "\n"
                      << "act->spectator ms     " << percentiles(stats.watcherUs) << "\n"
                      << "connect errors        " << stats.connectErrors << ", closed "
                      << stats.closed << "\n";
            for (auto& [code, n] : stats.errors) std::cout << "error " << code << "  " << n << "\n";
            if (o.serverPid)
                std::cout << "server RSS            " << rssEnd / 1024.0 << " MiB ("
                          << static_cast<double>(rssEnd) / o.games << " KiB per game)\n"
                          << "server CPU            "
                          << 100 * (serverEnd.first - serverStart.first) / measured << " %\n";
            std::cout << "loadtest CPU          "
                      << 100 * (selfEnd.first - selfStart.first) / measured << " %\n";
            std::cout.flush();
            for (auto& p : pairs) p->stop();
            ramp.cancel();
            io.stop();
        });
    });
    io.run();
    return 0;
}

RAINET_COMMAND(loadtest, kLoadtest);

}  // namespace
}  // namespace rainet::cli
