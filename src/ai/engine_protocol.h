#pragma once
// The engine side of the line-based engine protocol (docs/engine-protocol.md), in the manner of
// UCI: an EngineSession reads one command line at a time and writes response lines through a
// callback; `go` searches on its own thread so that `stop`, `isready` and `quit` are read
// meanwhile. The session knows nothing of stdin/stdout: `rainet engine` (src/cli/engine.cpp)
// connects it to them, tests drive it directly.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ai/bot.h"

namespace rainet::ai {

// Observation text of the protocol: the action (own NF in full, the opponent's NF public), then a
// revealed identity as a separate token "{l}" / "{V}" (owner's case), e.g. "c7-c6 {L}".
std::string formatObservation(const Observation& o, Side mover);
// Reads observations from tokens (a token "{x}" attaches to the action before it).
Result<std::vector<Observation>> parseObservations(const std::vector<std::string>& tokens);
// An arrangement as 8 letters L/V in setup-square order (a b c f g h d e of the own side).
std::string formatSetup(std::uint8_t links);
std::optional<std::uint8_t> parseSetup(std::string_view text);

class EngineSession {
  public:
    using Output = std::function<void(const std::string& line)>;
    explicit EngineSession(Output out, std::string bot = "strong", std::uint64_t seed = 1);
    ~EngineSession();

    // Handles one command line; returns false after `quit`.
    bool handle(const std::string& line);
    // Blocks until no search runs (tests and `quit`).
    void waitIdle();
    // The input ended: lets a bounded search finish (stops an infinite one) and waits for it.
    void finish();

  private:
    void reply(const std::string& line);
    void error(const std::string& message);
    void cmdGo(const std::vector<std::string>& args);
    void cmdPosition(const std::vector<std::string>& args);
    void cmdSetOption(const std::vector<std::string>& args);
    void cmdNewGame(const std::vector<std::string>& args);

    Output out_;
    std::mutex outMutex_;
    std::string botName_;
    std::uint64_t seed_;
    std::unique_ptr<Bot> bot_;
    Rng rng_;
    std::optional<Side> side_;
    Rules rules_ = Rules::standard();
    std::optional<InfoSet> knowledge_;

    std::thread search_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> searching_{false};
    bool infinite_ = false;
};

// Runs a session over streams until `quit` or the end of input (which stops a running search).
void runEngine(std::istream& in, std::ostream& out, const std::string& bot = "strong",
               std::uint64_t seed = 1);

}  // namespace rainet::ai
