#include "store/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rainet::store::glicko2 {

namespace {

constexpr double kScale = 173.7178;  // Glicko-2 scale factor (400 / ln 10)
constexpr double kEpsilon = 0.000001;

double g(double phi) {
    return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double muJ, double phiJ) {
    return 1.0 / (1.0 + std::exp(-g(phiJ) * (mu - muJ)));
}

// Step 5 of the paper: the new volatility, by the Illinois variant of regula falsi.
double newVolatility(double sigma, double phi, double v, double delta, double tau) {
    const double a = std::log(sigma * sigma);
    auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double A = a;
    double B;
    if (delta * delta > phi * phi + v) {
        B = std::log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0) ++k;
        B = a - k * tau;
    }
    double fA = f(A), fB = f(B);
    while (std::fabs(B - A) > kEpsilon) {
        const double C = A + (A - B) * fA / (fB - fA);
        const double fC = f(C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
    return std::exp(A / 2);
}

}  // namespace

std::int64_t periodsBetween(std::int64_t since, std::int64_t now) {
    if (since <= 0 || now <= since) return 0;
    return (now - since) / kRatingPeriodMs;
}

Rating idle(const Rating& player, std::int64_t periods) {
    if (periods <= 0) return player;
    const double phi = player.rd / kScale;
    const double sigma = player.volatility;
    const double grown = std::sqrt(phi * phi + static_cast<double>(periods) * sigma * sigma);
    return {player.rating, std::min(grown * kScale, std::max(kMaxRd, player.rd)),
            player.volatility};
}

Rating update(const Rating& player, std::span<const Game> games, double tau) {
    const double mu = (player.rating - 1500) / kScale;
    const double phi = player.rd / kScale;
    if (games.empty()) {
        const double phiStar = std::sqrt(phi * phi + player.volatility * player.volatility);
        return {player.rating, phiStar * kScale, player.volatility};
    }
    double vInv = 0, sum = 0;
    for (const Game& game : games) {
        const double muJ = (game.opponent.rating - 1500) / kScale;
        const double phiJ = game.opponent.rd / kScale;
        const double e = expected(mu, muJ, phiJ);
        vInv += g(phiJ) * g(phiJ) * e * (1 - e);
        sum += g(phiJ) * (game.score - e);
    }
    const double v = 1.0 / vInv;
    const double delta = v * sum;
    const double sigma = newVolatility(player.volatility, phi, v, delta, tau);
    const double phiStar = std::sqrt(phi * phi + sigma * sigma);
    const double phiNew = 1.0 / std::sqrt(1.0 / (phiStar * phiStar) + 1.0 / v);
    const double muNew = mu + phiNew * phiNew * sum;
    return {muNew * kScale + 1500, phiNew * kScale, sigma};
}

}  // namespace rainet::store::glicko2
