#include "ai/engine_protocol.h"

#include <charconv>
#include <iostream>
#include <sstream>

#include "ai/belief.h"
#include "core/record.h"

namespace rainet::ai {

namespace {
std::vector<std::string> split(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

std::optional<std::uint64_t> parseNumber(const std::string& s) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string pvirusLine(const std::vector<std::pair<Square, double>>& pv) {
    std::ostringstream p;
    p << "info pvirus";
    for (const auto& [sq, v] : pv) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%.2f", v);
        p << ' ' << squareName(sq) << ' ' << buf;
    }
    return p.str();
}

std::string joinBots() {
    std::string s;
    for (const auto& n : botNames()) s += " var " + n;
    return s;
}
}  // namespace

std::string formatObservation(const Observation& o, Side mover) {
    std::string s = toString(o.action, o.swapKnown ? Notation::Full : Notation::Public);
    if (o.revealedLink) {
        const bool one = opponent(mover) == Side::One;  // a reveal is always of the mover's target
        s += *o.revealedLink ? (one ? " {L}" : " {l}") : (one ? " {V}" : " {v}");
    }
    return s;
}

Result<std::vector<Observation>> parseObservations(const std::vector<std::string>& tokens) {
    std::vector<Observation> out;
    for (const std::string& t : tokens) {
        if (t.size() == 3 && t[0] == '{' && t[2] == '}') {
            const char c = t[1];
            if (out.empty() || out.back().revealedLink ||
                (c != 'l' && c != 'L' && c != 'v' && c != 'V'))
                return Error{"misplaced identity '" + t + "'"};
            out.back().revealedLink = c == 'l' || c == 'L';
            continue;
        }
        auto a = parseAction(t, true);
        if (!a.ok()) return Error{"bad action '" + t + "': " + a.error().message};
        Observation o;
        o.action = *a;
        o.swapKnown = a->type() == ActionType::NotFound && t.find(':') != std::string::npos;
        out.push_back(o);
    }
    return out;
}

std::string formatSetup(std::uint8_t links) {
    return setupString(links);  // the record format's Setup1/Setup2 letters
}

std::optional<std::uint8_t> parseSetup(std::string_view text) {
    if (text.size() != 8) return std::nullopt;
    std::uint8_t links = 0;
    int count = 0;
    for (int i = 0; i < 8; ++i) {
        const char c = text[i];
        if (c == 'L' || c == 'l') {
            links |= static_cast<std::uint8_t>(1u << i);
            ++count;
        } else if (c != 'V' && c != 'v') {
            return std::nullopt;
        }
    }
    if (count != 4) return std::nullopt;
    return links;
}

std::string formatPositionCommand(const View& start, const std::vector<Observation>& history) {
    std::string cmd = "position view " + start.toString();
    if (history.empty()) return cmd;
    cmd += " moves";
    Side mover = start.toMove();
    for (const Observation& o : history) {
        cmd += ' ';
        cmd += formatObservation(o, mover);
        mover = opponent(mover);
    }
    return cmd;
}

Result<InfoSet> parsePositionCommand(const std::vector<std::string>& words, Side side,
                                     const Rules& rules) {
    if (words.size() < 8 || words[0] != "position" || words[1] != "view")
        return Error{"usage: position view FIELD1 .. FIELD6 [moves OBS...]"};
    std::string viewText = words[2];
    for (int i = 3; i < 8; ++i) viewText += " " + words[i];
    auto view = View::parse(viewText, viewerOf(side), rules);
    if (!view.ok()) return Error{"position: " + view.error().message};
    std::vector<std::string> moves;
    if (words.size() > 8) {
        if (words[8] != "moves") return Error{"position: expected 'moves', got '" + words[8] + "'"};
        moves.assign(words.begin() + 9, words.end());
    }
    auto observations = parseObservations(moves);
    if (!observations.ok()) return Error{"position: " + observations.error().message};
    InfoSet k(*view);
    for (std::size_t i = 0; i < observations->size(); ++i) {
        if (auto err = k.observe((*observations)[i]))
            return Error{"position: action " + std::to_string(i + 1) + ": " + err->message};
    }
    return k;
}

EngineSession::EngineSession(Output out, std::string bot, std::uint64_t seed)
    : out_(std::move(out)),
      botName_(std::move(bot)),
      seed_(seed),
      bot_(makeBot(botName_)),
      rng_(seed) {
    if (!bot_) {
        botName_ = "strong";
        bot_ = makeBot(botName_);
    }
}

EngineSession::~EngineSession() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
        stop_ = true;
        stopSeq_ = nextSeq_;
        queue_.clear();
    }
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
    if (search_.joinable()) search_.join();
}

