#include "ai/ismcts.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ai/eval.h"
#include "ai/greedy_bot.h"
#include "ai/policy.h"
#include "ai/value.h"

namespace rainet::ai {

namespace {
// Below this probability of random replies the opponent is searched as a best replier (and the
// random stream is not drawn from, so purposeful opponents are searched exactly as before).
constexpr double kMinRandomReply = 0.01;
// Against a random player almost every open position is won (ismcts-v1 scored 99.8% against
// random, docs/performance.md), which the learned value, fitted on self-play, does not know: with
// probability r of random replies an open position's value v counts as v + 0.7 r (1 - v), so that
// only the game's real ends (a fourth virus taken: 0) stand out. Without it, a capture that takes
// the fourth virus one time in three looked better than waiting (docs/ai.md, "Opponent model").
constexpr double kRandomWinShare = 0.7;
// The fourth-virus guard (SearchConfig::guardFourthVirus) stands aside for an opponent the model
// is at least this sure plays purposefully: there the learned belief's reading of its cards is
// what protects us (against bait), and it is trusted. Random was read at P(purposeful) 0.896 and
// 0.378 when strong took its fourth virus (docs/ai.md).
constexpr double kGuardTrusted = 0.99;
// A risky capture is still played when its value, recounted with the uniform chance of a virus,
// beats the best safe alternative by this much (the alternatives lose).
constexpr double kGuardMargin = 0.1;
// With three viruses stacked against random, a step of a link towards the exits is played instead
// of the search's choice when its mean reward is at most this much lower (escapingChoice).
constexpr double kEscapeMargin = 0.05;
// The same against a purposeful opponent, pressing for progress in the no-progress limit's second
// half (SearchConfig::pressForProgress).
constexpr double kPressedEscapeMargin = 0.1;
// With three viruses stacked and the guard holding against every opponent (guardPurposeful), the
// search's belief reads the opponent's behaviour at this fraction of its weight: a misread card is
// the game, and a tree that trusted the reading fully planned captures the guard then refused at
// the root, move after move, until the no-progress draw (docs/ai.md, "The league").
constexpr double kThreeVirusTrust = 0.5;
// Pressing for progress (SearchConfig::pressForProgress), a no-progress draw is worth this much to
// us, not half a point: the learned value, fitted on self-play, rates three viruses stacked as
// behind, so a draw at 0.5 was worth holding on to, and strong waited for it with its links home
// where an escape was free (docs/ai.md, "The league").
constexpr double kPressedDraw = 0.25;
// VIRUS CHECKER on a card before a risky capture of it is played when its value (the capture where
// the card is a link, the best safe action where it is the virus) beats what the guard would play
// by this much: the check spends a tempo, and a revealed link may flee.
constexpr double kCheckGain = 0.03;
// A risky capture is weighed for a check only once it has been searched this often (a mean over a
// few rollouts is noise).
constexpr std::uint32_t kCheckMinVisits = 20;
}  // namespace

ActionList searchActions(const Position& p) {
    return searchActions(p, p.legalActions());
}

ActionList searchActions(const Position& p, const ActionList& legal) {
    const Side us = p.toMove(), them = opponent(us);
    const Bitboard nearExits = neighbours(exitsOf(us));
    const Bitboard fwSquares =
        nearExits | neighbours(nearExits) | (neighbours(p.cards(us)) & neighbours(p.cards(them)));
    ActionList out;
    for (Action a : legal) {
        switch (a.type()) {
            case ActionType::FirewallPlace:
                if (!(fwSquares & bit(a.from()))) continue;
                break;
            case ActionType::NotFound: {
                const bool faceUp = p.faceUp() & (bit(a.from()) | bit(a.to()));
                const bool adjacent = neighbours(bit(a.from())) & bit(a.to());
                if (!faceUp && !adjacent) continue;
                break;
            }
            default:
                break;
        }
        out.push(a);
    }
    return out.empty() ? legal : out;
}

ActionPriorSource Ismcts::usablePrior(ActionPriorSource wanted, const Rules& rules) {
    return learnedPriorFits(rules) ? wanted : ActionPriorSource::Heuristic;
}

double Ismcts::prior(ActionPriorSource source, const Position& world, Action a) {
    return source == ActionPriorSource::Learned ? learnedActionPrior(world, a)
                                                : actionPrior(world, a);
}

void Ismcts::expand(std::uint32_t node, const Position& world, const ActionList& legal) {
    const ActionList actions = searchActions(world, legal);
    std::vector<std::pair<double, Action>> scored;
    scored.reserve(actions.size());
    const ActionPriorSource source = usablePrior(config_.prior, world.rules());
    for (Action a : actions) scored.emplace_back(prior(source, world, a), a);
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    nodes_[node].expanded = true;
    if (scored.empty()) return;
    const double hi = scored.front().first, lo = scored.back().first;
    const std::uint32_t first = nodes_.allocate(static_cast<std::uint32_t>(scored.size()));
    for (std::size_t i = 0; i < scored.size(); ++i) {
        Node& child = nodes_[first + static_cast<std::uint32_t>(i)];
        child.action = scored[i].second;
        child.prior = hi > lo ? static_cast<float>((scored[i].first - lo) / (hi - lo)) : 0.5f;
    }
    nodes_[node].firstChild = first;
    nodes_[node].childCount = static_cast<std::uint16_t>(scored.size());
    nodes_[node].expanded = true;
}

std::uint32_t Ismcts::select(std::uint32_t node, bool& fresh) const {
    const Node& n = nodes_[node];
    // Progressive widening: children are in prior order; only the first few are eligible.
    const auto width = static_cast<std::uint32_t>(4.0 + 2.0 * std::sqrt(double(n.visits)));
    const std::uint32_t count = std::min<std::uint32_t>(n.childCount, width);
    const double logN = std::log(double(n.visits) + 1.0);
    std::uint32_t best = n.firstChild;
    double bestValue = -1e18;
    for (std::uint32_t i = n.firstChild; i < n.firstChild + count; ++i) {
        const Node& c = nodes_[i];
        double value;
        if (c.visits == 0) {
            value = 1e6 + c.prior;  // untried children first, best prior first
        } else {
            value = c.reward / c.visits + config_.exploration * std::sqrt(logN / c.visits) +
                    config_.priorWeight * c.prior / (c.visits + 1.0);
        }
        if (value > bestValue) {
            bestValue = value;
            best = i;
        }
    }
    fresh = nodes_[best].visits == 0;
    return best;
}

std::optional<double> Ismcts::rollout(Position& world, Side us, Rng& rng, std::uint64_t& plies,
                                      Clock::time_point deadline) const {
    ActionList legal;
    const bool timed = deadline != Clock::time_point::max();
    const ActionPriorSource source = usablePrior(config_.rolloutPolicy, world.rules());
    for (int d = 0; d < config_.rolloutDepth && !world.isOver(); ++d) {
        if (timed && (d & 3) == 3 && Clock::now() >= deadline) return std::nullopt;
        world.legalActions(legal);
        Action chosen;
        if (rng.uniform() < config_.rolloutNoise) {
            chosen = legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
        } else {
            double best = -1e18;
            int ties = 0;
            for (Action a : legal) {
                const double s = prior(source, world, a);
                if (s > best) {
                    best = s;
                    chosen = a;
                    ties = 1;
                } else if (s == best && rng.below(static_cast<std::uint32_t>(++ties)) == 0) {
                    chosen = a;
                }
            }
        }
        world.doAction(chosen);
        ++plies;
    }
    return leafReward(world, us);
}

double openPositionReward(double v, double winShare, int noProgress, int limit, bool finish) {
    if (winShare == 0.0) return v;
    const double open = v + winShare * (1.0 - v);
    // Against a random player the game is won by progress, and the no-progress rule is the draw
    // it can still reach: an open position counts as mostly won only while the counter is far
    // from the limit, and slides towards the draw (0.5) over the second half of it. Without
    // this, every open position looked alike (v + 0.7 (1 - v)) until the draw entered the tree,
    // and strong, holding three viruses (so no capture of an unknown card was safe), shuffled
    // its cards until the draw or a last-ply gamble on a fourth virus (docs/ai.md, "Finishing
    // against random").
    if (!finish || limit <= 0) return open;
    const double half = 0.5 * limit;
    const double slide = std::clamp((noProgress - half) / half, 0.0, 1.0) *
                         std::min(1.0, winShare / kRandomWinShare);
    return open + (0.5 - open) * slide;
}

double pressedReward(double v, int noProgress, int limit, double draw) {
    if (limit <= 0) return v;
    const double half = 0.5 * limit;
    return v + (draw - v) * std::clamp((noProgress - half) / half, 0.0, 1.0);
}

int escapePlies(const Position& p, Side us) {
    // With three viruses in our stack every capture of an unidentified card risks the fourth, so
    // the progress left to us is an escape: our nearest link's steps to the opponent's exits (two
    // plies each, a reply between) and the escape itself.
    if (p.stack(us).viruses() != 3) return 0;
    int best = -1;
    for (Bitboard b = p.links(us) & p.cards(us); b;) {
        const int d = exitDistance(popLsb(b), exitsOf(opponent(us)));
        if (best < 0 || d < best) best = d;
    }
    return best < 0 ? 0 : 2 * best + 1;
}

double recountedCapture(double mean, double searchedVirus, double virus) {
    const double linkMean = std::min(1.0, mean / std::max(0.05, 1.0 - searchedVirus));
    return linkMean * (1.0 - virus);
}

double Ismcts::leafReward(const Position& world, Side us) const {
    const double v = config_.eval == LeafEval::Learned ? learnedReward(world, us)
                                                       : evaluateReward(world, us, config_.squash);
    const bool press = config_.pressForProgress && winShare_ == 0.0;
    if (world.isOver()) return press && world.outcome() == Outcome::Draw ? kPressedDraw : v;
    int noProgress = world.noProgress();
    if (config_.escapeWithThreeViruses && (winShare_ > 0.0 || press))
        noProgress += escapePlies(world, us);
    if (press) return pressedReward(v, noProgress, world.rules().noProgressLimit, kPressedDraw);
    return openPositionReward(v, winShare_, noProgress, world.rules().noProgressLimit,
                              config_.finishAgainstRandom);
}

std::uint32_t Ismcts::concealedChoice(const InfoSet& knowledge, std::uint32_t mostVisited) const {
    // Our own identities are the true ones in every world we can build.
    const Position world = knowledge.world(0, 0);
    const Side us = world.toMove();
    const CardFeatures& w = learnedModel().weights;
    const Node& root = nodes_[0];
    const double top = nodes_[mostVisited].visits;
    // A position the search rates as leaning our way is played straight: hiding would only delay
    // the win (against random, links kept off the exits turned won games into long ones that
    // were decided by captures, and lost by a fourth virus).
    if (nodes_[mostVisited].reward / top >= config_.concealBelow) return mostVisited;
    std::uint32_t best = mostVisited;
    double bestScore = -1e18;
    for (std::uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i) {
        const Node& c = nodes_[i];
        if (c.visits < config_.concealWindow * top) continue;
        double leak = logOddsChange(world, c.action, w);
        if (!(world.links(us) & bit(c.action.from()))) leak = -leak;
        const double score = c.visits / top - config_.concealment * leak;
        if (score > bestScore) {
            bestScore = score;
            best = i;
        }
    }
    return best;
}

std::optional<Square> shunnedExit(const InfoSet& knowledge) {
    const auto& history = knowledge.history();
    if (history.empty()) return std::nullopt;
    const View& view = knowledge.view();
    const Bitboard ours = exitsOf(view.toMove());
    const Action last = history.back().action;  // the opponent's: it is our turn
    const Bitboard theirs = view.cards(opponent(view.toMove()));
    if (last.type() == ActionType::Move && (ours & bit(last.from())) && (theirs & bit(last.to())))
        return last.to();  // stepped off our exit instead of entering
    for (Bitboard b = ours & theirs; b;) {
        const Square s = popLsb(b);
        const bool arrived = last.type() == ActionType::Move && last.to() == s;
        const bool exchanged =
            last.type() == ActionType::NotFound && (last.from() == s || last.to() == s);
        if (!arrived && !exchanged) return s;  // stood there through its owner's turn
    }
    return std::nullopt;
}

std::uint32_t Ismcts::guardedChoice(const InfoSet& knowledge, const Belief& belief,
                                    std::uint32_t chosen, double purposeful) const {
    const View& view = knowledge.view();
    const Side us = view.toMove(), them = opponent(us);
    if (view.stack(us).viruses() != 3) return chosen;
    const Action risky = nodes_[chosen].action;
    // On our own exit (official) a card is captured only because it may escape next: there the
    // belief, fitted on standard games where nobody captures on an own exit, is not trusted even
    // for a purposeful opponent (bait's viruses walked onto strong's exits and were taken).
    const bool onOwnExit = risky.type() == ActionType::Move && (exitsOf(us) & bit(risky.to()));
    if (purposeful >= kGuardTrusted && !onOwnExit && !config_.guardPurposeful) return chosen;
    // A capture risks the fourth virus unless every consistent world holds a link there.
    const Belief uniform(knowledge, Evidence::None);
    auto virusChance = [&](const Action a, const Belief& b) {
        if (a.type() != ActionType::Move || !(view.cards(them) & bit(a.to()))) return 0.0;
        return b.virusProbability(a.to());
    };
    const double uniformVirus = virusChance(risky, uniform);
    const Node& root = nodes_[0];
    auto mean = [&](std::uint32_t i) { return nodes_[i].reward / nodes_[i].visits; };
    // The belief may misread a random player's boosted or far-advanced virus as a link (P(virus)
    // 0.017 of a card random had boosted and walked to our back rank): a capture is recounted
    // with the larger of the belief's and the uniform chance of a virus.
    // A purposeful player enters our server with a link that stands on our exit: a card that
    // stood there through its owner's last turn, or stepped off it, is a virus (the official
    // bluffer's viruses walked along strong's exits and were taken as links; docs/ai.md).
    const Square shunned = config_.guardPurposeful && purposeful >= kGuardTrusted
                               ? shunnedExit(knowledge).value_or(-1)
                               : -1;
    auto recount = [&](std::uint32_t i) {
        const double searched = virusChance(nodes_[i].action, belief);
        double virus = std::max(searched, virusChance(nodes_[i].action, uniform));
        if (virus > 0.0 && nodes_[i].action.to() == shunned) virus = 1.0;
        return std::pair{virus, recountedCapture(mean(i), searched, virus)};
    };
    std::uint32_t pick = chosen;
    double pickValue = mean(chosen), alternative = pickValue;
    if (uniformVirus > 0.0) {
        std::uint32_t safe = 0;  // the most visited child that risks nothing (0: none)
        for (std::uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i) {
            const Node& c = nodes_[i];
            if (c.visits == 0 || virusChance(c.action, uniform) > 0.0) continue;
            if (!safe || c.visits > nodes_[safe].visits) safe = i;
        }
        if (!safe) return chosen;
        const double capture = recount(chosen).second;
        alternative = mean(safe);
        if (capture > alternative + kGuardMargin) {
            pickValue = capture;
        } else {
            pick = safe;
            pickValue = alternative;
        }
    }
    if (!config_.guardPurposeful) return pick;
    // VIRUS CHECKER first (guardPurposeful): a risky capture is worth, after a check of its card,
    // the capture where the card is a link and the best safe action where it is the virus; the
    // tree cannot see that (its worlds are not told apart after a check), so it is weighed here.
    std::uint32_t check = 0;
    double checkValue = pickValue + kCheckGain;
    for (std::uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i) {
        const Node& c = nodes_[i];
        if (c.visits < kCheckMinVisits) continue;
        const double u = virusChance(c.action, uniform);
        if (u <= 0.0 || u >= 1.0) continue;  // not a capture, or the card is known
        const Action vc = Action::check(c.action.to());
        std::uint32_t vcChild = 0;
        for (std::uint32_t j = root.firstChild; j < root.firstChild + root.childCount; ++j)
            if (nodes_[j].action == vc) vcChild = j;
        if (!vcChild) continue;  // our VC is spent, or the card is face up
        const auto [virus, capture] = recount(i);
        const double value = capture + virus * alternative;
        if (value > checkValue) {
            checkValue = value;
            check = vcChild;
        }
    }
    return check ? check : pick;
}

std::uint32_t Ismcts::escapingChoice(const InfoSet& knowledge, std::uint32_t chosen,
                                     double margin) const {
    // Our own identities are the true ones in every world we can build.
    const Position world = knowledge.world(0, 0);
    const Side us = world.toMove(), them = opponent(us);
    const int now = escapePlies(world, us);
    if (now == 0) return chosen;         // fewer than three viruses stacked, or no link left
    auto steps = [&](std::uint32_t i) {  // a step of ours towards an escape, capturing nothing
        const Action a = nodes_[i].action;
        if (a.type() == ActionType::Move && (world.cards(them) & bit(a.to()))) return false;
        if (a.type() == ActionType::Enter) return (world.links(us) & bit(a.from())) != 0;
        Position after = world;
        after.doAction(a);
        return !after.isOver() && escapePlies(after, us) < now;
    };
    if (steps(chosen)) return chosen;
    const double bar = nodes_[chosen].reward / nodes_[chosen].visits - margin;
    const Node& root = nodes_[0];
    std::uint32_t best = chosen;
    for (std::uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i) {
        const Node& c = nodes_[i];
        if (c.visits == 0 || c.reward / c.visits < bar || !steps(i)) continue;
        if (best == chosen || c.visits > nodes_[best].visits) best = i;
    }
    return best;
}

std::vector<Action> Ismcts::principalLine() const {
    std::vector<Action> line;
    std::uint32_t node = 0;
    while (nodes_[node].expanded && nodes_[node].childCount > 0 && line.size() < 8) {
        const Node& n = nodes_[node];
        std::uint32_t best = n.firstChild;
        for (std::uint32_t i = n.firstChild; i < n.firstChild + n.childCount; ++i) {
            const Node& c = nodes_[i];
            const Node& b = nodes_[best];
            if (c.visits > b.visits || (c.visits == b.visits && c.reward > b.reward)) best = i;
        }
        if (nodes_[best].visits == 0) break;
        line.push_back(nodes_[best].action);
        node = best;
    }
    return line;
}

SearchResult Ismcts::search(const InfoSet& knowledge, const Budget& budget, Rng& rng,
                            const InfoCallback& info, double purposeful) {
    const auto start = Clock::now();
    const Side us = knowledge.view().toMove();
    const bool distrust = config_.guardFourthVirus && config_.guardPurposeful &&
                          knowledge.view().stack(us).viruses() == 3;
    const Belief belief(knowledge, config_.evidence, nullptr,
                        distrust ? purposeful * kThreeVirusTrust : purposeful);
    // The search plays the opponent as random only once the model is nearly sure of it (from
    // P(random) 0.8 up to fully at 1): a purposeful player misread for a while is still searched
    // as one. Where the path has an even length the opponent is to move (the root is ours).
    const double randomReply = std::max(0.0, (1.0 - purposeful - 0.8) / 0.2);
    winShare_ = randomReply > kMinRandomReply ? kRandomWinShare * randomReply : 0.0;
    std::uint64_t limit = budget.nodes;
    if (!limit && !budget.movetime.count() && !budget.infinite) limit = config_.iterations;
    // A level's cap on the time per action applies whatever the budget (a slow machine).
    auto movetime = budget.movetime;
    if (config_.maxMovetime.count() && (!movetime.count() || movetime > config_.maxMovetime))
        movetime = config_.maxMovetime;
    const bool timed = movetime.count() != 0;
    if (config_.maxIterations)
        limit = limit ? std::min(limit, config_.maxIterations) : config_.maxIterations;
    // The answer is due at start + movetime. What follows the loop (choosing, reporting, writing
    // the answer, waking the controller: about 10 ms at the median on a loaded machine, docs/ai.md)
    // gets a reserve of T/20 (3 to 15 ms); the clock is read before every iteration and every few
    // plies of a rollout, and a rollout that crosses the deadline is abandoned, so that no slow
    // iteration can overrun it.
    const auto reserve =
        std::clamp(movetime / 20, std::chrono::milliseconds(3), std::chrono::milliseconds(15));
    const Clock::time_point origin = budget.since == Clock::time_point{} ? start : budget.since;
    const Clock::time_point deadline =
        timed ? origin + std::max(movetime - reserve, std::chrono::milliseconds(1))
              : Clock::time_point::max();
    // Progress reports once a second for searches that run by time; a search bounded by nodes
    // only reports at fixed iteration counts, so its output is the same in every run.
    const bool reportByTime = budget.movetime.count() != 0 || budget.infinite;

    // Memory above the kept chunks is released here, inside this search's time, rather than
    // after the previous answer.
    nodes_.trim(kKeptChunks);
    nodes_.clear();
    nodes_.allocate(1);  // the root, index 0
    SearchResult result;
    auto lastInfo = start;
    std::vector<std::uint32_t> path;
    for (;;) {
        if (limit && result.iterations >= limit) break;
        if (budget.stop && budget.stop->load(std::memory_order_relaxed)) break;
        Clock::time_point now{};
        if (timed || (info && reportByTime)) {
            now = Clock::now();
            if (now >= deadline) break;
        }
        if (info) {
            const bool due = reportByTime ? now - lastInfo >= std::chrono::seconds(1)
                                          : result.iterations >= 4096 &&
                                                (result.iterations & (result.iterations - 1)) == 0;
            if (due) {
                lastInfo = now;
                SearchInfo si;
                si.iterations = result.iterations;
                si.nodes = result.plies;
                si.elapsed =
                    std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
                si.bestLine = principalLine();
                info(si);
            }
        }
        Position world = belief.sample(rng);
        path.clear();
        path.push_back(0);
        std::uint32_t node = 0;
        std::optional<double> reward;
        for (;;) {
            if (world.isOver()) {
                reward = leafReward(world, us);
                break;
            }
            if (!nodes_[node].expanded) {
                if (nodes_.size() >= kMaxNodes) {  // the tree is full: play out from here
                    reward = rollout(world, us, rng, result.plies, deadline);
                    break;
                }
                expand(node, world, world.legalActions());
            }
            bool fresh = false;
            // The opponent's choices follow the opponent model: with the probability that it
            // plays at random (Belief::purposeful), a uniformly random child, else UCB's choice
            // (a random player neither escapes nor captures on purpose; modelling it as a best
            // replier made a 1-in-3 capture of a fourth virus look better than waiting).
            const Node& n = nodes_[node];
            if (path.size() % 2 == 0 && randomReply > kMinRandomReply && n.childCount > 0 &&
                rng.uniform() < randomReply) {
                node = n.firstChild + static_cast<std::uint32_t>(rng.below(n.childCount));
                fresh = nodes_[node].visits == 0;
            } else {
                node = select(node, fresh);
            }
            world.doAction(nodes_[node].action);
            ++result.plies;
            path.push_back(node);
            if (fresh) {
                reward = rollout(world, us, rng, result.plies, deadline);
                break;
            }
        }
        if (!reward) break;  // out of time in the middle of a rollout
        // Back up: each node stores the reward of the side that played its action.
        Side mover = us;
        for (std::size_t i = 1; i < path.size(); ++i) {
            Node& n = nodes_[path[i]];
            n.visits += 1;
            n.reward += mover == us ? *reward : 1.0 - *reward;
            mover = opponent(mover);
        }
        nodes_[0].visits += 1;
        ++result.iterations;
    }
    // The most visited root child; with no iteration at all, the best prior.
    // The root from the view's own actions (a sampled world may be over where the game is not).
    if (!nodes_[0].expanded) expand(0, knowledge.world(0, 0), knowledge.view().legalActions());
    const Node& root = nodes_[0];
    std::uint32_t best = root.firstChild;
    for (std::uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i) {
        const Node& c = nodes_[i];
        const Node& b = nodes_[best];
        if (c.visits > b.visits || (c.visits == b.visits && c.reward > b.reward)) best = i;
    }
    if (nodes_[best].visits > 0) result.value = nodes_[best].reward / nodes_[best].visits;
    result.root.reserve(root.childCount);
    for (std::uint32_t i = root.firstChild; i < root.firstChild + root.childCount; ++i)
        result.root.push_back({nodes_[i].action, nodes_[i].visits, nodes_[i].reward});
    // Ties keep the prior order (children are stored best prior first): the same every run.
    std::stable_sort(result.root.begin(), result.root.end(),
                     [](const RootChild& x, const RootChild& y) { return x.visits > y.visits; });
    if (config_.concealment > 0 && nodes_[best].visits > 0) best = concealedChoice(knowledge, best);
    if (config_.escapeWithThreeViruses && winShare_ > 0.0 && nodes_[best].visits > 0)
        best = escapingChoice(knowledge, best, kEscapeMargin);
    if (config_.guardFourthVirus && nodes_[best].visits > 0)
        best = guardedChoice(knowledge, belief, best, purposeful);
    // Pressing a purposeful opponent with three viruses stacked, in the no-progress limit's
    // second half: the learned value rates an escaped link below one two steps from the exit (its
    // weights: stack-links +0.38, links-2 +0.78), so the tree undervalues the run that is the only
    // safe progress; a step of a link towards the exits is played when nearly as good.
    if (config_.escapeWithThreeViruses && config_.pressForProgress && winShare_ == 0.0 &&
        nodes_[best].visits > 0 &&
        2 * knowledge.view().noProgress() >= knowledge.view().rules().noProgressLimit)
        best = escapingChoice(knowledge, best, kPressedEscapeMargin);
    result.best = nodes_[best].action;
    result.bestLine = principalLine();
    if (result.bestLine.empty()) result.bestLine.push_back(result.best);
    if (info) {
        SearchInfo si;
        si.iterations = result.iterations;
        si.nodes = result.plies;
        si.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
        si.bestLine = result.bestLine;
        si.virusProbability = belief.virusProbabilities(opponent(us));
        info(si);
    }
    return result;
}

std::uint8_t StrongBot::chooseSetup(Side, const Rules&, Rng& rng) {
    return config_.uniformSetups ? randomSetup(rng) : mixedSetup(rng);
}

Action StrongBot::chooseAction(const InfoSet& knowledge, const Budget& budget, Rng& rng) {
    const ActionList legal = knowledge.view().legalActions();
    if (legal.size() == 1) {
        if (config_.opponentModel) {
            opponent_.update(knowledge);
            opponent_.answered(knowledge, legal[0]);
        }
        return legal[0];
    }
    if (!search_) search_ = std::make_unique<Ismcts>(config_);
    if (!config_.opponentModel) return search_->search(knowledge, budget, rng, info_).best;
    opponent_.update(knowledge);
    const Action a = search_->search(knowledge, budget, rng, info_, opponent_.purposeful()).best;
    opponent_.answered(knowledge, a);
    return a;
}

}  // namespace rainet::ai
