#pragma once
// The strong player: single-observer information-set Monte Carlo tree search (Cowling, Powley and
// Whitehouse 2012). Each iteration draws a full world from the Belief (belief.h) about the
// opponent's hidden cards, descends one shared tree of action histories with UCB1 (plus a
// progressive bias from the action prior and progressive widening over prior-ordered children),
// adds one node, plays a short heuristic rollout in that world and backs up the evaluation.
// Legal actions never depend on hidden identities, so every child is available in every world.
// A budget of `nodes` counts iterations (one simulated playout from the root each).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "ai/belief.h"
#include "ai/bot.h"
#include "ai/eval.h"
#include "ai/opponent_model.h"

namespace rainet::ai {

// The evaluation at the end of a rollout: eval.h's hand-set heuristic, squashed, or the learned
// value (value.h).
enum class LeafEval : std::uint8_t { Heuristic, Learned };
// The preference over actions that orders and biases children (and plays rollouts): eval.h's
// hand-set actionPrior or the learned policy prior (policy.h).
enum class ActionPriorSource : std::uint8_t { Heuristic, Learned };

struct SearchConfig {
    std::uint64_t iterations = 2000;           // default when the budget gives no limit
    std::uint64_t maxIterations = 0;           // a cap whatever the budget (levels); 0 = none
    std::chrono::milliseconds maxMovetime{0};  // a cap on the time per action (levels); 0 = none
    int rolloutDepth = 12;                     // plies of heuristic rollout before the evaluation
    LeafEval eval = LeafEval::Heuristic;       // the evaluation after the rollout
    double squash = kRewardSquash;             // the heuristic's slope into [0, 1] (eval.h)
    double exploration = 0.5;                  // UCB1 constant (rewards in [0, 1])
    double priorWeight = 0.3;                  // progressive-bias weight of the action prior
    double rolloutNoise = 0.25;                // probability of a random action in rollouts
    Evidence evidence = Evidence::Heuristic;   // the belief's behavioural evidence
    // The action prior that orders the tree's children (progressive widening) and biases their
    // selection, and the one whose argmax the rollouts play.
    ActionPriorSource prior = ActionPriorSource::Heuristic;
    ActionPriorSource rolloutPolicy = ActionPriorSource::Heuristic;
    // Type hiding at the root: among the children visited at least `concealWindow` times as often
    // as the most visited, the answer maximizes visits / most - concealment * leak, where leak is
    // how far the action moves a reader's log-odds (the learned belief model) towards the acting
    // card's true identity (negative when it misleads). 0 = the most visited child.
    double concealment = 0.0;
    double concealWindow = 0.6;
    // Hiding only while the most visited child's mean reward is below this (the game is open);
    // at or above it the most visited child is played.
    double concealBelow = 0.6;
    // Arrangements uniformly over the 70 (nothing for a reader's setup prior to learn) rather
    // than greedy's mix (links in front and on both wings a little more often).
    bool uniformSetups = false;
    // The bot keeps an in-game model of the opponent (opponent_model.h) and searches with it.
    bool opponentModel = false;
    // Against an opponent searched as random (opponentModel), an open position slides towards
    // the draw as the no-progress counter nears its limit, so that the search makes progress
    // (escapes) instead of drifting into the no-progress draw (docs/ai.md, "Finishing").
    bool finishAgainstRandom = false;
    // With three viruses in our stack, a capture of a card not known to be a link (a fourth virus
    // loses at once) is played only when the alternatives are clearly worse, unless the opponent
    // model is confident that the opponent plays purposefully (then the belief's reading of its
    // cards is trusted as it is). Against random, every loss left was such a capture, of a card
    // the belief misread as a link or a defensive gamble (docs/ai.md, "The fourth virus"). A
    // capture on our own exit (official preset) is guarded whoever the opponent is: bait's viruses
    // walked onto strong's exits and were taken on trust (docs/ai.md, "The guards").
    bool guardFourthVirus = false;
    // With three viruses in our stack, against an opponent searched as random (with
    // finishAgainstRandom), the no-progress slide counts from where our nearest link could
    // escape (the counter plus escapePlies), so that links run for the exits: an escape is the
    // only safe progress, and strong kept them home until the draw (docs/ai.md, "Escaping").
    bool escapeWithThreeViruses = false;
    // The fourth-virus guard (guardFourthVirus) holds against a purposeful opponent too: the
    // belief's reading of its cards is not trusted over the uniform chance of a virus (docs/ai.md,
    // "The league": baiters of styles strong never met won by strong's fourth virus). With it,
    // and three viruses stacked, the tree's belief also reads the opponent's behaviour at half its
    // weight, and VIRUS CHECKER on a card goes before a risky capture of it when the check is worth
    // more (Ismcts::guardedChoice).
    bool guardPurposeful = false;
    // Against a purposeful opponent a no-progress draw is worth less than half a point to us
    // (0.4), and an open position slides towards it over the second half of the no-progress
    // limit, counted with three viruses stacked from where our nearest link could escape, as
    // finishAgainstRandom does against random: progress is made instead of waited out
    // (docs/ai.md, "The league": fortresses and baiters drew by no progress).
    bool pressForProgress = false;
};

// One child of the root after a search: how often it was tried and its summed reward (from the
// view of the side to move at the root).
struct RootChild {
    Action action;
    std::uint32_t visits = 0;
    double reward = 0.0;
};

// What one search found (also reported through SearchInfo).
struct SearchResult {
    Action best;
    std::uint64_t iterations = 0;
    std::uint64_t plies = 0;  // actions simulated, tree and rollouts
    std::vector<Action> bestLine;
    double value = 0.5;  // mean reward of the most visited root child (0.5 with no iteration)
    std::vector<RootChild> root;  // every root child, most visited first (analysis, ai/analysis.h)
};

class Ismcts {
  public:
    explicit Ismcts(SearchConfig config) : config_(config) {}
    // `purposeful`: the probability that the opponent plays purposefully rather than at random
    // (opponent_model.h); it tempers the learned belief, and the opponent's replies in the tree
    // are uniformly random with the remaining probability. 1 = a purposeful opponent.
    SearchResult search(const InfoSet& knowledge, const Budget& budget, Rng& rng,
                        const InfoCallback& info, double purposeful = 1.0);

