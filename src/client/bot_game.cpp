#include "client/bot_game.h"

#include "ai/engine_protocol.h"
#include "core/position.h"
#include "protocol/messages.h"

namespace rainet::client::bot {

std::vector<std::string> observationTokens(const play::HistoryEntry& e) {
    std::vector<std::string> t{e.action};
    if (e.revealed.empty()) return t;
    const bool moverIsOne = e.side == "1";
    char c = e.revealed == "link" ? 'l' : 'v';
    if (!moverIsOne) c = static_cast<char>(c - 'a' + 'A');  // side 1's card: upper case
    t.push_back(std::string("{") + c + "}");
    return t;
}

Result<Knowledge> knowledgeOf(const play::GameState& s) {
    if (!s.isPlayer()) return Error{"not a player of this game"};
    const Side side = s.you == "1" ? Side::One : Side::Two;
    const auto rules = Rules::byName(s.preset);
    if (!rules) return Error{"unknown preset '" + s.preset + "'"};
    std::vector<Square> links;
    for (const auto& name : s.links) {
        auto sq = parseSquare(name);
        if (!sq.ok()) return Error{"bad link square '" + name + "'"};
        links.push_back(*sq);
    }
    const auto mine = protocol::setupMask(side, links);
    if (!mine) return Error{"the server sent no valid arrangement of ours"};
    // The opponent's arrangement is hidden from the side's view: any one gives the same view.
    constexpr std::uint8_t kAny = 0x0F;
    auto start = side == Side::One ? Position::fromSetups(*mine, kAny, *rules)
                                   : Position::fromSetups(kAny, *mine, *rules);
    if (!start.ok()) return start.error();
    const View view = View::of(*start, viewerOf(side));
    InfoSet now(view);
    for (const auto& e : s.history) {
        auto obs = ai::parseObservations(observationTokens(e));
        if (!obs.ok() || obs->size() != 1)
            return Error{"cannot read action " + std::to_string(e.ply) + " '" + e.action + "'"};
        if (auto err = now.observe(obs->front()))
            return Error{"action " + std::to_string(e.ply) + " '" + e.action +
                         "' does not follow: " + err->message};
    }
    return Knowledge{side, *rules, view, std::move(now)};
}

ai::GoLimits limitsOf(const play::GameState& s, const ai::GoLimits& untimed, play::SteadyTime now) {
    using std::chrono::milliseconds;
    if (!s.clocks || !s.initialCs) {
        ai::GoLimits l = untimed;
        if (l.movetime.count()) l.timeout = l.movetime + milliseconds(5000);
        return l;
    }
    ai::GoLimits l;
    const auto since = std::chrono::duration_cast<milliseconds>(now - s.clocks->received).count();
    for (int i = 0; i < 2; ++i) {
        std::int64_t ms = static_cast<std::int64_t>(s.clocks->cs[i]) * 10;
        if (s.clocks->running == std::to_string(i + 1)) ms = std::max<std::int64_t>(0, ms - since);
        l.time[i] = ms;
        if (s.incrementCs && *s.incrementCs)
            l.inc[i] = static_cast<std::int64_t>(*s.incrementCs) * 10;
    }
    const int me = s.you == "2" ? 1 : 0;
    l.timeout = milliseconds(*l.time[me] + 5000);
    return l;
}

}  // namespace rainet::client::bot
