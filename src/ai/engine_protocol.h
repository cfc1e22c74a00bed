#pragma once
// The engine side of the line-based engine protocol (docs/engine-protocol.md), in the manner of
// UCI: an EngineSession takes one command line at a time and writes response lines through a
// callback; `go` searches on its own thread so that `stop`, `isready` and `quit` are read
// meanwhile. The session knows nothing of stdin/stdout: `rainet engine` (src/cli/engine.cpp)
// connects it to them, tests drive it directly.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
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

// The `position` command that gives a side its knowledge: its starting view and the actions it
// observed since, as that side saw them (the controller side: the arena, the bot bridge).
std::string formatPositionCommand(const View& start, const std::vector<Observation>& history);
// Rebuilds a side's knowledge from the words of a `position` command (the first is "position").
Result<InfoSet> parsePositionCommand(const std::vector<std::string>& words, Side side,
                                     const Rules& rules);

// Commands are read by the caller's thread (`handle`, one thread) and carried out in order: by
// that thread when nothing runs, else by the session's worker thread; `go` searches on a third
// thread. So `stop`, `isready` and `quit` take effect at once whatever is running, and a command
// that must wait for a search (anything else) waits on the worker, never on the reader. The
// worker and the search thread are started when first needed and kept until the session ends.
class EngineSession {
  public:
    using Output = std::function<void(const std::string& line)>;
    explicit EngineSession(Output out, std::string bot = "strong", std::uint64_t seed = 1);
    // Stops any search; commands not yet carried out are dropped.
    ~EngineSession();

    // Takes one command line; returns false after `quit`. Never blocks on a search (a command is
    // carried out here only when none runs).
    bool handle(const std::string& line);
    // Blocks until every command taken so far is done, searches included (tests).
    void waitIdle();
    // The input ended: bounded searches (running or waiting) finish and answer, infinite ones are
    // stopped; returns when everything is done.
    void finish();

  private:
    using Clock = std::chrono::steady_clock;
    struct Command {
        std::uint64_t seq;  // order of arrival: a `stop` stops the searches that came before it
        std::vector<std::string> words;
        Clock::time_point received;  // a movetime counts from here
    };
    void work();
    void execute(const Command& c);
    // Blocks the worker until no search runs (answering `isready` meanwhile).
    void awaitSearch(std::unique_lock<std::mutex>& lock);
    void answerQueuedIsReady();
    void reply(const std::string& line);
    void error(const std::string& message);
    void cmdGo(const Command& c);
    // The search thread: carries out each `go` handed over in searchJob_, then answers it.
    void searchLoop();
    Action search(const Budget& budget);
    void cmdPosition(const std::vector<std::string>& args);
    void cmdSetOption(const std::vector<std::string>& args);
    void cmdNewGame(const std::vector<std::string>& args);

    Output out_;
    std::mutex outMutex_;
    // The commands' state: touched by the thread carrying out a command (the reader or the
    // worker, never both at once: busy_), and by a search while it runs (commands wait for the
    // search before changing any of it).
    std::string botName_;
    std::uint64_t seed_;
    std::unique_ptr<Bot> bot_;
    Rng rng_;  // seeded by the Seed option only: one stream for the whole session
    std::optional<Side> side_;
    Rules rules_ = Rules::standard();
    std::optional<InfoSet> knowledge_;

    // Shared between the reader, the worker and the search, under mutex_.
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Command> queue_;
    std::uint64_t nextSeq_ = 1;
    std::uint64_t stopSeq_ = 0;        // searches of commands before this one are stopped
    bool busy_ = false;                // a command is being carried out (reader or worker)
    bool searching_ = false;           // from a `go` handed over until its bestaction
    std::optional<Budget> searchJob_;  // a `go` handed over, not yet taken by the search thread
    bool infiniteSearch_ = false;
    bool inputEnded_ = false;
    bool closing_ = false;
    bool quit_ = false;              // `quit` was read
    std::atomic<bool> stop_{false};  // polled by the running search

    // Set by the thread that carries out the first `go` / by the reader; joined by the destructor.
    std::thread search_;
    std::thread worker_;
};

// Runs a session over streams until `quit` or the end of input (which stops a running search).
void runEngine(std::istream& in, std::ostream& out, const std::string& bot = "strong",
               std::uint64_t seed = 1);

}  // namespace rainet::ai
