#pragma once
// The learned policy prior: a preference for each action of the side to move, a linear score over
// hand-chosen per-action features, fitted on the actions chosen by strong's search in self-play
// (policy_training.h, `rainet policy train`) as a softmax over the actions the search considers.
// Like eval.h's actionPrior it uses only what the mover may know: its own identities and the
// opponent's face-up ones, so it is the same in every world the search samples. The heuristic
// actionPrior is a linear combination of these features (every quantity and threshold it uses is
// one), so the fitted model's family contains it. The search (ismcts.h, SearchConfig::prior)
// orders and biases children by it in place of actionPrior.
#include <array>
#include <string>

#include "core/action.h"
#include "core/position.h"

namespace rainet::ai {

enum PolicyFeature : int {
    kEscape,                // Enter with an own link (a link escapes)
    kEnterVirus,            // Enter with an own virus
    kLinkMove,              // a move of an own link (a move of a virus is the baseline)
    kLinkProgress,          // link moves: distance to the opponent's nearer exit before - after
    kVirusProgress,         // virus moves: the same for a virus
    kLinkToExit,            // a link lands on an opponent's exit (it can escape next)
    kLinkThreatenedAfter,   // a link lands next to an opponent card
    kVirusThreatenedAfter,  // a virus lands next to an opponent card (bait)
    kLinkFlees,             // a link leaves a square next to an opponent card
    kMoverFaceUp,           // the moved card is known to the opponent
    kBoostedMove,           // the moved card carries the LB (two steps)
    kCaptureUnknown,        // a capture of a face-down card
    kCaptureUnknownNear,    // ... within one step of our exits (it threatens to escape)
    kCaptureUnknown3V,      // ... with three viruses in our stack (a fourth loses)
    kCaptureKnownLink,      // a capture of a face-up link
    kCaptureKnownVirus,     // a capture of a face-up virus
    kWinNow,                // three links stacked and this escape or known-link capture is the 4th
    kCheckNear,             // VC on a card within two steps of our exits
    kCheckFar,              // VC elsewhere
    kBoostLink,             // LB attached to an own link
    kBoostVirus,            // LB attached to an own virus
    kBoostDetach,           // LB taken back
    kFirewallPlace,         // FW placed
    kFirewallRemove,        // FW taken back
    kNotFound,              // NF played
    kPolicyFeatureCount
};
using PolicyFeatures = std::array<double, kPolicyFeatureCount>;
const char* policyFeatureName(int feature);

// The features of action `a` of the side to move in `p` (`a` legal in `p`).
PolicyFeatures policyFeatures(const Position& p, Action a);

struct PolicyModel {
    PolicyFeatures weights{};
};
// The committed model (policy_weights.inc).
const PolicyModel& learnedPolicyModel();

// The model's score (the softmax's logit) of features x, and of action `a` in `p`.
double policyScore(const PolicyModel& model, const PolicyFeatures& x);
double learnedActionPrior(const Position& p, Action a,
                          const PolicyModel& model = learnedPolicyModel());

// Whether the committed model was fitted on games under these rules. It learned from the standard
// preset's self-play, so it never saw a capture on one's own exit, a boosted exit-to-server step
// or a firewall under an own card; under rules that allow them (official) the search orders by the
// heuristic prior instead: there the learned prior kept capturing bait's viruses on strong's own
// exit (docs/ai.md, "Learned policy prior").
bool learnedPriorFits(const Rules& rules);

// The model as the C++ initializer of policy_weights.inc, with a comment naming its origin.
std::string formatPolicyModel(const PolicyModel& m, const std::string& origin);

}  // namespace rainet::ai
