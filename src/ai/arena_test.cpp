// The referee gives each player only its own view; the arena scores, pairs arrangements and
// computes Elo; a small strength smoke test.
#include <gtest/gtest.h>

#include "ai/arena.h"
#include "ai/bench.h"

#include <fstream>

namespace rainet::ai {
namespace {

// A random player that records everything it is given.
class RecordingPlayer : public Player {
  public:
    explicit RecordingPlayer(std::uint64_t seed) : rng_(seed) {}
    std::string name() const override { return "recorder"; }
    Result<std::uint8_t> newGame(Side side, const Rules&) override {
        side_ = side;
        return randomSetup(rng_);
    }
    Result<Action> act(const InfoSet& k, const Budget&) override {
        seen.push_back({k.view().ply(), k.view().viewer(), k.view().toString(), k.history()});
        const ActionList legal = k.view().legalActions();
        return legal[static_cast<int>(rng_.below(legal.size()))];
    }
    struct Seen {
        int ply;
        Viewer viewer;
        std::string view;
        std::vector<Observation> history;
    };
    std::vector<Seen> seen;
    Side side_ = Side::One;

  private:
    Rng rng_;
};

TEST(Referee, PlayersSeeOnlyTheirOwnView) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        RecordingPlayer one(seed), two(seed + 100);
        GameOptions options;
        options.maxPlies = 300;
        const GameRecord r = playGame(one, two, options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        // Replay the record with full information and compare what each player was given.
        Position pos = *Position::fromSetups(r.setups[0], r.setups[1]);
        std::size_t next[2] = {0, 0};
        RecordingPlayer* players[2] = {&one, &two};
        for (std::size_t ply = 0; ply <= r.actions.size(); ++ply) {
            const Side mover = pos.toMove();
            auto& seen = players[index(mover)]->seen;
            if (next[index(mover)] < seen.size() &&
                seen[next[index(mover)]].ply == static_cast<int>(ply)) {
                const auto& s = seen[next[index(mover)]++];
                EXPECT_EQ(s.viewer, viewerOf(mover));
                EXPECT_EQ(s.view, View::of(pos, viewerOf(mover)).toString());
                // The opponent's NF reaches this player without its swap bit.
                Side m = Side::One;
                for (const Observation& o : s.history) {
                    if (o.action.type() == ActionType::NotFound && m != mover) {
                        EXPECT_FALSE(o.swapKnown);
                        EXPECT_FALSE(o.action.swap());
                    }
                    m = opponent(m);
                }
            }
            if (ply == r.actions.size()) break;
            pos.doAction(r.actions[ply]);
        }
        EXPECT_EQ(next[0], one.seen.size());
        EXPECT_EQ(next[1], two.seen.size());
    }
}

TEST(Referee, IllegalActionLoses) {
    class Cheater : public Player {
      public:
        std::string name() const override { return "cheater"; }
        Result<std::uint8_t> newGame(Side, const Rules&) override { return std::uint8_t{0x0F}; }
        Result<Action> act(const InfoSet&, const Budget&) override {
            return Action::move(8, 24);  // a2-a4 is never legal
        }
    } cheater;
    RecordingPlayer other(1);
    const GameRecord r = playGame(cheater, other, GameOptions{});
    EXPECT_EQ(r.outcome, Outcome::Side2Wins);
    EXPECT_FALSE(r.error.empty());
}

TEST(Arena, PlayerSpecs) {
    auto a = parsePlayerSpec("strong:nodes=500:movetime=20");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->botName, "strong");
    EXPECT_EQ(a->budget.nodes, 500u);
    EXPECT_EQ(a->budget.movetime.count(), 20);
    EXPECT_TRUE(parsePlayerSpec("engine:./rainet engine").ok());
    EXPECT_FALSE(parsePlayerSpec("nobody").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:nodes").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:depth=3").ok());
}