void EngineSession::waitIdle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queue_.empty() && !busy_ && !searching_; });
}

void EngineSession::finish() {
    {
        std::lock_guard lock(mutex_);
        inputEnded_ = true;
        if (searching_ && infiniteSearch_) stop_ = true;
    }
    changed_.notify_all();
    waitIdle();
}

void EngineSession::reply(const std::string& line) {
    std::lock_guard lock(outMutex_);
    out_(line);
}

void EngineSession::error(const std::string& message) {
    reply("error " + message);
}

bool EngineSession::handle(const std::string& line) {
    auto words = split(line);
    if (words.empty()) return true;
    const std::string cmd = words[0];
    std::unique_lock lock(mutex_);
    if (quit_) return false;  // nothing after `quit` is carried out
    const std::uint64_t seq = nextSeq_++;
    if (cmd == "stop" || cmd == "quit") {
        stopSeq_ = seq;
        if (searching_) stop_ = true;
        if (cmd == "stop") {
            changed_.notify_all();  // a finished infinite search may be waiting for it
            return true;
        }
        quit_ = true;
    }
    if (cmd == "isready" && searching_) {
        reply("readyok");
        return true;
    }
    Command c{seq, std::move(words), Clock::now()};
    if (!searching_ && !busy_ && queue_.empty()) {
        // Nothing to wait for: the reader carries the command out itself (no search runs, and
        // none starts before it returns: it reads the next command only then).
        if (cmd == "quit") return false;
        busy_ = true;
        lock.unlock();
        if (cmd == "isready") {
            reply("readyok");
        } else {
            execute(c);
        }
        lock.lock();
        busy_ = false;
        changed_.notify_all();
        return true;
    }
    queue_.push_back(std::move(c));
    // The worker is needed only once a command must wait for a search (a session that waits for
    // each answer, as fuzz/engine.cpp does, never starts it).
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    lock.unlock();
    changed_.notify_all();
    return cmd != "quit";
}

void EngineSession::answerQueuedIsReady() {
    for (auto it = queue_.begin(); it != queue_.end();) {
        if (it->words[0] == "isready") {
            reply("readyok");
            it = queue_.erase(it);
        } else {
            ++it;
        }
    }
}

void EngineSession::awaitSearch(std::unique_lock<std::mutex>& lock) {
    for (;;) {
        answerQueuedIsReady();
        if (!searching_ || closing_) break;
        changed_.wait(lock);
    }
}

void EngineSession::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return closing_ || !queue_.empty(); });
        if (closing_) return;
        Command c = std::move(queue_.front());
        queue_.pop_front();
        const std::string& cmd = c.words[0];
        if (cmd == "isready") {
            reply("readyok");       // also while a search runs: it does not wait for it
            changed_.notify_all();  // the queue may be empty now (waitIdle)
            continue;
        }
        busy_ = true;
        // Every other command waits for a running search (as a GUI waits for bestaction).
        awaitSearch(lock);
        if (closing_) return;
        if (cmd == "quit") {
            busy_ = false;
            queue_.clear();
            changed_.notify_all();
            return;
        }
        lock.unlock();
        execute(c);
        lock.lock();
        busy_ = false;
        changed_.notify_all();
    }
}