  private:
    struct Node {
        Action action;
        std::uint32_t firstChild = 0;
        std::uint16_t childCount = 0;
        bool expanded = false;
        std::uint32_t visits = 0;
        double reward = 0.0;  // sum, from the view of the side that played `action`
        float prior = 0.0f;   // in [0, 1] among siblings
    };
    void expand(std::uint32_t node, const Position& world, const ActionList& legal);
    std::uint32_t select(std::uint32_t node, bool& fresh) const;
    using Clock = std::chrono::steady_clock;
    // The evaluation after a short heuristic playout; nothing if the deadline passed meanwhile.
    std::optional<double> rollout(Position& world, Side us, Rng& rng, std::uint64_t& plies,
                                  Clock::time_point deadline) const;
    // The source that serves for `wanted` under `rules`: the learned prior only where it fits.
    static ActionPriorSource usablePrior(ActionPriorSource wanted, const Rules& rules);
    // The preference for action `a` in `world` by `source` (a usablePrior).
    static double prior(ActionPriorSource source, const Position& world, Action a);
    // The reward of a world for `us` by the configured evaluation.
    double leafReward(const Position& world, Side us) const;
    std::vector<Action> principalLine() const;
    // The root child to play instead of `chosen` with three viruses stacked against random, or
    // pressing for progress (SearchConfig::escapeWithThreeViruses): the most visited step of a
    // link towards the opponent's exits within `margin` of `chosen`'s mean reward, unless
    // `chosen` is one.
    std::uint32_t escapingChoice(const InfoSet& knowledge, std::uint32_t chosen,
                                 double margin) const;
    // The root child to play when hiding our types (SearchConfig::concealment).
    std::uint32_t concealedChoice(const InfoSet& knowledge, std::uint32_t mostVisited) const;
    // The root child to play instead of `chosen` when it risks the fourth virus
    // (SearchConfig::guardFourthVirus); `chosen` itself when it does not, or when it is worth it.
    std::uint32_t guardedChoice(const InfoSet& knowledge, const Belief& belief,
                                std::uint32_t chosen, double purposeful) const;

    // Nodes in fixed chunks: growing never copies the tree (a copy of a large vector stalled
    // timed searches), and siblings stay contiguous. A chunk's memory is left as allocated, each
    // node constructed when handed out: a short search touches a few of its 16 384 nodes, and
    // initializing them all (512 KB, every page faulted in) was ~40% of fuzz_engine's time.
    class NodePool {
      public:
        static constexpr std::uint32_t kChunkBits = 14, kChunk = 1u << kChunkBits;
        Node& operator[](std::uint32_t i) { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }
        const Node& operator[](std::uint32_t i) const {
            return chunks_[i >> kChunkBits][i & (kChunk - 1)];
        }
        // Index of `count` (<= kChunk) new default nodes in a row.
        std::uint32_t allocate(std::uint32_t count) {
            if ((used_ & (kChunk - 1)) + count > kChunk) used_ = (used_ | (kChunk - 1)) + 1;
            while ((used_ + count - 1) >> kChunkBits >= chunks_.size())
                chunks_.emplace_back(std::allocator<Node>().allocate(kChunk));
            const std::uint32_t first = used_;
            used_ += count;
            for (std::uint32_t i = first; i < used_; ++i) std::construct_at(&(*this)[i]);
            return first;
        }
        void clear() { used_ = 0; }
        // Releases all but the first `chunks` chunks (a long search's memory is not kept).
        void trim(std::size_t chunks) {
            if (chunks_.size() > chunks) chunks_.resize(chunks);
        }
        std::uint32_t size() const { return used_; }