TEST(Arena, SearchOptionsOfTreeSearchBots) {
    auto a = parsePlayerSpec("ismcts-v1:nodes=50:conceal=15:belief=learned");
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_DOUBLE_EQ(*a->concealment, 0.15);
    EXPECT_EQ(*a->evidence, Evidence::Learned);
    EXPECT_FALSE(parsePlayerSpec("strong").value().concealment.has_value());
    EXPECT_FALSE(parsePlayerSpec("greedy:conceal=15").ok());  // greedy does not search
    EXPECT_DOUBLE_EQ(*parsePlayerSpec("strong:concealbelow=101").value().concealBelow, 1.01);
    EXPECT_FALSE(parsePlayerSpec("greedy:concealbelow=60").ok());
    EXPECT_FALSE(parsePlayerSpec("strong:belief=psychic").ok());
    EXPECT_FALSE(parsePlayerSpec("random:belief=learned").ok());
    auto e = parsePlayerSpec("strong:eval=learned:rollout=4");
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ(*e->eval, LeafEval::Learned);
    EXPECT_EQ(*e->rolloutDepth, 4);
    EXPECT_EQ(*parsePlayerSpec("ismcts-v1:eval=heuristic:rollout=0").value().eval,
              LeafEval::Heuristic);
    EXPECT_FALSE(parsePlayerSpec("strong").value().eval.has_value());
    EXPECT_FALSE(parsePlayerSpec("strong:eval=oracle").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:eval=learned").ok());
    EXPECT_FALSE(parsePlayerSpec("strong:rollout=65").ok());
    const SearchConfig learnedPrior =
        *searchConfigOf(parsePlayerSpec("strong:prior=learned:rprior=learned").value());
    EXPECT_EQ(learnedPrior.prior, ActionPriorSource::Learned);
    EXPECT_EQ(learnedPrior.rolloutPolicy, ActionPriorSource::Learned);
    EXPECT_EQ(searchConfigOf(parsePlayerSpec("strong:prior=learned").value())->rolloutPolicy,
              ActionPriorSource::Heuristic);
    EXPECT_EQ(*parsePlayerSpec("ismcts-v1:rprior=heuristic").value().rolloutPolicy,
              ActionPriorSource::Heuristic);
    EXPECT_FALSE(parsePlayerSpec("strong").value().prior.has_value());
    EXPECT_FALSE(parsePlayerSpec("strong:prior=oracle").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:prior=learned").ok());
    EXPECT_FALSE(parsePlayerSpec("random:rprior=learned").ok());
    EXPECT_FALSE(parsePlayerSpec("bait:rollout=4").ok());
    EXPECT_DOUBLE_EQ(*parsePlayerSpec("strong:squash=32").value().squash, 0.32);
    EXPECT_DOUBLE_EQ(searchConfigOf(parsePlayerSpec("strong:squash=32").value())->squash, 0.32);
    EXPECT_FALSE(parsePlayerSpec("greedy:squash=32").ok());
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("strong:oppmodel=0").value())->opponentModel);
    EXPECT_TRUE(searchConfigOf(parsePlayerSpec("strong").value())->opponentModel);
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("ismcts-v1").value())->opponentModel);
    EXPECT_FALSE(parsePlayerSpec("strong:oppmodel=2").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:oppmodel=1").ok());
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("strong:finish=0").value())->finishAgainstRandom);
    EXPECT_TRUE(searchConfigOf(parsePlayerSpec("strong").value())->finishAgainstRandom);
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("ismcts-v1").value())->finishAgainstRandom);
    EXPECT_FALSE(parsePlayerSpec("strong:finish=2").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:finish=1").ok());
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("strong:guard=0").value())->guardFourthVirus);
    EXPECT_TRUE(searchConfigOf(parsePlayerSpec("strong").value())->guardFourthVirus);
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("ismcts-v1").value())->guardFourthVirus);
    EXPECT_FALSE(parsePlayerSpec("strong:guard=2").ok());
    EXPECT_FALSE(
        searchConfigOf(parsePlayerSpec("strong:escape=0").value())->escapeWithThreeViruses);
    EXPECT_TRUE(searchConfigOf(parsePlayerSpec("strong").value())->escapeWithThreeViruses);
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("ismcts-v1").value())->escapeWithThreeViruses);
    EXPECT_FALSE(parsePlayerSpec("strong:escape=2").ok());
    EXPECT_TRUE(searchConfigOf(parsePlayerSpec("strong:guardall=1").value())->guardPurposeful);
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("strong:guardall=0").value())->guardPurposeful);
    EXPECT_FALSE(parsePlayerSpec("strong:guardall=2").ok());
    EXPECT_FALSE(parsePlayerSpec("greedy:guardall=1").ok());
    EXPECT_TRUE(searchConfigOf(parsePlayerSpec("strong:press=1").value())->pressForProgress);
    EXPECT_FALSE(searchConfigOf(parsePlayerSpec("strong:press=0").value())->pressForProgress);
    EXPECT_FALSE(parsePlayerSpec("strong:press=2").ok());
    // The options reach the bot: a uniform belief plays differently from the learned one.
    auto player = [](const char* text) { return makePlayer(parsePlayerSpec(text).value(), 3); };
    std::vector<std::string> moves[2];
    for (int i = 0; i < 2; ++i) {
        auto one = player(i ? "strong:nodes=200:belief=uniform" : "strong:nodes=200");
        auto two = player("greedy");
        ASSERT_TRUE(one.ok() && two.ok());
        GameOptions go;
        go.setup[0] = 0x0F;
        go.setup[1] = 0x33;
        go.maxPlies = 40;
        for (Action act : playGame(**one, **two, go).actions) moves[i].push_back(toString(act));
    }
    EXPECT_NE(moves[0], moves[1]);
}