void EngineSession::execute(const Command& c) {
    const auto& args = c.words;
    const std::string& cmd = args[0];
    if (cmd == "rainet") {
        reply("id name rainet " + botName_);
        reply("id author the rainet authors");
        reply("option name Bot type combo default " + botName_ + joinBots());
        reply("option name Seed type spin default " + std::to_string(seed_) +
              " min 0 max 18446744073709551615");
        reply("rainetok");
    } else if (cmd == "setoption") {
        cmdSetOption(args);
    } else if (cmd == "newgame") {
        cmdNewGame(args);
    } else if (cmd == "setup") {
        if (args.size() != 1) return error("setup takes no arguments");
        if (!side_) return error("setup before newgame");
        reply("setup " + formatSetup(bot_->chooseSetup(*side_, rules_, rng_)));
    } else if (cmd == "position") {
        cmdPosition(args);
    } else if (cmd == "go") {
        cmdGo(c);
    } else {
        reply("info string unknown command '" + cmd + "'");
    }
}

void EngineSession::cmdSetOption(const std::vector<std::string>& args) {
    if (args.size() != 5 || args[1] != "name" || args[3] != "value")
        return error("usage: setoption name NAME value VALUE");
    if (args[2] == "Bot") {
        auto bot = makeBot(args[4]);
        if (!bot) return error("unknown bot '" + args[4] + "'");
        bot_ = std::move(bot);
        botName_ = args[4];
    } else if (args[2] == "Seed") {
        const auto v = parseNumber(args[4]);
        if (!v) return error("bad seed '" + args[4] + "'");
        seed_ = *v;
        rng_ = Rng(seed_);
    } else {
        error("unknown option '" + args[2] + "'");
    }
}

void EngineSession::cmdNewGame(const std::vector<std::string>& args) {
    std::optional<Side> side;
    Rules rules = Rules::standard();
    for (std::size_t i = 1; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) return error("newgame: '" + args[i] + "' needs a value");
        if (args[i] == "side" && (args[i + 1] == "1" || args[i + 1] == "2")) {
            side = args[i + 1] == "1" ? Side::One : Side::Two;
        } else if (args[i] == "rules" && Rules::byName(args[i + 1])) {
            rules = *Rules::byName(args[i + 1]);
        } else {
            return error("newgame: bad '" + args[i] + " " + args[i + 1] + "'");
        }
    }
    if (!side) return error("newgame: side 1 or 2 is required");
    side_ = side;
    rules_ = rules;
    knowledge_.reset();
    // The random stream goes on: a new game in the same process must not repeat the last one's
    // arrangement and choices (only `setoption name Seed` restarts it).
}

void EngineSession::cmdPosition(const std::vector<std::string>& args) {
    if (!side_) return error("position before newgame");
    auto k = parsePositionCommand(args, *side_, rules_);
    if (!k.ok()) return error(k.error().message);
    knowledge_.emplace(std::move(*k));
}

