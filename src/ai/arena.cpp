#include "ai/arena.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

#include "ai/engine_client.h"
#include "ai/ismcts.h"

namespace rainet::ai {

namespace {
// The value called `name` among `choices`, if any.
template <class T>
std::optional<T> named(const std::string& name,
                       std::initializer_list<std::pair<std::string_view, T>> choices) {
    for (const auto& [n, value] : choices)
        if (n == name) return value;
    return std::nullopt;
}
}  // namespace

Result<PlayerSpec> parsePlayerSpec(const std::string& text) {
    PlayerSpec spec;
    spec.label = text;
    if (text.rfind("engine:", 0) == 0) {
        spec.engineCommand = text.substr(7);
        if (spec.engineCommand.empty()) return Error{"player '" + text + "': empty engine command"};
        return spec;
    }
    std::istringstream in(text);
    std::string part;
    std::getline(in, part, ':');
    spec.botName = part;
    if (!makeBot(spec.botName)) return Error{"player '" + text + "': unknown bot '" + part + "'"};
    const bool searches = dynamic_cast<StrongBot*>(makeBot(spec.botName).get()) != nullptr;
    while (std::getline(in, part, ':')) {
        const auto eq = part.find('=');
        const std::string key = part.substr(0, eq);
        if ((key == "belief" || key == "eval" || key == "prior" || key == "rprior") && searches &&
            eq != std::string::npos) {
            const std::string v = part.substr(eq + 1);
            bool known = false;
            if (key == "belief") {
                spec.evidence = named<Evidence>(v, {{"uniform", Evidence::None},
                                                    {"heuristic", Evidence::Heuristic},
                                                    {"learned", Evidence::Learned}});
                known = spec.evidence.has_value();
            } else if (key == "prior" || key == "rprior") {
                auto& slot = key == "prior" ? spec.prior : spec.rolloutPolicy;
                slot = named<ActionPriorSource>(v, {{"heuristic", ActionPriorSource::Heuristic},
                                                    {"learned", ActionPriorSource::Learned}});
                known = slot.has_value();
            } else {
                spec.eval = named<LeafEval>(
                    v, {{"heuristic", LeafEval::Heuristic}, {"learned", LeafEval::Learned}});
                known = spec.eval.has_value();
            }
            if (!known) return Error{"player '" + text + "': bad " + key + " '" + v + "'"};
            continue;
        }
        std::uint64_t value = 0;
        try {
            if (eq == std::string::npos) throw std::invalid_argument("no value");
            value = std::stoull(part.substr(eq + 1));
        } catch (const std::exception&) {
            return Error{"player '" + text + "': bad option '" + part + "'"};
        }
        if (key == "nodes") {
            spec.budget.nodes = value;
        } else if (key == "movetime") {
            spec.budget.movetime = std::chrono::milliseconds(value);
        } else if (key == "conceal" && searches) {
            spec.concealment = static_cast<double>(value) / 100.0;
        } else if (key == "concealbelow" && searches) {
            spec.concealBelow = static_cast<double>(value) / 100.0;
        } else if (key == "rollout" && searches) {
            if (value > 64) return Error{"player '" + text + "': rollout above 64 plies"};
            spec.rolloutDepth = static_cast<int>(value);
        } else if (key == "squash" && searches) {
            spec.squash = static_cast<double>(value) / 100.0;
        } else if (key == "oppmodel" && searches) {
            if (value > 1) return Error{"player '" + text + "': oppmodel is 0 or 1"};
            spec.opponentModel = value == 1;
        } else if (key == "finish" && searches) {
            if (value > 1) return Error{"player '" + text + "': finish is 0 or 1"};
            spec.finish = value == 1;
        } else if (key == "guard" && searches) {
            if (value > 1) return Error{"player '" + text + "': guard is 0 or 1"};
            spec.guard = value == 1;
        } else if (key == "escape" && searches) {
            if (value > 1) return Error{"player '" + text + "': escape is 0 or 1"};
            spec.escape = value == 1;
        } else if (key == "guardall" && searches) {
            if (value > 1) return Error{"player '" + text + "': guardall is 0 or 1"};
            spec.guardAll = value == 1;
        } else if (key == "press" && searches) {
            if (value > 1) return Error{"player '" + text + "': press is 0 or 1"};
            spec.press = value == 1;
        } else {
            return Error{"player '" + text + "': unknown option '" + key + "'"};
        }
    }
    return spec;
}

namespace {
// A player whose own budget replaces the one the referee offers.
class BudgetedPlayer : public Player {
  public:
    BudgetedPlayer(std::unique_ptr<Player> inner, Budget budget)
        : inner_(std::move(inner)), budget_(budget) {}
    std::string name() const override { return inner_->name(); }
    Result<std::uint8_t> newGame(Side side, const Rules& rules) override {
        return inner_->newGame(side, rules);
    }
    void started(const View& v) override { inner_->started(v); }
    Result<Action> act(const InfoSet& k, const Budget&) override { return inner_->act(k, budget_); }