TEST(Arena, EloAndSprt) {
    Score even{50, 0, 50, 0};
    EXPECT_NEAR(eloEstimate(even).elo, 0.0, 1e-9);
    Score strong{75, 0, 25, 0};
    const EloEstimate e = eloEstimate(strong);
    EXPECT_NEAR(e.elo, 190.8, 0.5);
    EXPECT_LT(e.low, e.elo);
    EXPECT_GT(e.high, e.elo);
    EXPECT_GT(sprtLlr(strong, 0, 100), 2.94);
    EXPECT_LT(sprtLlr(even, 100, 200), -2.94);
    // One game decides nothing.
    EXPECT_LT(std::abs(sprtLlr(Score{1, 0, 0, 0}, 0, 100)), 2.94);
}

TEST(Arena, GreedyBeatsRandom) {
    MatchOptions options;
    options.games = 40;
    options.seed = 3;
    const Score s = playMatch(*parsePlayerSpec("greedy"), *parsePlayerSpec("random"), options);
    EXPECT_EQ(s.games(), 40);
    EXPECT_EQ(s.errors, 0);
    EXPECT_GE(s.fraction(), 0.8);
}

TEST(Arena, CountsNoProgressDrawsAndFourthVirusLosses) {
    // A trader takes whatever approaches, bait offers its viruses: the trader's losses come by
    // its own fourth virus. Two fortresses offer nothing: their games end by no progress.
    MatchOptions options;
    options.games = 10;
    const Score traded = playMatch(*parsePlayerSpec("trader"), *parsePlayerSpec("bait"), options);
    EXPECT_GT(traded.fourthVirusLosses, 0);
    EXPECT_LE(traded.fourthVirusLosses, traded.losses);
    EXPECT_GT(traded.plies, 10L * 8);
    const Score walled =
        playMatch(*parsePlayerSpec("fortress"), *parsePlayerSpec("fortress"), options);
    EXPECT_GT(walled.noProgressDraws, 0);
    EXPECT_LE(walled.noProgressDraws, walled.draws);
    EXPECT_EQ(walled.fourthVirusLosses, 0);
}

TEST(Arena, MatchIsDeterministicAndWritesRecords) {
    MatchOptions options;
    options.games = 4;
    options.concurrency = 2;
    options.seed = 5;
    options.recordDir = ::testing::TempDir() + "/rainet-arena-records";
    const auto a = *parsePlayerSpec("strong:nodes=50"), b = *parsePlayerSpec("greedy");
    const Score s1 = playMatch(a, b, options);
    std::ifstream f(options.recordDir + "/game-00001.txt");
    std::stringstream first;
    first << f.rdbuf();
    const Score s2 = playMatch(a, b, options);
    std::ifstream g(options.recordDir + "/game-00001.txt");
    std::stringstream again;
    again << g.rdbuf();
    EXPECT_EQ(s1.wins, s2.wins);
    EXPECT_EQ(s1.losses, s2.losses);
    EXPECT_NE(first.str().find("[Side1 \"strong:nodes=50\"]"), std::string::npos);
    // Records are in the core format and replay to their result.
    auto rec = parseRecord(first.str());
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    auto end = replay(*rec);
    ASSERT_TRUE(end.ok()) << end.error().message;
    EXPECT_EQ(end->outcome(), rec->result);
    EXPECT_EQ(first.str(), again.str());
}

TEST(Bench, NodeCountMatchesCommittedValue) {
    const char* src = std::getenv("RAINET_SOURCE_DIR");
    ASSERT_NE(src, nullptr);
    std::ifstream f(std::string(src) + "/bench/bench_nodes.txt");
    ASSERT_TRUE(f);
    std::uint64_t expected = 0;
    f >> expected;
    EXPECT_EQ(runBench().nodes, expected)
        << "search behaviour changed: update bench/bench_nodes.txt deliberately";
}

}  // namespace
}  // namespace rainet::ai
