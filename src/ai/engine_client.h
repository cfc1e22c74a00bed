#pragma once
// An external engine as a Player: the arena starts COMMAND with /bin/sh, speaks the engine
// protocol (docs/engine-protocol.md) over its stdin/stdout, and turns every `act` into
// `position view START moves ...` + `go` + waiting for `bestaction`. POSIX only.
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "ai/referee.h"

namespace rainet::ai {

class EngineClient : public Player {
  public:
    static Result<std::unique_ptr<EngineClient>> start(const std::string& command,
                                                       std::uint64_t seed);
    ~EngineClient() override;
    std::string name() const override { return name_; }
    Result<std::uint8_t> newGame(Side side, const Rules& rules) override;
    void started(const View& v) override { start_ = v; }
    Result<Action> act(const InfoSet& knowledge, const Budget& budget) override;

  private:
    EngineClient() = default;
    bool send(const std::string& line);
    // The next line, or an error after `timeoutMs` or when the engine exits.
    Result<std::string> readLine(int timeoutMs);
    // Reads until a line starting with `prefix`; returns that line.
    Result<std::string> expect(const std::string& prefix, int timeoutMs);

    std::string name_ = "engine";
    pid_t pid_ = -1;
    int toEngine_ = -1, fromEngine_ = -1;
    std::string buffer_;
    std::optional<View> start_;  // the own side's view at the start of the game
    Side side_ = Side::One;
};

}  // namespace rainet::ai
