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

PolicyFeatures policyFeatures(const Position& p, Action a) {
    PolicyFeatures f{};
    const Side us = p.toMove(), them = opponent(us);
    const Bitboard theirExits = exitsOf(them), ourExits = exitsOf(us);
    const Square from = a.from();
    // Own identities only (the opponent's enter through the face-up bit below).
    const bool ownLink = p.links(us) & p.cards(us) & bit(from);
    const bool linksThree = p.stack(us).links() == 3;
    switch (a.type()) {
        case ActionType::Enter:
            f[ownLink ? kEscape : kEnterVirus] = 1.0;
            if (ownLink && linksThree) f[kWinNow] = 1.0;
            break;
        case ActionType::Move: {
            const Square to = a.to();
            if (p.cards(them) & bit(to)) {
                if (p.faceUp() & bit(to)) {
                    const bool link = p.isLinkAt(to);
                    f[link ? kCaptureKnownLink : kCaptureKnownVirus] = 1.0;
                    if (link && linksThree) f[kWinNow] = 1.0;
                } else {
                    f[kCaptureUnknown] = 1.0;
                    if (exitDistance(to, ourExits) <= 1) f[kCaptureUnknownNear] = 1.0;
                    if (p.stack(us).viruses() == 3) f[kCaptureUnknown3V] = 1.0;
                }
            }
            const bool threatenedAfter = neighbours(p.cards(them) & ~bit(to)) & bit(to);
            const double progress = exitDistance(from, theirExits) - exitDistance(to, theirExits);
            if (ownLink) {
                f[kLinkMove] = 1.0;
                f[kLinkProgress] = progress;
                if (theirExits & bit(to)) f[kLinkToExit] = 1.0;
                if (threatenedAfter) f[kLinkThreatenedAfter] = 1.0;
                if (neighbours(p.cards(them)) & bit(from)) f[kLinkFlees] = 1.0;
            } else {
                f[kVirusProgress] = progress;
                if (threatenedAfter) f[kVirusThreatenedAfter] = 1.0;
            }
            if (p.faceUp() & bit(from)) f[kMoverFaceUp] = 1.0;
            if (p.boost() & bit(from)) f[kBoostedMove] = 1.0;
            break;
        }
        case ActionType::Check:
            f[exitDistance(from, ourExits) <= 2 ? kCheckNear : kCheckFar] = 1.0;
            break;
        case ActionType::BoostAttach:
            f[ownLink ? kBoostLink : kBoostVirus] = 1.0;
            break;
        case ActionType::BoostDetach:
            f[kBoostDetach] = 1.0;
            break;
        case ActionType::FirewallPlace:
            f[kFirewallPlace] = 1.0;
            break;
        case ActionType::FirewallRemove:
            f[kFirewallRemove] = 1.0;
            break;
        case ActionType::NotFound:
            f[kNotFound] = 1.0;
            break;
    }
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
    return policyScore(model, policyFeatures(p, a));
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
