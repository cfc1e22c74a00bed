#include "core/action.h"

#include <algorithm>

namespace rainet {

std::string squareName(Square s) {
    return std::string{static_cast<char>('a' + fileOf(s)), static_cast<char>('1' + rankOf(s))};
}

Result<Square> parseSquare(std::string_view t) {
    if (t.size() != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8')
        return Error{"bad square '" + std::string(t) + "'"};
    return makeSquare(t[0] - 'a', t[1] - '1');
}

void appendTo(std::string& out, Action a, Notation n) {
    auto square = [&out](Square s) {
        out += static_cast<char>('a' + fileOf(s));
        out += static_cast<char>('1' + rankOf(s));
    };
    switch (a.type()) {
        case ActionType::Move:
            square(a.from());
            out += '-';
            square(a.to());
            return;
        case ActionType::Enter:
            square(a.from());
            out += "-srv";
            return;
        case ActionType::BoostAttach:
            out += "LB+";
            break;
        case ActionType::BoostDetach:
            out += "LB-";
            break;
        case ActionType::FirewallPlace:
            out += "FW+";
            break;
        case ActionType::FirewallRemove:
            out += "FW-";
            break;
        case ActionType::Check:
            out += "VC+";
            break;
        case ActionType::NotFound:
            out += "NF+";
            square(a.from());
            square(a.to());
            if (n == Notation::Full) out += a.swap() ? ":swap" : ":keep";
            return;
        default:
            out += '?';
            return;
    }
    square(a.from());
}

std::string toString(Action a, Notation n) {
    std::string s;
    appendTo(s, a, n);
    return s;
}

Result<Action> parseAction(std::string_view t, bool allowPublicNotFound) {
    auto bad = [&](const char* why) {
        return Error{"bad action '" + std::string(t.substr(0, 40)) + "': " + why};
    };
    if (t.size() < 5) return bad("too short");
    if (t.size() > 16) return bad("too long");
    auto sq = [&](size_t pos) -> Result<Square> {
        if (pos + 2 > t.size()) return Error{"missing square"};
        return parseSquare(t.substr(pos, 2));
    };
    std::string_view head = t.substr(0, 3);
    if (head == "LB+" || head == "LB-" || head == "FW+" || head == "FW-" || head == "VC+") {
        if (t.size() != 5) return bad("expected one square after the card");
        auto s = sq(3);
        if (!s) return bad("bad square");
        if (head == "LB+") return Action::boostAttach(*s);
        if (head == "LB-") return Action::boostDetach(*s);
        if (head == "FW+") return Action::firewallPlace(*s);
        if (head == "FW-") return Action::firewallRemove(*s);
        return Action::check(*s);
    }
    if (head == "NF+") {
        if (t.size() < 7) return bad("expected two squares");
        auto a = sq(3), b = sq(5);
        if (!a || !b) return bad("bad square");
        if (*a >= *b) return bad("squares must differ and be in ascending order");
        std::string_view rest = t.substr(7);
        if (rest == ":swap") return Action::notFound(*a, *b, true);
        if (rest == ":keep") return Action::notFound(*a, *b, false);
        if (rest.empty() && allowPublicNotFound) return Action::notFound(*a, *b, false);
        return bad(rest.empty() ? "missing :swap or :keep" : "expected :swap or :keep");
    }
    auto from = sq(0);
    if (!from || t[2] != '-') return bad("unknown form");
    if (t.substr(3) == "srv") return Action::enter(*from);
    if (t.size() != 5) return bad("unknown form");
    auto to = sq(3);
    if (!to) return bad("bad destination square");
    if (*to == *from) return bad("a move needs two different squares");
    return Action::move(*from, *to);
}

bool ActionList::contains(Action a) const {
    return std::find(begin(), end(), a) != end();
}

}  // namespace rainet
