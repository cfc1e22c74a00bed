// The protocol's position rebuilding against the referee: in thousands of random games, at every
// ply and for each side, the `position` command the controller writes (formatPositionCommand) is
// read back as the engine reads it (parsePositionCommand) and must give exactly the referee's
// knowledge of that side: the same view, the same consistent assignments, the same legal actions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "ai/engine_protocol.h"

namespace rainet::ai {
namespace {

int envInt(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : fallback;
}

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// A random action; with `byType`, the type is drawn first so that rare actions (LB moves of two
// squares, NF, VC, escapes) come up as often as common ones.
Action randomAction(const ActionList& legal, bool byType, Rng& rng) {
    if (!byType)
        return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
    std::vector<ActionType> types;
    for (Action a : legal)
        if (std::find(types.begin(), types.end(), a.type()) == types.end())
            types.push_back(a.type());
    const ActionType t = types[rng.below(static_cast<std::uint32_t>(types.size()))];
    ActionList ofType;
    for (Action a : legal)
        if (a.type() == t) ofType.push(a);
    return ofType[static_cast<int>(rng.below(static_cast<std::uint32_t>(ofType.size())))];
}

// Why the rebuilt knowledge of `side` differs from the referee's, or "" when it does not.
std::string compare(const InfoSet& referee, const Position& pos, const View& start, Side side) {
    const std::string cmd = formatPositionCommand(start, referee.history());
    auto rebuilt = parsePositionCommand(words(cmd), side, pos.rules());
    if (!rebuilt.ok()) return "'" + cmd + "' is refused: " + rebuilt.error().message;
    const View truth = View::of(pos, viewerOf(side));
    if (!(referee.view() == truth)) return "the referee's own view drifted";
    if (!(rebuilt->view() == truth))
        return "'" + cmd + "' gives " + rebuilt->view().toString() + ", the referee has " +
               truth.toString();
    for (Side s : {Side::One, Side::Two}) {
        if (rebuilt->hidden(s).squares != referee.hidden(s).squares ||
            rebuilt->hidden(s).assignments != referee.hidden(s).assignments)
            return "'" + cmd + "' gives other consistent assignments for side " +
                   std::to_string(sideNumber(s));
    }
    if (!pos.isOver()) {
        const ActionList a = rebuilt->view().legalActions(), b = pos.legalActions();
        if (a.size() != b.size()) return "'" + cmd + "' gives other legal actions";
        for (Action x : b)
            if (!a.contains(x)) return "'" + cmd + "' misses the legal " + toString(x);
    }
    return "";
}

TEST(EnginePosition, RebuiltKnowledgeMatchesTheRefereeInRandomGames) {
    const int games = envInt("RAINET_POSITION_GAMES", 2000);
    Rng rng(20261203);
    long plies = 0;
    for (int g = 0; g < games; ++g) {
        const Rules rules = g % 2 ? Rules::official() : Rules::standard();
        auto start = Position::fromSetups(randomSetup(rng), randomSetup(rng), rules);
        ASSERT_TRUE(start.ok());
        Position pos = *start;
        const View startView[2] = {View::of(pos, Viewer::Side1), View::of(pos, Viewer::Side2)};
        InfoSet knowledge[2] = {InfoSet(startView[0]), InfoSet(startView[1])};
        const bool byType = g % 4 >= 2;
        for (int ply = 0;; ++ply) {
            for (Side s : {Side::One, Side::Two}) {
                const std::string why = compare(knowledge[index(s)], pos, startView[index(s)], s);
                ASSERT_EQ(why, "") << "game " << g << " ply " << ply << " side " << sideNumber(s)
                                   << " position " << pos.toString();
            }
            if (pos.isOver() || ply >= 400) break;
            const Action a = randomAction(pos.legalActions(), byType, rng);
            for (Side s : {Side::One, Side::Two})
                ASSERT_FALSE(knowledge[index(s)].observe(observe(pos, a, viewerOf(s))));
            pos.doAction(a);
            ++plies;
        }
    }
    EXPECT_GT(plies, games * 20L);  // the games were played, not cut short
}

}  // namespace
}  // namespace rainet::ai
