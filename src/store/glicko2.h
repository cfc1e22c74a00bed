#pragma once
// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its deviation
// (RD: how uncertain the rating is) and its volatility. `update` rates one player after one rating
// period; the server makes every rated game its own period, for both players, from their ratings
// before the game. Pure arithmetic: the store calls it inside the transaction that ends a game.
#include <span>

namespace rainet::store::glicko2 {

struct Rating {
    double rating = 1500;      // Glicko scale
    double rd = 350;           // rating deviation
    double volatility = 0.06;  // sigma
};

struct Game {
    Rating opponent;
    double score = 0;  // 1 win, 0.5 draw, 0 loss
};

// The system constant tau: how much the volatility may change (Glickman suggests 0.3 to 1.2).
constexpr double kTau = 0.5;

// The player's rating after the period's games (RD only grows when there were none).
Rating update(const Rating& player, std::span<const Game> games, double tau = kTau);

}  // namespace rainet::store::glicko2
