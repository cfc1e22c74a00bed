// `rainet arena`: a match between two players (built-in bots or external engines).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "ai/arena.h"
#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kArena{
    "arena",
    "arena PLAYER_A PLAYER_B [--games N] [--concurrency K] [--seed S] [--rules standard|official] "
    "[--records DIR] [--own-setups] [--max-plies N] [--sprt ELO0 ELO1] [--nodes N] [--movetime MS]",
    "plays N games between two players (NAME[:nodes=N][:movetime=MS] or engine:COMMAND)", run};
RAINET_COMMAND(arena, kArena);

void progressBar(int done, int total, const ai::Score& s) {
    const int width = 30, filled = total ? done * width / total : width;
    std::fprintf(stderr, "\r[%s%s] %d/%d  +%d =%d -%d  score %.1f%%",
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), done,
                 total, s.wins, s.draws, s.losses, 100.0 * s.fraction());
    if (done == total) std::fprintf(stderr, "\n");
}

int run(const Args& args) {
    std::vector<std::string> players;
    ai::MatchOptions options;
    auto app = makeApp(kArena);
    app->add_option("PLAYER", players, "the two players")->required()->expected(2);
    app->add_option("--games", options.games, "games to play")->check(CLI::NonNegativeNumber);
    app->add_option("--concurrency", options.concurrency, "games at once")
        ->check(CLI::NonNegativeNumber);
    app->add_option("--seed", options.seed, "seed of the setups and the bots");
    app->add_option("--max-plies", options.maxPlies, "a game this long is a draw")
        ->check(CLI::NonNegativeNumber);
    std::string rules = "standard";
    app->add_option("--rules", rules, "the rules")->check(CLI::IsMember({"standard", "official"}));
    app->add_option("--records", options.recordDir, "write each game's record into DIR");
    bool ownSetups = false;
    app->add_flag("--own-setups", ownSetups,
                  "each player chooses its setups (default: both play the same ones in turn)");
    std::vector<double> sprt;
    app->add_option("--sprt", sprt, "stop when the SPRT between ELO0 and ELO1 decides")
        ->expected(2);
    // The budget of a player whose description gives none (an engine, say).
    long long nodes = 0, movetime = 0;
    app->add_option("--nodes", nodes, "nodes per action")->check(CLI::PositiveNumber);
    app->add_option("--movetime", movetime, "milliseconds per action")->check(CLI::PositiveNumber);
    if (auto status = parseArgs(*app, kArena, args)) return *status;
    options.rules = *Rules::byName(rules);
    options.pairedSetups = !ownSetups;
    if (sprt.size() == 2) options.sprtElo0 = sprt[0], options.sprtElo1 = sprt[1];
    if (app->count("--nodes")) options.budget.nodes = static_cast<std::uint64_t>(nodes);
    if (app->count("--movetime")) options.budget.movetime = std::chrono::milliseconds(movetime);
    if (players.size() != 2) return usageError(kArena, "two players are required");
    auto a = ai::parsePlayerSpec(players[0]);
    auto b = ai::parsePlayerSpec(players[1]);
    if (!a.ok()) return usageError(kArena, a.error().message);
    if (!b.ok()) return usageError(kArena, b.error().message);

    const bool tty = isatty(STDERR_FILENO);
    options.onError = [tty](int game, const std::string& reason) {
        std::fprintf(stderr, "%sgame %d: %s\n", tty ? "\r\033[K" : "", game, reason.c_str());
    };
    const ai::Score s = ai::playMatch(*a, *b, options, tty ? progressBar : ai::ProgressCallback{});
    if (tty && s.games() < options.games) std::fprintf(stderr, "\n");  // stopped by the SPRT
    const ai::EloEstimate e = ai::eloEstimate(s);
    std::printf("%s vs %s: games %d  W %d  D %d  L %d  score %.1f/%d (%.1f%%)\n",
                players[0].c_str(), players[1].c_str(), s.games(), s.wins, s.draws, s.losses,
                s.points(), s.games(), 100.0 * s.fraction());
    std::printf("Elo difference: %+.0f (95%%: %+.0f .. %+.0f)\n", e.elo, e.low, e.high);
    if (s.games()) {
        const double n = s.games();
        std::printf(
            "Endings: %d no-progress draws (%.1f%%), %d losses of %s by its fourth virus (%.1f%%); "
            "%.1f plies a game\n",
            s.noProgressDraws, 100.0 * s.noProgressDraws / n, s.fourthVirusLosses,
            players[0].c_str(), 100.0 * s.fourthVirusLosses / n, static_cast<double>(s.plies) / n);
    }
    const ai::PlayerSpec* specs[2] = {&*a, &*b};
    for (int p = 0; p < 2; ++p) {
        if (!s.moves[p]) continue;
        const auto& t = s.thinkMs[p];
        std::printf(
            "%s: %ld actions, mean %.1f ms, max %.1f ms per action (p50 %.1f, p99 %.1f, "
            "p99.9 %.1f)\n",
            players[p].c_str(), s.moves[p], s.totalThinkMs[p] / static_cast<double>(s.moves[p]),
            s.maxThinkMs[p], ai::quantile(t, 0.5), ai::quantile(t, 0.99), ai::quantile(t, 0.999));
        // How far the answers went past the player's movetime (docs/ai.md, time control).
        const auto playerMovetime =
            specs[p]->budget.movetime.count() ? specs[p]->budget.movetime : options.budget.movetime;
        if (playerMovetime.count()) {
            const double T = static_cast<double>(playerMovetime.count());
            long late = 0;
            for (double x : t) late += x > T + 20;
            std::printf(
                "%s: over movetime %lld ms: p50 %+.1f, p99 %+.1f, p99.9 %+.1f, max %+.1f ms; "
                "%ld of %zu answers later than +20 ms\n",
                players[p].c_str(), static_cast<long long>(playerMovetime.count()),
                ai::quantile(t, 0.5) - T, ai::quantile(t, 0.99) - T, ai::quantile(t, 0.999) - T,
                s.maxThinkMs[p] - T, late, t.size());
        }
    }
    if (s.errors) std::printf("Games with errors: %d\n", s.errors);
    if (options.sprtElo0 && options.sprtElo1) {
        const double llr = ai::sprtLlr(s, *options.sprtElo0, *options.sprtElo1);
        const double lower = std::log(options.sprtBeta / (1 - options.sprtAlpha));
        const double upper = std::log((1 - options.sprtBeta) / options.sprtAlpha);
        std::printf("SPRT [%.1f, %.1f] LLR %.2f (%.2f, %.2f): %s\n", *options.sprtElo0,
                    *options.sprtElo1, llr, lower, upper,
                    s.games() < 20 ? "inconclusive"
                    : llr >= upper ? "H1 accepted"
                    : llr <= lower ? "H0 accepted"
                                   : "inconclusive");
    }
    return 0;
}

}  // namespace
}  // namespace rainet::cli
