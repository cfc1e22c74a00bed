// The random-game harness in the OpenSpiel manner: thousands of random games across both presets,
// checking at every ply legality, undo, hashing, string round-trips, views and information sets,
// and (on a subset) agreement with the independent reference rules in tests/support.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/infoset.h"
#include "core/position_string.h"
#include "core/random.h"
#include "core/view.h"
#include "support/reference_rules.h"

namespace rainet {
namespace {

int envInt(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : fallback;
}

// A position that differs from p only in facts hidden from viewer v: the identities of the
// unidentified cards (board and escapes) of each side v cannot see are shuffled among themselves.
Position hiddenTwin(const Position& p, Viewer v, Rng& rng) {
    auto fields = *detail::parsePositionFields(p.toString(), false);
    PositionState& st = fields.st;
    for (Side s : {Side::One, Side::Two}) {
        if (seesIdentitiesOf(v, s)) continue;
        const int i = index(s);
        std::vector<Square> squares;
        std::vector<bool> ids;
        for (Bitboard b = st.cards[i] & ~st.faceUp; b;) {
            Square sq = popLsb(b);
            squares.push_back(sq);
            ids.push_back(st.links[i] & bit(sq));
        }
        Stack& k = st.stacks[i];
        ids.insert(ids.end(), k.escapedLinks, true);
        ids.insert(ids.end(), k.escapedViruses, false);
        for (std::size_t j = ids.size(); j > 1; --j) {
            const std::size_t r = rng.below(static_cast<std::uint32_t>(j));
            const bool tmp = ids[j - 1];
            ids[j - 1] = ids[r];
            ids[r] = tmp;
        }
        for (std::size_t j = 0; j < squares.size(); ++j) {
            if (ids[j])
                st.links[i] |= bit(squares[j]);
            else
                st.links[i] &= ~bit(squares[j]);
        }
        k.escapedLinks = k.escapedViruses = 0;
        for (std::size_t j = squares.size(); j < ids.size(); ++j)
            ++(ids[j] ? k.escapedLinks : k.escapedViruses);
    }
    // A shuffle can make a stack decided (say, four escaped viruses): that is no position, and
    // the caller then compares the view with itself.
    auto twin = Position::parse(detail::formatPositionFields(fields), p.rules());
    return twin.ok() ? *twin : p;
}

// Whether the true identities of p are among the assignments an information set keeps.
bool consistentWith(const InfoSet& info, const Position& p) {
    for (Side s : {Side::One, Side::Two}) {
        const HiddenCards& h = info.hidden(s);
        bool found = false;
        for (std::uint8_t m : h.assignments) {
            bool ok = true;
            int escapedLinks = 0;
            for (std::size_t j = 0; j < h.squares.size(); ++j) {
                const bool link = (m >> j) & 1;
                if (h.squares[j] == HiddenCards::kEscaped)
                    escapedLinks += link;
                else
                    ok &= link == p.isLinkAt(h.squares[j]) && (p.cards(s) & bit(h.squares[j]));
            }
            const int knownEscapedLinks = info.view().stack(s).escapedLinks;
            found |= ok && escapedLinks + knownEscapedLinks == p.stack(s).escapedLinks;
        }
        if (!found) return false;
    }
    return true;
}

std::vector<std::string> sortedStrings(const ActionList& l) {
    std::vector<std::string> out;
    for (Action a : l) out.push_back(toString(a));
    std::sort(out.begin(), out.end());
    return out;
}

struct Totals {
    long games = 0, plies = 0, decisive = 0, draws = 0, crossChecked = 0;
};

// Plays one random game with every check; returns false at the first failure.
void playAndCheck(Rules rules, std::uint64_t seed, bool crossCheck, bool infoSets, Totals& totals) {
    Rng rng(seed);
    std::uint8_t setups[2];
    for (auto& s : setups) {
        do s = static_cast<std::uint8_t>(rng.below(256));
        while (std::popcount(s) != 4);
    }
    Position p = *Position::fromSetups(setups[0], setups[1], rules);
    const Viewer viewers[3] = {Viewer::Side1, Viewer::Side2, Viewer::Spectator};
    std::vector<View> views;
    for (Viewer v : viewers) views.push_back(View::of(p, v));
    std::vector<InfoSet> infos;
    if (infoSets)
        for (Viewer v : viewers) infos.emplace_back(View::of(p, v));
    const reference::Options refOptions{rules.ownExitEntry, rules.noProgressLimit};
    ActionList list;
    while (true) {
        p.legalActions(list);
        ASSERT_EQ(list.size(), p.countLegalActions()) << p.toString();
        ASSERT_EQ(list.empty(), p.isOver());
        // Strings round-trip; hash is consistent; views hide exactly what they must.
        const std::string text = p.toString();
        auto back = Position::parse(text, rules);
        ASSERT_TRUE(back.ok()) << text << ": " << back.error().message;
        ASSERT_EQ(*back, p) << text;
        ASSERT_EQ(p.hash(), p.computeHash()) << text;
        for (int vi = 0; vi < 3; ++vi) {
            const Viewer v = viewers[vi];
            const View fresh = View::of(p, v);
            const std::string vs = fresh.toString();
            ASSERT_EQ(views[vi].toString(), vs)
                << "incremental view of " << viewerName(v) << " after " << text;
            for (Side s : {Side::One, Side::Two}) {
                if (seesIdentitiesOf(v, s)) continue;
                ASSERT_EQ(fresh.unknown(s), p.cards(s) & ~p.faceUp());
                ASSERT_EQ(fresh.knownLinks(s), p.links(s) & p.faceUp());
            }
            ASSERT_EQ(View::of(hiddenTwin(p, v, rng), v).toString(), vs)
                << "view of " << viewerName(v) << " leaks in " << text;
            auto parsedView = View::parse(vs, v, rules);
            ASSERT_TRUE(parsedView.ok()) << vs << ": " << parsedView.error().message;
            ASSERT_EQ(parsedView->toString(), vs);
            if (infoSets) {
                ASSERT_EQ(infos[vi].view().toString(), vs);
                ASSERT_TRUE(consistentWith(infos[vi], p))
                    << "the true position is not among the consistent worlds of " << viewerName(v);
            }
        }
        if (crossCheck) {
            auto ref = reference::parse(text);
            ASSERT_TRUE(ref.has_value()) << text;
            ASSERT_EQ(reference::format(*ref), text);
            ASSERT_EQ(reference::legalActions(*ref, refOptions), sortedStrings(list)) << text;
            ++totals.crossChecked;
        }
        if (list.empty()) break;
        for (int i = 0; i < list.size(); ++i)
            ASSERT_EQ(p.legalActionAt(i), list[i]) << i << " in " << text;
        // Every legal action's notation round-trips; each is legal; no duplicates.
        std::set<std::uint16_t> seen;
        for (Action a : list) {
            ASSERT_TRUE(seen.insert(a.raw()).second) << "duplicate " << toString(a);
            ASSERT_TRUE(p.isLegal(a));
            auto parsed = parseAction(toString(a));
            ASSERT_TRUE(parsed.ok());
            ASSERT_EQ(*parsed, a);
        }
        const Action a = list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))];
        const PositionState saved = p.state();
        p.doAction(a);
        const std::string after = p.toString();
        p.undoAction(saved);
        ASSERT_EQ(p.toString(), text) << "undo of " << toString(a);
        ASSERT_EQ(p.hash(), saved.hash);
        for (int vi = 0; vi < 3; ++vi) {
            const Observation o = observe(p, a, viewers[vi]);
            ASSERT_FALSE(views[vi].apply(o).has_value()) << toString(a);
            if (infoSets) {
                ASSERT_FALSE(infos[vi].observe(o).has_value()) << toString(a);
            }
        }
        p.doAction(a);
        ASSERT_EQ(p.toString(), after);
        ++totals.plies;
    }
    ++totals.games;
    (p.outcome() == Outcome::Draw ? totals.draws : totals.decisive)++;
}

