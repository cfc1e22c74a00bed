#pragma once
// The learned value: P(win) of a full (sampled) position for one side, a logistic model over
// hand-chosen features fitted on self-play outcomes (value_training.h, `rainet value train`).
// Every feature is "ours minus theirs" of one per-side quantity, and the model has no bias, so
// value(p, us) + value(p, them) == 1 exactly and a position and its colour mirror get the same
// value. Which side is to move enters as the `tempo` feature (+1 for us, -1 for them) and in the
// features that only matter for the side that acts next (an escape available, a link en prise).
// The search (ismcts.h, SearchConfig::eval) uses it in place of the heuristic eval.h.
#include <array>
#include <string>

#include "core/error.h"
#include "core/position.h"

namespace rainet::ai {

enum ValueFeature : int {
    kTempo,             // 1 for the side to move
    kStackLinks,        // links in the side's stack (captured or escaped; 4 wins)
    kStackLinks3,       // 1 when that is 3 (one more wins)
    kStackViruses,      // viruses in the side's stack (4 loses)
    kStackViruses3,     // 1 when that is 3 (one more loses)
    kLinksOnExit,       // own links on the board standing on the opponent's exits
    kLinksAt1,          // ... one step from the nearer exit
    kLinksAt2,          // ... two steps
    kLinksAt3To4,       // ... three or four steps
    kEscapeNow,         // own links on an exit while the side is to move (an escape now)
    kWinNear,           // 1 when 3 links are stacked and a link is within one step of an exit
    kLinksThreatened,   // own links next to an opponent card
    kLinksEnPrise,      // ... while the opponent is to move (it may take one now)
    kVirusesInContact,  // own viruses next to an opponent card (bait)
    kFaceUpLinks,       // own links on the board the opponent knows (after VC)
    kFaceUpViruses,     // own viruses on the board the opponent knows
    kBoostedLink,       // the side's LB is on one of its links
    kBoostedVirus,      // ... on one of its viruses
    kCheckUnused,       // VC still in hand
    kNotFoundUnused,    // NF still in hand
    kFirewallPlaced,    // the side's FW is on the board
    kValueFeatureCount
};
using ValueFeatures = std::array<double, kValueFeatureCount>;
const char* valueFeatureName(int feature);

// The features of `p` for `us`: each is the per-side quantity of `us` minus that of the opponent.
ValueFeatures valueFeatures(const Position& p, Side us);

struct ValueModel {
    ValueFeatures weights{};
};
// The committed model (value_weights.inc).
const ValueModel& learnedValueModel();

// The model's P(win) for features x.
double valueProbability(const ValueModel& model, const ValueFeatures& x);
// P(us wins) by the model, in [0, 1]; a finished game gives 1, 0 or 0.5 (a draw).
double learnedReward(const Position& p, Side us, const ValueModel& model = learnedValueModel());

// The model as the C++ initializer of value_weights.inc, with a comment naming its origin.
std::string formatValueModel(const ValueModel& m, const std::string& origin);

}  // namespace rainet::ai
