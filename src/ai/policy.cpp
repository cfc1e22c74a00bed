#include "ai/policy.h"

#include <vector>

#include "ai/eval.h"
#include "ai/weights_text.h"

namespace rainet::ai {

namespace {

constexpr const char* kNames[kPolicyFeatureCount] = {
    "escape",          "enter-virus",     "link-move",        "link-progress",  "virus-progress",
    "link-to-exit",    "link-threatened", "virus-threatened", "link-flees",     "mover-faceup",
    "boosted-move",    "cap-unknown",     "cap-unknown-near", "cap-unknown-3v", "cap-known-link",
    "cap-known-virus", "win-now",         "check-near",       "check-far",      "boost-link",
    "boost-virus",     "boost-detach",    "fw-place",         "fw-remove",      "not-found"};

}  // namespace

const char* policyFeatureName(int feature) {
    return feature >= 0 && feature < kPolicyFeatureCount ? kNames[feature] : "?";
}

namespace {

// Calls set(feature, value) for each feature that applies to `a` (the others are 0), each at most
// once: one walk for the dense vector the trainer fits on and for the search's score, which then
// costs a few multiply-adds instead of zeroing and summing all 25 (the search scores every child
// it expands).
template <class Set>
void forEachPolicyFeature(const Position& p, Action a, Set&& set) {
    const Side us = p.toMove(), them = opponent(us);
    const Bitboard theirExits = exitsOf(them), ourExits = exitsOf(us);
    const Square from = a.from();
    // Own identities only (the opponent's enter through the face-up bit below).
    const bool ownLink = p.links(us) & p.cards(us) & bit(from);
    const bool linksThree = p.stack(us).links() == 3;
    switch (a.type()) {
        case ActionType::Enter:
            set(ownLink ? kEscape : kEnterVirus, 1.0);
            if (ownLink && linksThree) set(kWinNow, 1.0);
            break;
        case ActionType::Move: {
            const Square to = a.to();
            if (p.cards(them) & bit(to)) {
                if (p.faceUp() & bit(to)) {
                    const bool link = p.isLinkAt(to);
                    set(link ? kCaptureKnownLink : kCaptureKnownVirus, 1.0);
                    if (link && linksThree) set(kWinNow, 1.0);
                } else {
                    set(kCaptureUnknown, 1.0);
                    if (exitDistance(to, ourExits) <= 1) set(kCaptureUnknownNear, 1.0);
                    if (p.stack(us).viruses() == 3) set(kCaptureUnknown3V, 1.0);
                }
            }
            const bool threatenedAfter = neighbours(p.cards(them) & ~bit(to)) & bit(to);
            const double progress = exitDistance(from, theirExits) - exitDistance(to, theirExits);
            if (ownLink) {
                set(kLinkMove, 1.0);
                set(kLinkProgress, progress);
                if (theirExits & bit(to)) set(kLinkToExit, 1.0);
                if (threatenedAfter) set(kLinkThreatenedAfter, 1.0);
                if (neighbours(p.cards(them)) & bit(from)) set(kLinkFlees, 1.0);
            } else {
                set(kVirusProgress, progress);
                if (threatenedAfter) set(kVirusThreatenedAfter, 1.0);
            }
            if (p.faceUp() & bit(from)) set(kMoverFaceUp, 1.0);
            if (p.boost() & bit(from)) set(kBoostedMove, 1.0);
            break;
        }
        case ActionType::Check:
            set(exitDistance(from, ourExits) <= 2 ? kCheckNear : kCheckFar, 1.0);
            break;
        case ActionType::BoostAttach:
            set(ownLink ? kBoostLink : kBoostVirus, 1.0);
            break;
        case ActionType::BoostDetach:
            set(kBoostDetach, 1.0);
            break;
        case ActionType::FirewallPlace:
            set(kFirewallPlace, 1.0);
            break;
        case ActionType::FirewallRemove:
            set(kFirewallRemove, 1.0);
            break;
        case ActionType::NotFound:
            set(kNotFound, 1.0);
            break;
    }
}

}  // namespace

PolicyFeatures policyFeatures(const Position& p, Action a) {
    PolicyFeatures f{};
    forEachPolicyFeature(p, a, [&](int k, double v) { f[k] = v; });
    return f;
}

const PolicyModel& learnedPolicyModel() {
    static const PolicyModel model{
#include "ai/policy_weights.inc"
    };
    return model;
}

double policyScore(const PolicyModel& model, const PolicyFeatures& x) {
    double z = 0.0;
    for (int j = 0; j < kPolicyFeatureCount; ++j) z += model.weights[j] * x[j];
    return z;
}

double learnedActionPrior(const Position& p, Action a, const PolicyModel& model) {
    double z = 0.0;
    forEachPolicyFeature(p, a, [&](int k, double v) { z += model.weights[k] * v; });
    return z;
}

bool learnedPriorFits(const Rules& rules) {
    return !rules.ownExitEntry && !rules.boostedExitToServer && !rules.firewallUnderOwnCard;
}

std::string formatPolicyModel(const PolicyModel& m, const std::string& origin) {
    std::vector<std::string> names;
    for (int j = 0; j < kPolicyFeatureCount; ++j) names.emplace_back(policyFeatureName(j));
    return formatWeights("The learned policy prior (policy.h)", origin, names, 6,
                         std::vector<double>(m.weights.begin(), m.weights.end())) +
           "\n";
}

}  // namespace rainet::ai