  private:
    std::unique_ptr<Player> inner_;
    Budget budget_;
};
}  // namespace

std::optional<SearchConfig> searchConfigOf(const PlayerSpec& spec) {
    if (spec.botName.empty()) return std::nullopt;
    const auto bot = makeBot(spec.botName);
    const auto* search = dynamic_cast<const StrongBot*>(bot.get());
    if (!search) return std::nullopt;
    SearchConfig c = search->config();
    if (spec.concealment) c.concealment = *spec.concealment;
    if (spec.concealBelow) c.concealBelow = *spec.concealBelow;
    if (spec.evidence) c.evidence = *spec.evidence;
    if (spec.eval) c.eval = *spec.eval;
    if (spec.prior) c.prior = *spec.prior;
    if (spec.rolloutPolicy) c.rolloutPolicy = *spec.rolloutPolicy;
    if (spec.rolloutDepth) c.rolloutDepth = *spec.rolloutDepth;
    if (spec.squash) c.squash = *spec.squash;
    if (spec.opponentModel) c.opponentModel = *spec.opponentModel;
    if (spec.finish) c.finishAgainstRandom = *spec.finish;
    if (spec.guard) c.guardFourthVirus = *spec.guard;
    if (spec.escape) c.escapeWithThreeViruses = *spec.escape;
    if (spec.guardAll) c.guardPurposeful = *spec.guardAll;
    if (spec.press) c.pressForProgress = *spec.press;
    return c;
}

Result<std::unique_ptr<Player>> makePlayer(const PlayerSpec& spec, std::uint64_t seed) {
    std::unique_ptr<Player> p;
    if (!spec.engineCommand.empty()) {
        auto engine = EngineClient::start(spec.engineCommand, seed);
        if (!engine.ok()) return engine.error();
        p = std::move(*engine);
    } else {
        auto bot = makeBot(spec.botName);
        if (!bot) return Error{"unknown bot '" + spec.botName + "'"};
        if (auto* search = dynamic_cast<StrongBot*>(bot.get()))
            search->configure(*searchConfigOf(spec));
        p = std::make_unique<BotPlayer>(std::move(bot), seed);
    }
    return std::unique_ptr<Player>(std::make_unique<BudgetedPlayer>(std::move(p), spec.budget));
}

double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0.0;
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
    const std::size_t i = std::min(values.size() - 1, rank ? rank - 1 : 0);
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(i), values.end());
    return values[i];
}

EloEstimate eloEstimate(const Score& s) {
    const int n = s.games();
    auto elo = [](double score) {
        score = std::clamp(score, 1e-3, 1 - 1e-3);
        return -400.0 * std::log10(1.0 / score - 1.0);
    };
    EloEstimate e;
    if (n == 0) return e;
    const double mu = s.fraction();
    const double var =
        (s.wins * (1 - mu) * (1 - mu) + s.draws * (0.5 - mu) * (0.5 - mu) + s.losses * mu * mu) / n;
    const double se = std::sqrt(var / n);
    e.elo = elo(mu);
    e.low = elo(mu - 1.96 * se);
    e.high = elo(mu + 1.96 * se);
    return e;
}

double sprtLlr(const Score& s, double elo0, double elo1) {
    if (s.games() == 0) return 0.0;
    // Half a game of each outcome is added so that the variance of a one-sided start is not 0.
    const double w = s.wins + 0.5, d = s.draws + 0.5, l = s.losses + 0.5, n = w + d + l;
    const double mu = (w + 0.5 * d) / n;
    const double var = (w * (1 - mu) * (1 - mu) + d * (0.5 - mu) * (0.5 - mu) + l * mu * mu) / n;
    auto expected = [](double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); };
    const double s0 = expected(elo0), s1 = expected(elo1);
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var);
}

