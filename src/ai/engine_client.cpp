#include "ai/engine_client.h"

#include "ai/engine_protocol.h"

namespace rainet::ai {

namespace {
constexpr int kHandshakeMs = 10000;
}

Result<std::unique_ptr<EngineClient>> EngineClient::start(const std::string& command,
                                                          std::uint64_t seed) {
    auto process = ChildProcess::start(command);
    if (!process.ok()) return Error{"engine '" + command + "': " + process.error().message};
    std::unique_ptr<EngineClient> c(new EngineClient());
    c->process_ = std::move(*process);
    if (!c->process_->send("rainet")) return Error{"engine '" + command + "': cannot write"};
    for (;;) {
        auto line = c->process_->readLine(kHandshakeMs);
        if (!line.ok()) return Error{"engine '" + command + "': " + line.error().message};
        if (line->rfind("id name ", 0) == 0) c->name_ = line->substr(8);
        if (*line == "rainetok") break;
    }
    if (!c->process_->send("setoption name Seed value " + std::to_string(seed)))
        return Error{"engine '" + command + "': cannot write"};
    return c;
}

EngineClient::~EngineClient() {
    // Then ~ChildProcess waits a moment, or kills it (which an engine that no longer reads needs).
    if (process_) static_cast<void>(process_->send("quit"));
}

bool EngineClient::send(const std::string& line) {
    return process_->send(line);
}

Result<std::string> EngineClient::expect(const std::string& prefix, int timeoutMs) {
    for (;;) {
        auto line = process_->readLine(timeoutMs);
        if (!line.ok()) return line;
        if (line->rfind(prefix, 0) == 0) return line;
        if (line->rfind("error", 0) == 0) return Error{"engine said: " + *line};
    }
}

Result<std::uint8_t> EngineClient::newGame(Side side, const Rules& rules) {
    side_ = side;
    if (!send("newgame side " + std::to_string(sideNumber(side)) + " rules " + rules.name()) ||
        !send("setup"))
        return Error{"engine: cannot write (it exited?)"};
    auto line = expect("setup ", kHandshakeMs);
    if (!line.ok()) return line.error();
    const auto links = parseSetup(line->substr(6));
    if (!links) return Error{"bad arrangement '" + *line + "'"};
    return *links;
}

std::string formatGo(const GoLimits& l) {
    std::string go = "go";
    if (l.nodes) go += " nodes " + std::to_string(l.nodes);
    if (l.movetime.count()) go += " movetime " + std::to_string(l.movetime.count());
    for (int i = 0; i < 2; ++i)
        if (l.time[i]) go += " time" + std::to_string(i + 1) + " " + std::to_string(*l.time[i]);
    for (int i = 0; i < 2; ++i)
        if (l.inc[i]) go += " inc" + std::to_string(i + 1) + " " + std::to_string(*l.inc[i]);
    return go;
}

Result<Action> EngineClient::act(const InfoSet& knowledge, const Budget& budget) {
    GoLimits l;
    l.nodes = budget.nodes;
    l.movetime = budget.movetime;
    if (budget.movetime.count()) l.timeout = budget.movetime + std::chrono::milliseconds(5000);
    return act(knowledge, l);
}

Result<Action> EngineClient::act(const InfoSet& knowledge, const GoLimits& limits) {
    if (!start_) return Error{"engine: act before the game started"};
    if (!send(formatPositionCommand(*start_, knowledge.history())) || !send(formatGo(limits)))
        return Error{"engine: cannot write (it exited?)"};
    auto line = expect("bestaction ", static_cast<int>(limits.timeout.count()));
    if (!line.ok()) return line.error();
    auto a = parseAction(line->substr(11));
    if (!a.ok()) return Error{"bad action in '" + *line + "'"};
    return *a;
}

}  // namespace rainet::ai
