#pragma once
// What the league's styles share (docs/ai.md, "The league"): simple opponents, each written from a
// one-line description, against which strong must hold whatever their style. A style scores every
// legal action from what its mover may know (its own identities; the opponent's only when face up)
// and plays the best, with a little noise. The facts of an action and the pieces the styles
// combine (run a link, offer a virus, use a terminal card plausibly) live here, once.
#include <cstdint>
#include <string>
#include <vector>

#include "ai/bot.h"
#include "core/position.h"

namespace rainet::ai {

// What one action does, seen by its mover.
struct ActionFacts {
    Action action;
    ActionType type = ActionType::Move;
    bool link = false;   // the own card acting (Move, Enter, LB, NF's first) is a link
    bool virus = false;  // ... is a virus
    bool capture = false;
    int known = 0;  // the opponent card taken or aimed at: +1 a face-up link, -1 a face-up virus
    int exitBefore = 99, exitAfter = 99;        // the card's distance to the opponent's exits
    int contactBefore = 99, contactAfter = 99;  // ... to the nearest opponent card
    int rankAfter = 0;                          // ranks away from its own back rank after a move
    bool threatenedBefore = false, threatenedAfter = false;
    bool clearAfter = false;  // no opponent card near its way out (clearWay)
};

// The game as the mover sees it.
struct GameFacts {
    Side us = Side::One;
    int virusesTaken = 0, linksTaken = 0;  // opponent cards we captured
    int virusesLost = 0, linksLost = 0;    // our cards they captured
    int ply = 0, noProgress = 0;
    int danger = 99;  // the nearest opponent card's distance to our exits
};

ActionFacts factsOf(const Position& p, Action a);
GameFacts gameFactsOf(const Position& p);
// A card of `us` on `s` has a clear way out: no opponent card next to it, none within one step of
// the opponent's exit nearer to it.
bool clearWay(const Position& p, Side us, Square s);

// The pieces the styles are made of; each scores one kind of action and 0 for the others.
double escapeScore(const ActionFacts& f);  // enter with a link, never with a virus
// Takes face-up links, leaves face-up viruses (never a fourth); an unknown card is worth
// `unknown` (never when it could be a fourth virus and `guard`).
double captureScore(const ActionFacts& f, const GameFacts& g, double unknown, bool guard = true);
double runScore(const ActionFacts& f);       // a card straight for the exits, out of threats
double stayScore(const ActionFacts& f);      // a card that keeps home and steps out of threats
double offerScore(const ActionFacts& f);     // a card that closes in on the opponent's cards
double shieldScore(const ActionFacts& f);    // a card that stays near home out of contact
double balancedScore(const ActionFacts& f);  // links run when the way is clear, viruses close in
// How a style uses the four terminal cards: each weight 0 = never, 1 = when the position asks
// for it, more = at the first chance; LINE BOOST goes on links, or on viruses (a bluff).
struct CardUse {
    double boost = 1, firewall = 1, check = 1, notFound = 1;
    bool boostViruses = false;
};
double cardsScore(const Position& p, const ActionFacts& f, const GameFacts& g, const CardUse& use);

// The legal action of highest score plus up to half a point of noise (so that the same card does
// not always act); exact ties drawn at random.
template <class ScoreOf>
Action noisyBest(const ActionList& legal, Rng& rng, ScoreOf scoreOf) {
    double best = -1e18;
    std::vector<Action> ties;
    for (Action a : legal) {
        const double s = scoreOf(a) + 0.5 * rng.uniform();
        if (s > best) {
            best = s;
            ties = {a};
        } else if (s == best) {
            ties.push_back(a);
        }
    }
    return ties[rng.below(static_cast<std::uint32_t>(ties.size()))];
}

using StyleScore = double (*)(const Position&, const ActionFacts&, const GameFacts&);
using SetupChoice = std::uint8_t (*)(Rng&);

// A bot playing one style: the best-scoring legal action in a world consistent with its
// knowledge (its own identities are real there), half a point of noise breaking near-ties.
class StyleBot : public Bot {
  public:
    StyleBot(std::string name, StyleScore score, SetupChoice setup)
        : name_(std::move(name)), score_(score), setup_(setup) {}
    std::string name() const override { return name_; }
    std::uint8_t chooseSetup(Side, const Rules&, Rng& rng) override { return setup_(rng); }
    Action chooseAction(const InfoSet& knowledge, const Budget& budget, Rng& rng) override;

  private:
    std::string name_;
    StyleScore score_;
    SetupChoice setup_;
};

}  // namespace rainet::ai
