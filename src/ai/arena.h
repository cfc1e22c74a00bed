#pragma once
// A match between two players: N games, at most K at once (threads), each pair of arrangements
// played twice with the sides swapped; scores, Elo difference with a 95% interval, and an optional
// SPRT verdict. Players are made by factories so that every game gets fresh, seeded instances.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ai/belief.h"
#include "ai/ismcts.h"
#include "ai/referee.h"

namespace rainet::ai {

// A player description: "NAME" or "NAME:nodes=N:movetime=MS" for a built-in bot (bot.h names),
// or "engine:COMMAND" for an external engine speaking docs/engine-protocol.md. The tree-search
// bots (strong, ismcts-v1, level2-5) also take "conceal=C" (type hiding, in hundredths: 15 is
// SearchConfig::concealment 0.15), "concealbelow=P" (hiding only below a mean reward of P / 100;
// 101: always, as before), "belief=uniform|heuristic|learned", "eval=heuristic|learned" (the
// evaluation after a rollout, SearchConfig::eval), "prior=heuristic|learned" (the action prior
// ordering and biasing the tree's children, SearchConfig::prior), "rprior=heuristic|learned" (the
// rollouts' policy, SearchConfig::rolloutPolicy), "rollout=N" (the rollouts' plies, 0..64) and
// "squash=S" (the heuristic's slope in hundredths, 110 by default); strong and the levels also
// "oppmodel=0|1" (SearchConfig::opponentModel, the in-game opponent model; 1 by default) and
// "finish=0|1" (SearchConfig::finishAgainstRandom; 1 by default), "guard=0|1"
// (SearchConfig::guardFourthVirus; 1 by default) and "escape=0|1"
// (SearchConfig::escapeWithThreeViruses; 1 by default), "guardall=0|1"
// (SearchConfig::guardPurposeful) and "press=0|1" (SearchConfig::pressForProgress).
struct PlayerSpec {
    std::string label;
    std::string botName;        // empty for an engine
    std::string engineCommand;  // empty for a bot
    Budget budget;
    std::optional<double> concealment;
    std::optional<double> concealBelow;  // "concealbelow=P": SearchConfig::concealBelow = P / 100
    std::optional<Evidence> evidence;
    std::optional<LeafEval> eval;
    std::optional<ActionPriorSource> prior;          // "prior=...": SearchConfig::prior
    std::optional<ActionPriorSource> rolloutPolicy;  // "rprior=...": SearchConfig::rolloutPolicy
    std::optional<int> rolloutDepth;
    std::optional<double> squash;       // "squash=S": SearchConfig::squash = S / 100
    std::optional<bool> opponentModel;  // "oppmodel=0|1": SearchConfig::opponentModel
    std::optional<bool> finish;         // "finish=0|1": SearchConfig::finishAgainstRandom
    std::optional<bool> guard;          // "guard=0|1": SearchConfig::guardFourthVirus
    std::optional<bool> escape;         // "escape=0|1": SearchConfig::escapeWithThreeViruses
    std::optional<bool> guardAll;       // "guardall=0|1": SearchConfig::guardPurposeful
    std::optional<bool> press;          // "press=0|1": SearchConfig::pressForProgress
};
Result<PlayerSpec> parsePlayerSpec(const std::string& text);
// The search configuration a tree-search bot's description gives (its bot's, with the options
// applied); nothing for a bot that does not search or an engine.
std::optional<SearchConfig> searchConfigOf(const PlayerSpec& spec);
// A fresh player for one game, seeded.
Result<std::unique_ptr<Player>> makePlayer(const PlayerSpec& spec, std::uint64_t seed);

struct MatchOptions {
    int games = 100;
    int concurrency = 1;
    std::uint64_t seed = 1;
    Rules rules = Rules::standard();
    int maxPlies = 1000;
    bool pairedSetups = true;  // the arena draws arrangements; false: the players choose
    Budget budget;             // for a player whose description gives none
    std::string recordDir;     // one record file per game when not empty
    // SPRT on the Elo difference of player A over B, when set.
    std::optional<double> sprtElo0, sprtElo1;
    double sprtAlpha = 0.05, sprtBeta = 0.05;
    // Told of every game that ended by a player's failure (game number from 1, the reason).
    std::function<void(int game, const std::string& reason)> onError;
};

struct Score {
    int wins = 0, draws = 0, losses = 0, errors = 0;  // from player A's view
    // How games ended: draws by the no-progress rule, and A's losses by a fourth virus in its own
    // stack (taken, or its own escaped); the plies of all games.
    int noProgressDraws = 0, fourthVirusLosses = 0;
    long plies = 0;
    // Answer times of A [0] and B [1], in milliseconds: longest, total, and every one.
    double maxThinkMs[2] = {0, 0}, totalThinkMs[2] = {0, 0};
    long moves[2] = {0, 0};
    std::vector<double> thinkMs[2] = {};
    int games() const { return wins + draws + losses; }
    double points() const { return wins + 0.5 * draws; }
    double fraction() const { return games() ? points() / games() : 0.5; }
};

// The q-quantile (0..1) of values, by the nearest rank; 0 when there are none.
double quantile(std::vector<double> values, double q);

struct EloEstimate {
    double elo = 0, low = 0, high = 0;  // 95% interval
};
EloEstimate eloEstimate(const Score& s);
// Log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation (as fishtest's GSPRT),
// with half a win, draw and loss added; a match decides only after 20 games.
double sprtLlr(const Score& s, double elo0, double elo1);

using ProgressCallback = std::function<void(int done, int total, const Score&)>;
// Plays the match of A against B; game g has A on side 1 when g is even.
Score playMatch(const PlayerSpec& a, const PlayerSpec& b, const MatchOptions& options,
                const ProgressCallback& progress = nullptr);

}  // namespace rainet::ai