      private:
        static_assert(std::is_trivially_destructible_v<Node>,
                      "chunks are freed without destructors");
        struct FreeChunk {  // nodes are trivially destructible: only the memory is given back
            void operator()(Node* chunk) const { std::allocator<Node>().deallocate(chunk, kChunk); }
        };
        std::vector<std::unique_ptr<Node[], FreeChunk>> chunks_;
        std::uint32_t used_ = 0;
    };

    // A bound on the tree (about 64 MB); beyond it leaves are played out without expanding.
    static constexpr std::uint32_t kMaxNodes = 1u << 21;

    SearchConfig config_;
    double winShare_ = 0.0;  // how far open positions count as won (a random opponent)
    NodePool nodes_;         // kept between searches, up to kKeptChunks chunks (8 MB)
    static constexpr std::size_t kKeptChunks = 16;
};

// The reward of an open (not finished) position whose evaluation is v, for a search whose
// opponent replies at random: v + winShare (1 - v), mostly won (winShare 0: v itself); with
// `finish`, sliding linearly from there at noProgress = limit / 2 to the draw's 0.5 at the limit
// (limit 0: no such rule).
double openPositionReward(double v, double winShare, int noProgress, int limit, bool finish);
// The same against a purposeful opponent (SearchConfig::pressForProgress): v until noProgress =
// limit / 2, then sliding linearly to the draw's value `draw` (to us) at the limit.
double pressedReward(double v, int noProgress, int limit, double draw = 0.5);

// With three viruses in `us`'s stack, the plies at best before our nearest link on the board has
// escaped (two per step to the opponent's exits, one to enter): the progress left when no capture
// of an unidentified card is safe. 0 with fewer viruses, or with no link on the board.
int escapePlies(const Position& p, Side us);

// The square of an opponent card that a purposeful opponent would have entered into our server
// had it been a link: on our exit through its owner's last turn, or just stepped off it (an NF of
// it aside); nothing when there is none (the first found when there are two).
std::optional<Square> shunnedExit(const InfoSet& knowledge);

// The value of a capture whose searched mean reward is `mean` when the captured card is a virus
// with probability `searchedVirus` in the search's belief (a fourth virus: reward 0 in those
// worlds) but `virus` in truth: the mean over the link worlds, times the chance of a link.
double recountedCapture(double mean, double searchedVirus, double virus);

// The configuration of `strong`. SearchConfig{} is `ismcts-v1`, the strong bot as it was before
// the learned models (heuristic belief), kept selectable as a frozen yardstick.
SearchConfig strongConfig();
// The iteration cap of player level 2..5 (0 for any other level: level 1 is no search).
std::uint64_t levelNodes(int level);
// Player levels 2..5: strong's configuration capped at levelNodes(level) iterations and 1 s per
// action; levels 2 and 3 evaluate with the heuristic after 12-ply rollouts, level 4 with the
// learned value after 12-ply rollouts, level 5 as strong (4 plies, learned); level 2 does not
// hide its cards' types.
SearchConfig levelConfig(int level);

class StrongBot : public Bot {
  public:
    explicit StrongBot(std::string name = "strong", SearchConfig config = {})
        : name_(std::move(name)), config_(config) {}
    std::string name() const override { return name_; }
    std::uint8_t chooseSetup(Side side, const Rules& rules, Rng& rng) override;
    Action chooseAction(const InfoSet& knowledge, const Budget& budget, Rng& rng) override;
    const SearchConfig& config() const { return config_; }
    // Replaces the configuration (before the first search).
    void configure(SearchConfig config) {
        config_ = config;
        search_.reset();
    }

  private:
    std::string name_;
    SearchConfig config_;
    std::unique_ptr<Ismcts> search_;  // reused: its node memory stays allocated
    OpponentModel opponent_;
};

// The actions the tree considers: every move, escape, LB and VC; FW only where it blocks a
// path to our exits (within two squares of them) or guards a contact square; NF only with a face-up
// card or two neighbours. Falls back to all legal actions if that leaves none.
ActionList searchActions(const Position& p);
// The same filter applied to a given list of legal actions of p.
ActionList searchActions(const Position& p, const ActionList& legal);

}  // namespace rainet::ai
