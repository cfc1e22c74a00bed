#include "ai/analysis.h"

#include <string>

#include "ai/belief.h"
#include "ai/ismcts.h"

namespace rainet::ai {

namespace {

std::uint64_t fnv1a(std::uint64_t h, const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
    return h;
}

double outcomeFor(Outcome o, Side side) {
    if (o == Outcome::Draw) return 0.5;
    return (o == Outcome::Side1Wins) == (side == Side::One) ? 1.0 : 0.0;
}

// The search of `strong` playing its most visited action (no hiding: that is for play only).
SearchConfig analysisSearch() {
    SearchConfig c = strongConfig();
    c.concealment = 0.0;
    return c;
}

}  // namespace

std::uint64_t infoSetSeed(const InfoSet& knowledge) {
    std::uint64_t h = fnv1a(0xCBF29CE484222325ULL, knowledge.view().toString());
    for (const Observation& o : knowledge.history()) {
        h = fnv1a(h, toString(o.action));
        h = fnv1a(h, o.revealedLink ? (*o.revealedLink ? "l" : "v") : "-");
    }
    return h;
}

PlyAnalysis analysePly(const InfoSet& knowledge, Side side, Outcome outcome,
                       const AnalysisConfig& config) {
    PlyAnalysis out;
    const View& view = knowledge.view();
    out.ply = view.ply();
    out.toMove = view.toMove();
    const SearchConfig search = analysisSearch();
    out.virus = Belief(knowledge, search.evidence).virusProbabilities(opponent(side));
    if (outcome != Outcome::Ongoing) {
        out.over = true;
        out.win = outcomeFor(outcome, side);
        return out;
    }
    Ismcts ismcts(search);
    Rng rng(infoSetSeed(knowledge));
    Budget budget;
    budget.nodes = config.nodes;
    const SearchResult r = ismcts.search(knowledge, budget, rng, {});
    out.win = out.toMove == side ? r.value : 1.0 - r.value;
    if (out.toMove != side) return out;
    double total = 0;
    for (const RootChild& c : r.root) total += c.visits;
    for (const RootChild& c : r.root) {
        if (out.best.size() >= config.topActions || c.visits == 0) break;
        out.best.push_back({c.action, c.visits / total, c.reward / c.visits});
    }
    return out;
}

std::optional<std::vector<PlyAnalysis>> analyseGame(const Position& start,
                                                    const std::vector<Action>& actions, Side side,
                                                    const AnalysisConfig& config,
                                                    const std::function<bool(int)>& progress) {
    const Viewer viewer = viewerOf(side);
    InfoSet knowledge(View::of(start, viewer));
    Position truth = start;
    std::vector<PlyAnalysis> plies;
    plies.reserve(actions.size() + 1);
    for (std::size_t i = 0;; ++i) {
        if (progress && !progress(static_cast<int>(i))) return std::nullopt;
        plies.push_back(analysePly(knowledge, side, truth.outcome(), config));
        if (i == actions.size() || truth.isOver()) break;
        if (knowledge.observe(observe(truth, actions[i], viewer))) break;  // not legal: stop
        truth.doAction(actions[i]);
    }
    return plies;
}

}  // namespace rainet::ai
