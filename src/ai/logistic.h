#pragma once
// Logistic regression by Newton's method: the MAP weights under a normal prior per weight (mean,
// precision). Used to fit the belief model offline (prior mean 0) and to refit it during a game
// on the cards identified so far (prior: the offline model), and to fit the learned value
// (value.h). Deterministic: no random stream.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace rainet::ai {

template <std::size_t N>
std::array<double, N> fitLogistic(const std::vector<std::array<double, N>>& x,
                                  const std::vector<bool>& positive,
                                  const std::array<double, N>& priorMean,
                                  const std::array<double, N>& priorPrecision,
                                  int maxIterations = 30) {
    constexpr int n = static_cast<int>(N);
    std::array<double, N> w = priorMean;
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        double g[N], h[N][N] = {};
        for (int j = 0; j < n; ++j) {
            g[j] = -priorPrecision[j] * (w[j] - priorMean[j]);
            h[j][j] = priorPrecision[j] + 1e-9;
        }
        for (std::size_t s = 0; s < x.size(); ++s) {
            double z = 0.0;
            for (int j = 0; j < n; ++j) z += w[j] * x[s][j];
            const double p = 1.0 / (1.0 + std::exp(-z));
            const double r = (positive[s] ? 1.0 : 0.0) - p, q = p * (1 - p);
            for (int j = 0; j < n; ++j) {
                if (x[s][j] == 0.0) continue;
                g[j] += r * x[s][j];
                for (int l = 0; l < n; ++l) h[j][l] += q * x[s][j] * x[s][l];
            }
        }
        // Solve h * step = g (Gaussian elimination with partial pivoting).
        for (int c = 0; c < n; ++c) {
            int pivot = c;
            for (int r = c + 1; r < n; ++r)
                if (std::abs(h[r][c]) > std::abs(h[pivot][c])) pivot = r;
            std::swap(h[c], h[pivot]);
            std::swap(g[c], g[pivot]);
            if (std::abs(h[c][c]) < 1e-12) h[c][c] = 1e-12;
            for (int r = c + 1; r < n; ++r) {
                const double factor = h[r][c] / h[c][c];
                for (int l = c; l < n; ++l) h[r][l] -= factor * h[c][l];
                g[r] -= factor * g[c];
            }
        }
        double step[N], change = 0.0;
        for (int c = n - 1; c >= 0; --c) {
            double v = g[c];
            for (int l = c + 1; l < n; ++l) v -= h[c][l] * step[l];
            step[c] = v / h[c][c];
            change = std::max(change, std::abs(step[c]));
        }
        for (int j = 0; j < n; ++j) w[j] += step[j];
        if (change < 1e-9) break;
    }
    return w;
}

}  // namespace rainet::ai
