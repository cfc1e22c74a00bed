#include "ai/value_training.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ai/arena.h"
#include "ai/bot.h"
#include "ai/eval.h"
#include "ai/logistic.h"

namespace rainet::ai {

Result<std::vector<Record>> playSelfPlay(const SelfPlayOptions& options,
                                         const std::function<void(int)>& progress) {
    auto spec = parsePlayerSpec(options.player);
    if (!spec.ok()) return spec.error();
    spec->budget.nodes = options.nodes;
    Rng setupRng(options.seed ^ 0x5E7u);
    std::vector<Record> games;
    for (int g = 0; g < options.games; ++g) {
        const std::uint64_t seed = options.seed * 1000003u + static_cast<std::uint64_t>(g);
        auto one = makePlayer(*spec, seed * 2 + 1);
        auto two = makePlayer(*spec, seed * 2 + 2);
        if (!one.ok()) return one.error();
        if (!two.ok()) return two.error();
        GameOptions go;
        go.maxPlies = options.maxPlies;
        go.setup[0] = randomSetup(setupRng);
        go.setup[1] = randomSetup(setupRng);
        const GameRecord r = playGame(**one, **two, go);
        if (!r.error.empty())
            return Error{"self-play game " + std::to_string(g + 1) + ": " + r.error};
        games.push_back(toRecord(r, spec->label, spec->label, std::to_string(g + 1)));
        if (progress) progress(g + 1);
    }
    return games;
}

void addValueSamples(const Record& game, ValueDataset& data) {
    auto start = game.initialPosition();
    if (!start.ok()) return;
    Position pos = *start;
    std::vector<Position> seen;
    for (Action a : game.actions) {
        if (pos.isOver() || !pos.isLegal(a)) break;
        pos.doAction(a);
        if (!pos.isOver()) seen.push_back(pos);
    }
    const Outcome result = pos.outcome();
    if (result != Outcome::Side1Wins && result != Outcome::Side2Wins) return;
    const Side winner = result == Outcome::Side1Wins ? Side::One : Side::Two;
    for (const Position& p : seen) {
        data.features.push_back(valueFeatures(p, p.toMove()));
        data.won.push_back(p.toMove() == winner);
        data.heuristic.push_back(evaluateReward(p, p.toMove()));
    }
}

ValueModel fitValueModel(const ValueDataset& data, double l2) {
    ValueFeatures precision;
    precision.fill(l2);
    ValueModel m;
    m.weights = fitLogistic(data.features, data.won, ValueFeatures{}, precision);
    return m;
}

namespace {
double logit(double p) {
    p = std::clamp(p, 1e-9, 1.0 - 1e-9);
    return std::log(p / (1.0 - p));
}
}  // namespace

double fitHeuristicScale(const ValueDataset& data) {
    std::vector<std::array<double, 1>> x;
    x.reserve(data.heuristic.size());
    for (double h : data.heuristic) x.push_back({logit(h)});
    return fitLogistic(x, data.won, std::array<double, 1>{1.0}, std::array<double, 1>{0.0})[0];
}

std::vector<double> predictHeuristic(double scale, const ValueDataset& data) {
    std::vector<double> out;
    out.reserve(data.heuristic.size());
    for (double h : data.heuristic) out.push_back(1.0 / (1.0 + std::exp(-scale * logit(h))));
    return out;
}

PredictionScore scorePredictions(const std::vector<double>& p, const std::vector<bool>& won) {
    PredictionScore s;
    for (std::size_t i = 0; i < p.size() && i < won.size(); ++i) {
        const double q = std::clamp(won[i] ? p[i] : 1.0 - p[i], 1e-6, 1.0);
        s.logLoss -= std::log(q);
        s.brier += (1.0 - q) * (1.0 - q);
        ++s.positions;
    }
    if (s.positions) {
        s.logLoss /= s.positions;
        s.brier /= s.positions;
    }
    return s;
}

std::vector<double> predict(const ValueModel& m, const ValueDataset& data) {
    std::vector<double> out;
    out.reserve(data.features.size());
    for (const auto& x : data.features) out.push_back(valueProbability(m, x));
    return out;
}

}  // namespace rainet::ai
