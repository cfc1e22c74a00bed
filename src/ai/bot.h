#pragma once
// The one interface every computer player implements. A bot is given only its own knowledge
// (an InfoSet: its view plus what it observed), never a Position, so it cannot see hidden cards.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/infoset.h"
#include "core/random.h"
#include "core/rules.h"

namespace rainet::ai {

// How much a bot may think. Zero means "no limit of this kind"; a bot with no limit at all uses a
// small default, unless `infinite` (then only `stop` ends it). `nodes` counts search iterations
// (playouts from the root) for the ISMCTS bots; greedy and random ignore the budget. A level's own
// cap (levels 3-5) applies as well. `stop`, when set, is polled and ends the search early.
struct Budget {
    std::uint64_t nodes = 0;
    std::chrono::milliseconds movetime{0};
    // When the movetime started to count (the arrival of `go`); default: the start of the search.
    std::chrono::steady_clock::time_point since{};
    bool infinite = false;
    const std::atomic<bool>* stop = nullptr;
};

// Progress a searching bot may report (engine protocol `info` lines).
struct SearchInfo {
    std::uint64_t iterations = 0;
    std::uint64_t nodes = 0;
    std::chrono::milliseconds elapsed{0};
    std::vector<Action> bestLine;
    std::vector<std::pair<Square, double>> virusProbability;  // per unidentified opponent card
};
using InfoCallback = std::function<void(const SearchInfo&)>;

class Bot {
  public:
    virtual ~Bot() = default;
    virtual std::string name() const = 0;
    // An arrangement for `side`: bit i set = setup square i (core/types.h setupSquare) holds a
    // link.
    virtual std::uint8_t chooseSetup(Side side, const Rules& rules, Rng& rng) = 0;
    // A legal action for the side to move in knowledge.view(), which is the bot's own side.
    virtual Action chooseAction(const InfoSet& knowledge, const Budget& budget, Rng& rng) = 0;
    void setInfoCallback(InfoCallback cb) { info_ = std::move(cb); }

  protected:
    InfoCallback info_;
};

// A bot by name ("random", "greedy", "strong", "level1".."level5", the league's styles of
// league.h); nullptr for an unknown name.
std::unique_ptr<Bot> makeBot(std::string_view name);
std::vector<std::string> botNames();

// A uniformly random arrangement (70 equally likely).
std::uint8_t randomSetup(Rng& rng);

}  // namespace rainet::ai
