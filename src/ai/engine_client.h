#pragma once
// An external engine as a Player: the arena starts COMMAND with /bin/sh, speaks the engine
// protocol (docs/engine-protocol.md) over its stdin/stdout, and turns every `act` into
// `position view START moves ...` + `go` + waiting for `bestaction`. POSIX only.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ai/child_process.h"
#include "ai/referee.h"

namespace rainet::ai {

// The limits of one `go` (docs/engine-protocol.md): a budget, and the game's clocks when it has
// them (ms; the engine plans its own time from them).
struct GoLimits {
    std::uint64_t nodes = 0;
    std::chrono::milliseconds movetime{0};
    std::optional<std::int64_t> time[2], inc[2];  // by side; time set for timed games
    // How long to wait for `bestaction` before the engine is taken for dead.
    std::chrono::milliseconds timeout{600000};
};
std::string formatGo(const GoLimits& limits);

class EngineClient : public Player {
  public:
    static Result<std::unique_ptr<EngineClient>> start(const std::string& command,
                                                       std::uint64_t seed);
    ~EngineClient() override;
    std::string name() const override { return name_; }
    Result<std::uint8_t> newGame(Side side, const Rules& rules) override;
    void started(const View& v) override { start_ = v; }
    Result<Action> act(const InfoSet& knowledge, const Budget& budget) override;
    // `position` for `knowledge` (from the view given to started()), `go` with these limits.
    Result<Action> act(const InfoSet& knowledge, const GoLimits& limits);

  private:
    EngineClient() = default;
    [[nodiscard]] bool send(const std::string& line);
    // Reads until a line starting with `prefix`; returns that line.
    Result<std::string> expect(const std::string& prefix, int timeoutMs);

    std::string name_ = "engine";
    std::unique_ptr<ChildProcess> process_;
    std::optional<View> start_;  // the own side's view at the start of the game
    Side side_ = Side::One;
};

}  // namespace rainet::ai
