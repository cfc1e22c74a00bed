#pragma once
// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its deviation
// (RD: how uncertain the rating is) and its volatility. `update` rates one player after one rating
// period; the server makes every rated game its own period, for both players, from their ratings
// before the game. Between games time is counted in rating periods of kRatingPeriodMs: each full
// period a player spends without a rated game is a period without games, in which the paper's
// step 6 alone applies (phi' = sqrt(phi^2 + sigma^2)), so an idle player's RD grows (up to a new
// player's). Pure arithmetic: the store calls it inside the transaction that ends a game.
#include <cstdint>
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

// The rating period: one week (Glickman suggests periods holding 10 to 15 games of a player on
// average; a week of casual play is about that).
constexpr std::int64_t kRatingPeriodMs = 7LL * 24 * 60 * 60 * 1000;
// An RD never grows beyond a new player's.
constexpr double kMaxRd = 350;

// The full rating periods from `since` to `now` (unix ms); 0 when `since` is 0 (never rated).
std::int64_t periodsBetween(std::int64_t since, std::int64_t now);
// The player's rating after `periods` rating periods without games: the RD grows as
// phi'^2 = phi^2 + periods * sigma^2 (step 6 once per period), at most kMaxRd.
Rating idle(const Rating& player, std::int64_t periods);

}  // namespace rainet::store::glicko2