void EngineSession::cmdGo(const Command& c) {
    const auto& args = c.words;
    if (!knowledge_) return error("go without position");
    if (knowledge_->view().toMove() != *side_) return error("go: it is not our turn");
    Budget budget;
    std::uint64_t times[2] = {0, 0}, incs[2] = {0, 0};
    bool clock = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& key = args[i];
        if (key == "infinite") {
            budget.infinite = true;
            continue;
        }
        if (i + 1 >= args.size()) return error("go: '" + key + "' needs a value");
        const auto v = parseNumber(args[++i]);
        if (!v) return error("go: bad number '" + args[i] + "'");
        if (key == "nodes") {
            budget.nodes = *v;
        } else if (key == "movetime") {
            budget.movetime = std::chrono::milliseconds(*v);
        } else if (key == "time1" || key == "time2") {
            times[key[4] - '1'] = *v;
            clock = true;
        } else if (key == "inc1" || key == "inc2") {
            incs[key[3] - '1'] = *v;
        } else {
            return error("go: unknown parameter '" + key + "'");
        }
    }
    if (clock && budget.movetime.count() == 0) {
        // Plan for about 25 more own actions; keep a margin of 50 ms on the clock.
        const std::uint64_t t = times[index(*side_)], inc = incs[index(*side_)];
        std::uint64_t ms = t / 25 + inc * 3 / 4;
        ms = std::min<std::uint64_t>(ms, t > 60 ? t - 50 : 10);
        budget.movetime = std::chrono::milliseconds(std::max<std::uint64_t>(ms, 10));
    }
    if (budget.nodes || budget.movetime.count()) budget.infinite = false;
    // The time counts from the arrival of `go`, not from the start of the search (the hand-over
    // to the search thread, and to the worker if it waited, each a wake-up that a busy machine
    // may delay).
    budget.since = c.received;
    budget.stop = &stop_;
    {
        std::lock_guard lock(mutex_);
        // A `stop` or `quit` that arrived after this `go` but before it started still ends it;
        // so does the end of the input for an infinite search.
        stop_ = stopSeq_ > c.seq || (budget.infinite && inputEnded_);
        searching_ = true;
        infiniteSearch_ = budget.infinite;
        searchJob_ = budget;
    }
    // One search thread for the session, started by its first `go`: a thread per `go` cost more
    // than a short search itself (thread start and exit, and under ASan its allocator caches).
    if (!search_.joinable()) search_ = std::thread([this] { searchLoop(); });
    changed_.notify_all();
}

void EngineSession::searchLoop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return closing_ || searchJob_; });
        if (closing_) return;
        const Budget budget = *searchJob_;
        searchJob_.reset();
        lock.unlock();
        const Action a = search(budget);
        lock.lock();
        // An infinite search answers only when told to stop (a level's cap or a bot that does
        // not search may end it sooner).
        if (budget.infinite)
            changed_.wait(lock, [this] { return stop_.load() || inputEnded_ || closing_; });
        reply("bestaction " + toString(a));
        searching_ = false;
        changed_.notify_all();
    }
}

Action EngineSession::search(const Budget& budget) {
    auto sentBelief = std::make_shared<bool>(false);
    bot_->setInfoCallback([this, sentBelief](const SearchInfo& si) {
        std::ostringstream line;
        const auto ms = static_cast<std::uint64_t>(si.elapsed.count());
        line << "info iterations " << si.iterations << " nodes " << si.nodes << " time " << ms
             << " nps " << (ms ? si.nodes * 1000 / ms : si.nodes * 1000);
        if (!si.bestLine.empty()) {
            line << " pv";
            for (Action a : si.bestLine) line << ' ' << toString(a);
        }
        reply(line.str());
        if (!si.virusProbability.empty()) {
            reply(pvirusLine(si.virusProbability));
            *sentBelief = true;
        }
    });
    const Action a = bot_->chooseAction(*knowledge_, budget, rng_);
    // Bots that report nothing (random, greedy) still show the belief about the opponent.
    if (!*sentBelief) {
        const auto pv = Belief(*knowledge_).virusProbabilities(opponent(*side_));
        if (!pv.empty()) reply(pvirusLine(pv));
    }
    return a;
}

void runEngine(std::istream& in, std::ostream& out, const std::string& bot, std::uint64_t seed) {
    // std::cin is tied to std::cout: every read would first flush the output from this thread,
    // racing with the search thread writing to it, which now and then wrote a line twice (a
    // stale duplicate `bestaction` that the controller took for the next answer: the illegal
    // e2-e4 of CliArena.ExternalEngineAgainstABot). Output is written under the session's lock
    // only.
    in.tie(nullptr);
    EngineSession session([&out](const std::string& line) { out << line << '\n'
                                                                << std::flush; },
                          bot, seed);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!session.handle(line)) {
            session.waitIdle();  // everything before `quit` is answered (stopped searches too)
            return;
        }
    }
    // End of input: a bounded search may finish and answer; an infinite one is stopped.
    session.finish();
}

}  // namespace rainet::ai