namespace {
constexpr int kSprtMinGames = 20;
}

Score playMatch(const PlayerSpec& a, const PlayerSpec& b, const MatchOptions& options,
                const ProgressCallback& progress) {
    // Arrangement pairs are drawn up front from the match seed, so results never depend on
    // thread scheduling.
    Rng setupRng(options.seed ^ 0x5E7u);
    std::vector<std::pair<std::uint8_t, std::uint8_t>> setups;
    for (int i = 0; i < (options.games + 1) / 2; ++i)
        setups.emplace_back(randomSetup(setupRng), randomSetup(setupRng));
    if (!options.recordDir.empty()) std::filesystem::create_directories(options.recordDir);

    auto withBudget = [&](PlayerSpec spec) {
        if (!spec.budget.nodes && !spec.budget.movetime.count()) spec.budget = options.budget;
        return spec;
    };
    Score score;
    std::mutex mutex;
    std::atomic<int> next{0};
    int done = 0;
    auto worker = [&] {
        for (;;) {
            const int g = next.fetch_add(1);
            if (g >= options.games) return;
            const bool aIsOne = g % 2 == 0;
            const std::uint64_t seed = options.seed * 1000003u + static_cast<std::uint64_t>(g);
            auto pa = makePlayer(withBudget(a), seed * 2 + 1);
            auto pb = makePlayer(withBudget(b), seed * 2 + 2);
            GameRecord r;
            std::string nameA = a.label, nameB = b.label;
            if (!pa.ok() || !pb.ok()) {
                r.error = !pa.ok() ? pa.error().message : pb.error().message;
            } else {
                GameOptions go;
                go.rules = options.rules;
                go.maxPlies = options.maxPlies;
                if (options.pairedSetups) {
                    go.setup[0] = setups[g / 2].first;
                    go.setup[1] = setups[g / 2].second;
                }
                r = aIsOne ? playGame(**pa, **pb, go) : playGame(**pb, **pa, go);
            }
            const bool aWon = r.outcome == (aIsOne ? Outcome::Side1Wins : Outcome::Side2Wins);
            const bool bWon = r.outcome == (aIsOne ? Outcome::Side2Wins : Outcome::Side1Wins);
            if (!options.recordDir.empty()) {
                char file[32];
                std::snprintf(file, sizeof file, "game-%05d.txt", g + 1);
                std::ofstream(std::filesystem::path(options.recordDir) / file) << formatRecord(
                    r, aIsOne ? nameA : nameB, aIsOne ? nameB : nameA, std::to_string(g + 1));
            }
            std::lock_guard lock(mutex);
            if (!r.error.empty() && options.onError) options.onError(g + 1, r.error);
            for (int p = 0; p < 2; ++p) {
                const int side = (p == 0) == aIsOne ? 0 : 1;  // A is side 1 in even games
                score.maxThinkMs[p] = std::max(score.maxThinkMs[p], r.maxThinkMs[side]);
                score.totalThinkMs[p] += r.totalThinkMs[side];
                score.moves[p] += r.moves[side];
                score.thinkMs[p].insert(score.thinkMs[p].end(), r.thinkMs[side].begin(),
                                        r.thinkMs[side].end());
            }
            if (r.outcome == Outcome::Ongoing) {
                ++score.errors;
            } else if (aWon) {
                ++score.wins;
            } else if (bWon) {
                ++score.losses;
                if (r.reason == EndReason::FourViruses) ++score.fourthVirusLosses;
            } else {
                ++score.draws;
                if (r.reason == EndReason::NoProgress) ++score.noProgressDraws;
            }
            score.plies += static_cast<long>(r.actions.size());
            if (!r.error.empty() && r.outcome != Outcome::Ongoing) ++score.errors;
            ++done;
            if (progress) progress(done, options.games, score);
            if (options.sprtElo0 && options.sprtElo1) {
                const double llr = sprtLlr(score, *options.sprtElo0, *options.sprtElo1);
                const double lower = std::log(options.sprtBeta / (1 - options.sprtAlpha));
                const double upper = std::log((1 - options.sprtBeta) / options.sprtAlpha);
                const bool decided =
                    score.games() >= kSprtMinGames && (llr <= lower || llr >= upper);
                if (decided) next = options.games;  // stop handing out games
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < std::max(1, options.concurrency); ++i) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    return score;
}

}  // namespace rainet::ai
