#include "ai/logistic.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rainet::ai {

CardFeatures fitLogistic(const std::vector<CardFeatures>& x, const std::vector<bool>& link,
                         const CardFeatures& priorMean, const CardFeatures& priorPrecision,
                         int maxIterations) {
    constexpr int n = kFeatureCount;
    CardFeatures w = priorMean;
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        double g[n], h[n][n] = {};
        for (int j = 0; j < n; ++j) {
            g[j] = -priorPrecision[j] * (w[j] - priorMean[j]);
            h[j][j] = priorPrecision[j] + 1e-9;
        }
        for (std::size_t s = 0; s < x.size(); ++s) {
            double z = 0.0;
            for (int j = 0; j < n; ++j) z += w[j] * x[s][j];
            const double p = 1.0 / (1.0 + std::exp(-z));
            const double r = (link[s] ? 1.0 : 0.0) - p, q = p * (1 - p);
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
        double step[n], change = 0.0;
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
