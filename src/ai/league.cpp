#include "ai/league.h"

#include "ai/eval.h"
#include "ai/style.h"

namespace rainet::ai {

namespace {

// Each style is its one-line description of docs/ai.md ("The league") in terms of style.h.

// baiter: viruses pushed at the opponent, one of them under LINE BOOST to look like a runner;
// links home, running only near an exit with the way clear; FW, VC and NF when the position asks.
double baiter(const Position& p, const ActionFacts& f, const GameFacts& g) {
    const double move =
        f.link ? (f.clearAfter && f.exitAfter <= 2 ? runScore(f) : stayScore(f)) : offerScore(f);
    return escapeScore(f) + captureScore(f, g, 0) + move +
           cardsScore(p, f, g, CardUse{.boostViruses = true});
}

// independent bait: viruses pushed forward to be taken, links kept home and run only when the way
// is clear or when the opponent has taken three viruses; terminal cards used plausibly.
double independentBait(const Position& p, const ActionFacts& f, const GameFacts& g) {
    const bool run = f.clearAfter || g.virusesLost >= 3;
    const double move = f.virus ? offerScore(f) : run ? runScore(f) : stayScore(f);
    return escapeScore(f) + captureScore(f, g, f.virus ? 0.5 : -2) + move + cardsScore(p, f, g, {});
}

// fortress: links stay on the back rank behind the viruses, nothing steps into contact, a card
// is taken only at the door (next to our exits); FW guards the exits.
double fortress(const Position& p, const ActionFacts& f, const GameFacts& g) {
    const bool atDoor = f.capture && exitDistance(f.action.to(), exitsOf(g.us)) <= 1;
    const double move = shieldScore(f) - (f.link && f.rankAfter > 0 ? 3 : 0);
    return escapeScore(f) + captureScore(f, g, atDoor ? 5 : -4) + move +
           cardsScore(p, f, g, CardUse{.boost = 0, .firewall = 2});
}

// rusher: LINE BOOST on a link, links straight for the exits, viruses behind them.
double rusher(const Position& p, const ActionFacts& f, const GameFacts& g) {
    const double move = f.link ? 3 * runScore(f) : 0.5 * runScore(f);
    return escapeScore(f) + captureScore(f, g, 1) + move +
           cardsScore(p, f, g, CardUse{.boost = 3, .firewall = 0, .check = 0, .notFound = 0});
}

// bluffer: viruses play like links (for the exits, out of threats, one under LINE BOOST), links
// hang back like viruses until an exit is one step away and clear.
double bluffer(const Position& p, const ActionFacts& f, const GameFacts& g) {
    const bool go = f.virus || (f.clearAfter && f.exitAfter <= 1);
    return escapeScore(f) + captureScore(f, g, 0) + (go ? runScore(f) : stayScore(f)) +
           cardsScore(p, f, g, CardUse{.boostViruses = true});
}

// checker: VIRUS CHECKER and 404 NOT FOUND at the first chance, otherwise balanced play.
double checker(const Position& p, const ActionFacts& f, const GameFacts& g) {
    return escapeScore(f) + captureScore(f, g, 0.5) + balancedScore(f) +
           cardsScore(p, f, g, CardUse{.check = 10, .notFound = 10});
}

// firewall camper: FW on the way to its exits at once and kept there, otherwise balanced play.
double camper(const Position& p, const ActionFacts& f, const GameFacts& g) {
    return escapeScore(f) + captureScore(f, g, 0.5) + balancedScore(f) +
           cardsScore(p, f, g, CardUse{.firewall = 6});
}

// trader: captures whatever it can (a face-up virus aside), every card closing in on the
// opponent's.
double trader(const Position& p, const ActionFacts& f, const GameFacts& g) {
    const double move = f.link && f.clearAfter ? runScore(f) : offerScore(f);
    return escapeScore(f) + captureScore(f, g, 20, false) + move + cardsScore(p, f, g, {});
}

// bait, then rush: the baiter until ply 40 or two viruses taken from it, then the rusher.
double baitThenRush(const Position& p, const ActionFacts& f, const GameFacts& g) {
    return g.ply < 40 && g.virusesLost < 2 ? baiter(p, f, g) : rusher(p, f, g);
}

// fortress, then trade: the fortress until ply 80 or 40 plies without progress, then the trader.
double fortressThenTrade(const Position& p, const ActionFacts& f, const GameFacts& g) {
    return g.ply < 80 && g.noProgress < 40 ? fortress(p, f, g) : trader(p, f, g);
}

// Viruses in front more often than not: a second draw when the first put a link there.
std::uint8_t backLinksSetup(Rng& rng) {
    const std::uint8_t first = randomSetup(rng);
    return first & 0xC0 ? randomSetup(rng) : first;
}

struct Member {
    const char* name;
    StyleScore score;
    SetupChoice setup;
};
constexpr Member kLeague[] = {
    {"baiter", baiter, randomSetup},          {"indie-bait", independentBait, randomSetup},
    {"fortress", fortress, backLinksSetup},   {"rusher", rusher, randomSetup},
    {"bluffer", bluffer, randomSetup},        {"checker", checker, randomSetup},
    {"camper", camper, randomSetup},          {"trader", trader, randomSetup},
    {"bait-rush", baitThenRush, randomSetup}, {"fortress-trade", fortressThenTrade, backLinksSetup},
};

}  // namespace

std::unique_ptr<Bot> makeLeagueBot(std::string_view name) {
    for (const Member& m : kLeague)
        if (name == m.name) return std::make_unique<StyleBot>(m.name, m.score, m.setup);
    return nullptr;
}

std::vector<std::string> leagueNames() {
    std::vector<std::string> names;
    for (const Member& m : kLeague) names.emplace_back(m.name);
    return names;
}

}  // namespace rainet::ai
