#include "ai/policy_training.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ai/eval.h"
#include "ai/ismcts.h"

namespace rainet::ai {

void addPolicySamples(const Record& game, PolicyDataset& data) {
    auto start = game.initialPosition();
    if (!start.ok()) return;
    Position pos = *start;
    for (Action chosen : game.actions) {
        if (pos.isOver() || !pos.isLegal(chosen)) break;
        const ActionList actions = searchActions(pos);
        int index = -1;
        for (int i = 0; i < actions.size(); ++i)
            if (actions[i] == chosen) index = i;
        if (actions.size() >= 2 && index >= 0) {
            for (Action a : actions) {
                const PolicyFeatures f = policyFeatures(pos, a);
                std::array<float, kPolicyFeatureCount> row;
                for (int j = 0; j < kPolicyFeatureCount; ++j) row[j] = static_cast<float>(f[j]);
                data.features.push_back(row);
                data.heuristic.push_back(static_cast<float>(actionPrior(pos, a)));
            }
            data.begin.push_back(static_cast<std::uint32_t>(data.features.size()));
            data.chosen.push_back(static_cast<std::uint32_t>(index));
        }
        pos.doAction(chosen);
    }
}

namespace {

// The rows as n-vectors through `row(k, j)`: the conditional logit's penalized negative
// log-likelihood minimized by Newton's method, halving a step that does not lower it.
template <int N, typename Row>
std::array<double, N> fitConditionalLogit(const PolicyDataset& data, Row row, double l2) {
    std::array<double, N> w{};
    auto objective = [&](const std::array<double, N>& v, double* g, double(*h)[N]) {
        double loss = 0.0;
        for (int j = 0; j < N; ++j) {
            loss += 0.5 * l2 * v[j] * v[j];
            if (g) g[j] = l2 * v[j];
            if (h)
                for (int l = 0; l < N; ++l) h[j][l] = j == l ? l2 + 1e-9 : 0.0;
        }
        std::vector<double> z;
        for (std::size_t i = 0; i < data.decisions(); ++i) {
            const std::uint32_t b = data.begin[i], e = data.begin[i + 1];
            z.assign(e - b, 0.0);
            double top = -1e300;
            for (std::uint32_t k = b; k < e; ++k) {
                for (int j = 0; j < N; ++j) z[k - b] += v[j] * row(k, j);
                top = std::max(top, z[k - b]);
            }
            double sum = 0.0;
            for (double& x : z) sum += (x = std::exp(x - top));
            loss -= std::log(z[data.chosen[i]] / sum);
            if (!g) continue;
            double mean[N] = {};
            for (std::uint32_t k = b; k < e; ++k) {
                const double pk = z[k - b] / sum;
                for (int j = 0; j < N; ++j) {
                    mean[j] += pk * row(k, j);
                    for (int l = 0; l <= j; ++l) h[j][l] += pk * row(k, j) * row(k, l);
                }
            }
            for (int j = 0; j < N; ++j) {
                g[j] += mean[j] - row(b + data.chosen[i], j);
                for (int l = 0; l <= j; ++l) h[j][l] -= mean[j] * mean[l];
            }
        }
        if (h)
            for (int j = 0; j < N; ++j)
                for (int l = j + 1; l < N; ++l) h[j][l] = h[l][j];
        return loss;
    };
    double g[N], h[N][N];
    double loss = objective(w, g, h);
    for (int iteration = 0; iteration < 50; ++iteration) {
        // Solve h * step = g (Gaussian elimination with partial pivoting; h is positive definite).
        for (int c = 0; c < N; ++c) {
            int pivot = c;
            for (int r = c + 1; r < N; ++r)
                if (std::abs(h[r][c]) > std::abs(h[pivot][c])) pivot = r;
            std::swap(h[c], h[pivot]);
            std::swap(g[c], g[pivot]);
            if (std::abs(h[c][c]) < 1e-12) h[c][c] = 1e-12;
            for (int r = c + 1; r < N; ++r) {
                const double factor = h[r][c] / h[c][c];
                for (int l = c; l < N; ++l) h[r][l] -= factor * h[c][l];
                g[r] -= factor * g[c];
            }
        }
        double step[N], change = 0.0;
        for (int c = N - 1; c >= 0; --c) {
            double v = g[c];
            for (int l = c + 1; l < N; ++l) v -= h[c][l] * step[l];
            step[c] = v / h[c][c];
            change = std::max(change, std::abs(step[c]));
        }
        if (change < 1e-9) break;
        std::array<double, N> next = w;
        double nextLoss = loss;
        for (double scale = 1.0; scale > 1e-6; scale *= 0.5) {
            for (int j = 0; j < N; ++j) next[j] = w[j] - scale * step[j];
            nextLoss = objective(next, nullptr, nullptr);
            if (nextLoss <= loss) break;
        }
        if (nextLoss > loss) break;
        w = next;
        loss = objective(w, g, h);
    }
    return w;
}

PolicyScore scoreRows(const PolicyDataset& data, const std::function<double(std::uint32_t)>& z) {
    PolicyScore s;
    for (std::size_t i = 0; i < data.decisions(); ++i) {
        const std::uint32_t b = data.begin[i], e = data.begin[i + 1];
        double top = -1e300;
        std::uint32_t best = b;
        for (std::uint32_t k = b; k < e; ++k)
            if (z(k) > top) {
                top = z(k);
                best = k;
            }
        double sum = 0.0;
        for (std::uint32_t k = b; k < e; ++k) sum += std::exp(z(k) - top);
        s.logLoss -= z(b + data.chosen[i]) - top - std::log(sum);
        s.top1 += best == b + data.chosen[i] ? 1.0 : 0.0;
        ++s.decisions;
    }
    if (s.decisions) {
        s.logLoss /= s.decisions;
        s.top1 /= s.decisions;
    }
    return s;
}

}  // namespace

PolicyModel fitPolicyModel(const PolicyDataset& data, double l2) {
    PolicyModel m;
    m.weights = fitConditionalLogit<kPolicyFeatureCount>(
        data, [&](std::uint32_t k, int j) { return double(data.features[k][j]); }, l2);
    return m;
}

double fitHeuristicTemperature(const PolicyDataset& data) {
    return fitConditionalLogit<1>(
        data, [&](std::uint32_t k, int) { return double(data.heuristic[k]); }, 0.0)[0];
}

PolicyScore scorePolicy(const PolicyModel& m, const PolicyDataset& data) {
    return scoreRows(data, [&](std::uint32_t k) {
        double z = 0.0;
        for (int j = 0; j < kPolicyFeatureCount; ++j) z += m.weights[j] * data.features[k][j];
        return z;
    });
}

PolicyScore scoreHeuristicPolicy(double temperature, const PolicyDataset& data) {
    return scoreRows(data, [&](std::uint32_t k) { return temperature * data.heuristic[k]; });
}

PolicyScore scoreUniformPolicy(const PolicyDataset& data) {
    return scoreRows(data, [](std::uint32_t) { return 0.0; });
}

}  // namespace rainet::ai
