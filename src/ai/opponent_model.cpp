#include "ai/opponent_model.h"

#include <array>
#include <cmath>

#include "ai/eval.h"

namespace rainet::ai {

namespace {
// How often purposeful players chose each kind, per action: counted from greedy's view over 60
// games against each of greedy, bait, ismcts-v1 and strong (100 iterations), pooled; take-backs
// raised from 0.003 to 0.01 so that one LB detach by a search does not condemn it.
constexpr std::array<double, kActionKinds> kPurposefulRates = {0.665, 0.129, 0.078, 0.125, 0.010};
// A purposeful opponent is the usual case (even odds cost 7-9 points against ismcts-v1 and greedy,
// docs/ai.md); a random player is still read as one within 10-20 of its actions.
constexpr double kPrior = 0.9;
}  // namespace

ActionKind actionKind(const Position& p, Action a) {
    switch (a.type()) {
        case ActionType::Enter:
            return kForward;
        case ActionType::Move: {
            const Bitboard exits = exitsOf(opponent(p.toMove()));
            const int d0 = exitDistance(a.from(), exits), d1 = exitDistance(a.to(), exits);
            return d1 < d0 ? kForward : d1 > d0 ? kBackward : kAcross;
        }
        case ActionType::BoostDetach:
        case ActionType::FirewallRemove:
            return kTakeBack;
        default:
            return kTerminal;
    }
}

double purposefulLogRatio(const Position& p, Action a) {
    const ActionList legal = p.legalActions();
    std::array<int, kActionKinds> count{};
    for (Action b : legal) ++count[actionKind(p, b)];
    const ActionKind k = actionKind(p, a);
    if (count[k] == 0) return 0.0;  // not legal here: no evidence
    // The purposeful policy's choice of kind, among the kinds available.
    double available = 0.0;
    for (int j = 0; j < kActionKinds; ++j)
        if (count[j]) available += kPurposefulRates[j];
    const double purposeful = kPurposefulRates[k] / available / count[k];
    return std::log(purposeful * static_cast<double>(legal.size()));
}

void OpponentModel::update(const InfoSet& knowledge) {
    const auto& history = knowledge.history();
    if (history.size() < seen_) *this = OpponentModel{};  // a new game: start afresh
    if (pending_ && history.size() == pendingPly_ + 1) {
        logOdds_ += purposefulLogRatio(*pending_, history.back().action);
        ++read_;
    }
    pending_.reset();
    seen_ = history.size();
}

void OpponentModel::answered(const InfoSet& knowledge, Action a) {
    Position p = knowledge.world(0, 0);
    p.doAction(a);
    if (p.isOver()) return;
    pending_ = p;
    pendingPly_ = knowledge.history().size() + 1;
}

double OpponentModel::purposeful() const {
    return 1.0 / (1.0 + std::exp(-(std::log(kPrior / (1 - kPrior)) + logOdds_)));
}

}  // namespace rainet::ai