void runHarness(Rules rules, int games, int crossChecked, int withInfoSets, std::uint64_t seedBase,
                bool expectDecisive = true) {
    Totals totals;
    for (int g = 0; g < games; ++g) {
        playAndCheck(rules, seedBase + g, g < crossChecked, g < withInfoSets, totals);
        if (::testing::Test::HasFatalFailure()) {
            ADD_FAILURE() << "game " << g << " (seed " << seedBase + g << ")";
            return;
        }
    }
    EXPECT_EQ(totals.games, games);
    if (expectDecisive) {
        EXPECT_GT(totals.decisive, 0);
    }
    std::printf("%s: %ld games, %ld plies, %ld decisive, %ld drawn, %ld positions cross-checked\n",
                rules.name().c_str(), totals.games, totals.plies, totals.decisive, totals.draws,
                totals.crossChecked);
}

// 20 000 games in all by default (RAINET_RANDOM_GAMES overrides the count per preset).
TEST(RandomGames, StandardPreset) {
    runHarness(Rules::standard(), envInt("RAINET_RANDOM_GAMES", 10000), 300, 100, 1000000);
}

TEST(RandomGames, OfficialPreset) {
    runHarness(Rules::official(), envInt("RAINET_RANDOM_GAMES", 10000), 300, 100, 2000000);
}

TEST(RandomGames, ShortNoProgressLimit) {
    Rules r = Rules::standard();
    r.noProgressLimit = 20;
    runHarness(r, 500, 100, 50, 3000000, false);
}

}  // namespace
}  // namespace rainet
