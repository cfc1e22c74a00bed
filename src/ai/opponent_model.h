#pragma once
// An in-game model of the opponent's play as a whole: does it play purposefully, like the players
// the learned belief was fitted on, or uniformly at random (when its boosts, its walks onto our
// exits and everything else it does say nothing about its identities)? Each of its actions is
// scored by the likelihood ratio of two policies over the legal actions it had: "purposeful"
// picks a kind of action (a step towards our exits, away, across; a terminal card placed or
// used; LB or FW taken back) with the rates measured on purposeful players, then one of that kind
// uniformly; "random" picks uniformly among all legal actions. The posterior (prior 0.9) tempers
// the belief's behavioural evidence and makes the search's opponent reply at random that often
// (ismcts.h). It needs the position each opponent action was chosen in, which a bot knows from
// its own previous answer, so the model lives in the bot across the decisions of one game.
#include <cstddef>
#include <optional>

#include "core/infoset.h"
#include "core/position.h"

namespace rainet::ai {

// The kinds of action of the purposeful policy.
enum ActionKind : int { kForward, kBackward, kAcross, kTerminal, kTakeBack, kActionKinds };
// The kind of `a`, legal for the side to move in `p` (steps measured to the opponent's exits).
ActionKind actionKind(const Position& p, Action a);
// log P(a | purposeful) - log P(a | uniformly random) for the side to move in `p`.
double purposefulLogRatio(const Position& p, Action a);

class OpponentModel {
  public:
    // Reads the opponent's action since our last answer (if it was made in the position that
    // answer left: after a jump in the history it is skipped); a shorter history than last time
    // is a new game, which starts the model afresh.
    void update(const InfoSet& knowledge);
    // Our answer `a` in `knowledge`: the position the opponent will choose in.
    void answered(const InfoSet& knowledge, Action a);
    // P(purposeful) given the opponent's actions read so far.
    double purposeful() const;
    int actionsRead() const { return read_; }

  private:
    std::optional<Position> pending_;  // after our answer, any identities (legality ignores them)
    std::size_t pendingPly_ = 0;       // history length at that position
    std::size_t seen_ = 0;             // history length at the last update
    double logOdds_ = 0.0;             // sum of purposefulLogRatio
    int read_ = 0;
};

}  // namespace rainet::ai
