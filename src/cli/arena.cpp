// `rainet arena`: a match between two players (built-in bots or external engines).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "ai/arena.h"
#include "cli/command.h"

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
    auto number = [&](std::size_t& i) -> std::optional<long long> {
        if (i + 1 >= args.size()) return std::nullopt;
        try {
            return std::stoll(args[++i]);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--nodes" || a == "--movetime") {
            // The budget of a player whose description gives none (an engine, say).
            const auto v = number(i);
            if (!v || *v <= 0) return usageError(kArena, "bad value for " + a);
            if (a == "--nodes") options.budget.nodes = static_cast<std::uint64_t>(*v);
            if (a == "--movetime") options.budget.movetime = std::chrono::milliseconds(*v);
        } else if (a == "--games" || a == "--concurrency" || a == "--seed" || a == "--max-plies") {
            const auto v = number(i);
            if (!v || *v < 0) return usageError(kArena, "bad value for " + a);
            if (a == "--games") options.games = static_cast<int>(*v);
            if (a == "--concurrency") options.concurrency = static_cast<int>(*v);
            if (a == "--seed") options.seed = static_cast<std::uint64_t>(*v);
            if (a == "--max-plies") options.maxPlies = static_cast<int>(*v);
        } else if (a == "--rules") {
            if (i + 1 >= args.size() || !Rules::byName(args[i + 1]))
                return usageError(kArena, "bad rules");
            options.rules = *Rules::byName(args[++i]);
        } else if (a == "--records") {
            if (i + 1 >= args.size()) return usageError(kArena, "--records needs a directory");
            options.recordDir = args[++i];
        } else if (a == "--own-setups") {
            options.pairedSetups = false;
        } else if (a == "--sprt") {
            if (i + 2 >= args.size()) return usageError(kArena, "--sprt needs ELO0 ELO1");
            try {
                options.sprtElo0 = std::stod(args[++i]);
                options.sprtElo1 = std::stod(args[++i]);
            } catch (const std::exception&) {
                return usageError(kArena, "bad --sprt bounds");
            }
        } else if (!a.empty() && a[0] == '-') {
            return usageError(kArena, "unknown option " + a);
        } else {
            players.push_back(a);
        }
    }
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
    const ai::PlayerSpec* specs[2] = {&*a, &*b};
    for (int p = 0; p < 2; ++p) {
        if (!s.moves[p]) continue;
        const auto& t = s.thinkMs[p];
        std::printf(
            "%s: %ld actions, mean %.1f ms, max %.1f ms per action (p50 %.1f, p99 %.1f, "
            "p99.9 %.1f)\n",
            players[p].c_str(), s.moves[p], s.totalThinkMs[p] / s.moves[p], s.maxThinkMs[p],
            ai::quantile(t, 0.5), ai::quantile(t, 0.99), ai::quantile(t, 0.999));
        // How far the answers went past the player's movetime (docs/ai.md, time control).
        const auto movetime =
            specs[p]->budget.movetime.count() ? specs[p]->budget.movetime : options.budget.movetime;
        if (movetime.count()) {
            const double T = static_cast<double>(movetime.count());
            long late = 0;
            for (double x : t) late += x > T + 20;
            std::printf(
                "%s: over movetime %lld ms: p50 %+.1f, p99 %+.1f, p99.9 %+.1f, max %+.1f ms; "
                "%ld of %zu answers later than +20 ms\n",
                players[p].c_str(), static_cast<long long>(movetime.count()),
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
