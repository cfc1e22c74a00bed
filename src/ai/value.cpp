#include "ai/value.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "ai/eval.h"
#include "ai/weights_text.h"

namespace rainet::ai {

namespace {

constexpr const char* kNames[kValueFeatureCount] = {
    "tempo",     "stack-links",   "stack-links3", "stack-viruses", "stack-viruses3", "links-exit",
    "links-1",   "links-2",       "links-3-4",    "escape-now",    "win-near",       "threatened",
    "en-prise",  "virus-contact", "faceup-links", "faceup-virus",  "boost-link",     "boost-virus",
    "vc-unused", "nf-unused",     "fw-placed"};

// The per-side quantities of `s` (valueFeatures subtracts the opponent's).
ValueFeatures sideQuantities(const Position& p, Side s) {
    ValueFeatures f{};
    const Side o = opponent(s);
    const bool toMove = p.toMove() == s;
    const Stack& st = p.stack(s);
    f[kTempo] = toMove ? 1.0 : 0.0;
    f[kStackLinks] = st.links();
    f[kStackLinks3] = st.links() == 3 ? 1.0 : 0.0;
    f[kStackViruses] = st.viruses();
    f[kStackViruses3] = st.viruses() == 3 ? 1.0 : 0.0;
    const Bitboard targets = exitsOf(o);
    const Bitboard contact = neighbours(p.cards(o));
    int nearest = 99;
    for (Bitboard b = p.links(s) & p.cards(s); b;) {
        const int d = exitDistance(popLsb(b), targets);
        nearest = d < nearest ? d : nearest;
        if (d == 0)
            f[kLinksOnExit] += 1;
        else if (d == 1)
            f[kLinksAt1] += 1;
        else if (d == 2)
            f[kLinksAt2] += 1;
        else if (d <= 4)
            f[kLinksAt3To4] += 1;
    }
    if (toMove) f[kEscapeNow] = f[kLinksOnExit];
    f[kWinNear] = st.links() == 3 && nearest <= 1 ? 1.0 : 0.0;
    const Bitboard links = p.links(s) & p.cards(s), viruses = p.viruses(s);
    f[kLinksThreatened] = popcount(links & contact);
    if (!toMove) f[kLinksEnPrise] = f[kLinksThreatened];
    f[kVirusesInContact] = popcount(viruses & contact);
    f[kFaceUpLinks] = popcount(links & p.faceUp());
    f[kFaceUpViruses] = popcount(viruses & p.faceUp());
    f[kBoostedLink] = popcount(links & p.boost());
    f[kBoostedVirus] = popcount(viruses & p.boost());
    f[kCheckUnused] = p.hasUnused(checkBit(s)) ? 1.0 : 0.0;
    f[kNotFoundUnused] = p.hasUnused(notFoundBit(s)) ? 1.0 : 0.0;
    f[kFirewallPlaced] = p.firewall(s) ? 1.0 : 0.0;
    return f;
}

}  // namespace

const char* valueFeatureName(int feature) {
    return feature >= 0 && feature < kValueFeatureCount ? kNames[feature] : "?";
}

ValueFeatures valueFeatures(const Position& p, Side us) {
    ValueFeatures mine = sideQuantities(p, us);
    const ValueFeatures theirs = sideQuantities(p, opponent(us));
    for (int j = 0; j < kValueFeatureCount; ++j) mine[j] -= theirs[j];
    return mine;
}

const ValueModel& learnedValueModel() {
    static const ValueModel model{
#include "ai/value_weights.inc"
    };
    return model;
}

double learnedReward(const Position& p, Side us, const ValueModel& model) {
    switch (p.outcome()) {
        case Outcome::Side1Wins:
            return us == Side::One ? 1.0 : 0.0;
        case Outcome::Side2Wins:
            return us == Side::Two ? 1.0 : 0.0;
        case Outcome::Draw:
            return 0.5;
        case Outcome::Ongoing:
            break;
    }
    return valueProbability(model, valueFeatures(p, us));
}

double valueProbability(const ValueModel& model, const ValueFeatures& x) {
    double z = 0.0;
    for (int j = 0; j < kValueFeatureCount; ++j) z += model.weights[j] * x[j];
    return 1.0 / (1.0 + std::exp(-z));
}

std::string formatValueModel(const ValueModel& m, const std::string& origin) {
    std::vector<std::string> names;
    for (int j = 0; j < kValueFeatureCount; ++j) names.emplace_back(valueFeatureName(j));
    return formatWeights("The learned value model (value.h)", origin, names, 6,
                         std::vector<double>(m.weights.begin(), m.weights.end())) +
           "\n";
}

}  // namespace rainet::ai
