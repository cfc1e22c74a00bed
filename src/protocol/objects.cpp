// The shared objects' values from the engine's (objects.h).
#include "protocol/objects.h"

namespace rainet::protocol {

std::optional<ClockSetting> clockSetting(int initial, int increment) {
    if (!initial) return std::nullopt;
    if (isCorrespondence(increment)) return ClockSetting{initial, 0, initial / kDayCs};
    return ClockSetting{initial, increment, std::nullopt};
}

std::vector<std::string> setupSquares(Side s, std::uint8_t links) {
    Bitboard b = 0;
    for (int i = 0; i < 8; ++i)
        if (links & (1u << i)) b |= bit(setupSquare(s, i));
    std::vector<std::string> out;
    while (b) out.emplace_back(squareName(popLsb(b)));
    return out;
}

std::vector<std::string> actionTexts(const ActionList& actions) {
    std::vector<std::string> out;
    out.reserve(actions.size());
    for (Action a : actions) out.push_back(toString(a));
    return out;
}

std::optional<Revealed> revealedOf(const Observation& o) {
    if (!o.revealedLink) return std::nullopt;
    return *o.revealedLink ? Revealed::Link : Revealed::Virus;
}

HistoryEntry historyEntry(int ply, Side side, const Observation& o) {
    return {ply, side, toString(o.action, o.swapKnown ? Notation::Full : Notation::Public),
            revealedOf(o)};
}

std::optional<ChatLine> readChatLine(std::string_view text) {
    const Json j = Json::parse(text, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    auto string = [&](const Json& o, const char* k) -> const std::string* {
        auto it = o.find(k);
        return it != o.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
    };
    auto integer = [&](const char* k) -> std::optional<std::int64_t> {
        auto it = j.find(k);
        if (it == j.end() || !it->is_number_integer()) return std::nullopt;
        return it->get<std::int64_t>();
    };
    const std::string* channel = string(j, "channel");
    const auto from = j.find("from");
    const auto side = j.find("side");
    const std::string* line = string(j, "text");
    const auto n = integer("n"), at = integer("at");
    if (!channel || from == j.end() || !from->is_object() || side == j.end() || !line || !n || !at)
        return std::nullopt;
    const std::string *id = string(*from, "id"), *name = string(*from, "name");
    const auto ch = enumFromName<ChatChannel>(*channel);
    if (!id || !name || !ch) return std::nullopt;
    ChatLine out{*ch, *n, Player{*id, *name, {}, {}, {}, {}, {}}, std::nullopt, *line, *at};
    if (!side->is_null()) {
        if (!side->is_string()) return std::nullopt;
        out.side = enumFromName<Side>(side->get<std::string>());
        if (!out.side) return std::nullopt;
    }
    return out;
}

}  // namespace rainet::protocol
