#include "support/reference_rules.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace rainet::reference {
namespace {

// ---------------------------------------------------------------------------------------------
// Squares and sides

// A square as (file, rank), both 0..7; a1 = (0, 0), h8 = (7, 7).
struct Coord {
    int file = 0;
    int rank = 0;

    bool operator==(const Coord&) const = default;
};

bool onBoard(Coord c) {
    return c.file >= 0 && c.file < 8 && c.rank >= 0 && c.rank < 8;
}

std::string name(Coord c) {
    return std::string{static_cast<char>('a' + c.file), static_cast<char>('1' + c.rank)};
}

int opponent(int side) {
    return 3 - side;
}

// The exits (server ports) of `side`: d1 e1 for side 1, d8 e8 for side 2.
bool isExitOf(int side, Coord c) {
    int backRank = side == 1 ? 0 : 7;
    return c.rank == backRank && (c.file == 3 || c.file == 4);
}

bool isAnyExit(Coord c) {
    return isExitOf(1, c) || isExitOf(2, c);
}

constexpr std::array<Coord, 4> kDirections{{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}};

Coord step(Coord c, Coord d) {
    return {c.file + d.file, c.rank + d.rank};
}

Square& at(State& s, Coord c) {
    return s.board[c.rank][c.file];
}
const Square& at(const State& s, Coord c) {
    return s.board[c.rank][c.file];
}

std::vector<Coord> allSquares() {
    std::vector<Coord> squares;
    for (int rank = 0; rank < 8; ++rank) {
        for (int file = 0; file < 8; ++file) squares.push_back({file, rank});
    }
    return squares;  // in ascending order of rank * 8 + file (a1 = 0), the NF ordering
}

// ---------------------------------------------------------------------------------------------
// Actions

enum class Kind { Move, Escape, BoostAttach, BoostDetach, WallPlace, WallRemove, Check, NotFound };

// One action with its canonical text. `from` is the acting card (Move, Escape), the square acted
// on (LB, FW, VC) or the first NF square; `to` is the destination (Move) or the second NF square.
struct Action {
    Kind kind = Kind::Move;
    Coord from;
    Coord to;
    bool swap = false;  // NF only
    std::string text;
};

// 4.1: may a card of `side` end a step on `c`? (No own card, no opponent firewall, and in
// `standard` not the side's own exit.) An opponent's card there would be captured.
bool canEnter(const State& s, const Options& o, int side, Coord c) {
    const Square& sq = at(s, c);
    if (sq.card.owner == side) return false;
    if (sq.firewall == opponent(side)) return false;
    if (!o.official && isExitOf(side, c)) return false;
    return true;
}

// 4.3 and docs/rules.md: may a boosted card of `side` pass over `c` (the first square of a
// two-square move)? It must be empty, without any firewall, enterable, and in `standard` not an
// opponent's exit (a boosted card reaching one stops there).
bool canPassOver(const State& s, const Options& o, int side, Coord c) {
    const Square& sq = at(s, c);
    if (sq.card.owner != 0 || sq.firewall != 0) return false;
    if (!canEnter(s, o, side, c)) return false;
    if (!o.official && isExitOf(opponent(side), c)) return false;
    return true;
}

void addCardActions(const State& s, const Options& o, Coord from, std::vector<Action>& out) {
    const int side = s.sideToMove;
    const Card& card = at(s, from).card;
    auto addMove = [&](Coord to) {
        out.push_back({Kind::Move, from, to, false, name(from) + "-" + name(to)});
    };
    auto addEscape = [&]() {
        out.push_back({Kind::Escape, from, from, false, name(from) + "-srv"});
    };

    for (Coord d1 : kDirections) {
        Coord first = step(from, d1);
        if (!onBoard(first)) continue;
        if (canEnter(s, o, side, first)) addMove(first);
        if (!card.boosted || !canPassOver(s, o, side, first)) continue;
        for (Coord d2 : kDirections) {
            if (d2.file == -d1.file && d2.rank == -d1.rank) continue;  // never back to the start
            Coord second = step(first, d2);
            if (onBoard(second) && canEnter(s, o, side, second)) addMove(second);
        }
    }

    // 4.2: a card on an opponent's exit may enter the server.
    if (isExitOf(opponent(side), from)) addEscape();

    // docs/rules.md, `official` only: a boosted card next to an empty opponent exit may step onto
    // it and enter the server in the same action.
    if (o.official && card.boosted) {
        for (Coord d : kDirections) {
            Coord exit = step(from, d);
            if (onBoard(exit) && isExitOf(opponent(side), exit) && at(s, exit).card.owner == 0) {
                addEscape();
            }
        }
    }
}

// Every legal action, sorted by text, without duplicates (two boosted paths to one square, or the
// two ways of writing an escape, are one action). Empty when the game is over.
std::vector<Action> generate(const State& s, const Options& o) {
    std::vector<Action> out;
    if (outcome(s, o) != Outcome::Ongoing) return out;

    const int side = s.sideToMove;
    const int other = opponent(side);
    const std::vector<Coord> squares = allSquares();

    std::vector<Coord> ownCards;
    bool boostOnBoard = false;
    bool wallOnBoard = false;
    for (Coord c : squares) {
        const Square& sq = at(s, c);
        if (sq.card.owner == side) {
            ownCards.push_back(c);
            if (sq.card.boosted) boostOnBoard = true;
        }
        if (sq.firewall == side) wallOnBoard = true;
    }

    // Moves and escapes.
    for (Coord c : ownCards) addCardActions(s, o, c, out);

    // LINE BOOST: attach from the hand to an own card, or detach it back into the hand.
    for (Coord c : ownCards) {
        if (!boostOnBoard) {
            out.push_back({Kind::BoostAttach, c, c, false, "LB+" + name(c)});
        } else if (at(s, c).card.boosted) {
            out.push_back({Kind::BoostDetach, c, c, false, "LB-" + name(c)});
        }
    }

    // FIRE WALL: place from the hand, or remove the own one.
    for (Coord c : squares) {
        const Square& sq = at(s, c);
        if (wallOnBoard) {
            if (sq.firewall == side) {
                out.push_back({Kind::WallRemove, c, c, false, "FW-" + name(c)});
            }
            continue;
        }
        if (sq.firewall != 0 || isAnyExit(c)) continue;
        bool cardAllows = sq.card.owner == 0 || (o.official && sq.card.owner == side);
        if (cardAllows) out.push_back({Kind::WallPlace, c, c, false, "FW+" + name(c)});
    }

    // VIRUS CHECKER: reveal a face-down opponent card.
    if (s.virusCheckerUnused[side - 1]) {
        for (Coord c : squares) {
            const Card& card = at(s, c).card;
            if (card.owner == other && !card.faceUp) {
                out.push_back({Kind::Check, c, c, false, "VC+" + name(c)});
            }
        }
    }

    // 404 NOT FOUND: two different own cards (ownCards is in ascending index order).
    if (s.notFoundUnused[side - 1]) {
        for (size_t i = 0; i < ownCards.size(); ++i) {
            for (size_t j = i + 1; j < ownCards.size(); ++j) {
                std::string squaresText = "NF+" + name(ownCards[i]) + name(ownCards[j]);
                out.push_back(
                    {Kind::NotFound, ownCards[i], ownCards[j], true, squaresText + ":swap"});
                out.push_back(
                    {Kind::NotFound, ownCards[i], ownCards[j], false, squaresText + ":keep"});
            }
        }
    }

    std::sort(out.begin(), out.end(),
              [](const Action& a, const Action& b) { return a.text < b.text; });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const Action& a, const Action& b) { return a.text == b.text; }),
              out.end());
    return out;
}

void putIntoStack(Stack& stack, bool virus, bool captured) {
    if (captured) {
        (virus ? stack.capturedViruses : stack.capturedLinks)++;
    } else {
        (virus ? stack.escapedViruses : stack.escapedLinks)++;
    }
}

// Plays a legal action. A captured or escaped card leaves the board with its LB flag, which puts
// LB back into its owner's hand.
State execute(const State& before, const Action& a) {
    State s = before;
    const int side = s.sideToMove;
    bool progress = false;

    switch (a.kind) {
        case Kind::Move: {
            Card mover = at(s, a.from).card;
            Card& target = at(s, a.to).card;
            if (target.owner == opponent(side)) {
                putIntoStack(s.stacks[side - 1], target.virus, /*captured=*/true);
                progress = true;
            }
            target = mover;
            at(s, a.from).card = Card{};
            break;
        }
        case Kind::Escape: {
            putIntoStack(s.stacks[side - 1], at(s, a.from).card.virus, /*captured=*/false);
            at(s, a.from).card = Card{};
            progress = true;
            break;
        }
        case Kind::BoostAttach:
            at(s, a.from).card.boosted = true;
            break;
        case Kind::BoostDetach:
            at(s, a.from).card.boosted = false;
            break;
        case Kind::WallPlace:
            at(s, a.from).firewall = side;
            break;
        case Kind::WallRemove:
            at(s, a.from).firewall = 0;
            break;
        case Kind::Check: {
            at(s, a.from).card.faceUp = true;
            s.virusCheckerUnused[side - 1] = false;
            break;
        }
        case Kind::NotFound: {
            Card& first = at(s, a.from).card;
            Card& second = at(s, a.to).card;
            if (a.swap) std::swap(first.virus, second.virus);  // LB stays on its square
            first.faceUp = false;
            second.faceUp = false;
            s.notFoundUnused[side - 1] = false;
            break;
        }
    }

    s.noProgress = progress ? 0 : s.noProgress + 1;
    s.ply += 1;
    s.sideToMove = opponent(side);
    return s;
}

uint64_t perftOf(const State& s, int depth, const Options& o) {
    if (depth <= 0) return 1;
    std::vector<Action> actions = generate(s, o);
    if (depth == 1) return actions.size();
    uint64_t total = 0;
    for (const Action& a : actions) total += perftOf(execute(s, a), depth - 1, o);
    return total;
}

// ---------------------------------------------------------------------------------------------
// Position strings

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        size_t end = text.find(separator, start);
        if (end == std::string_view::npos) {
            parts.push_back(text.substr(start));
            return parts;
        }
        parts.push_back(text.substr(start, end - start));
        start = end + 1;
    }
}

// A non-negative decimal number without sign or leading zeros.
std::optional<int> parseNumber(std::string_view text) {
    if (text.empty() || text.size() > 9) return std::nullopt;
    if (text.size() > 1 && text[0] == '0') return std::nullopt;
    int value = 0;
    for (char ch : text) {
        if (ch < '0' || ch > '9') return std::nullopt;
        value = value * 10 + (ch - '0');
    }
    return value;
}

bool parseRank(std::string_view text, std::array<Square, 8>& rank) {
    int file = 0;
    bool previousWasDigit = false;
    size_t i = 0;
    while (i < text.size()) {
        char ch = text[i++];
        if (file >= 8) return false;
        if (ch >= '1' && ch <= '8') {
            if (previousWasDigit) return false;  // runs of empty squares are one digit
            file += ch - '0';
            if (file > 8) return false;
            previousWasDigit = true;
            continue;
        }
        previousWasDigit = false;
        Square& sq = rank[file++];
        if (ch == 'F' || ch == 'f') {
            sq.firewall = ch == 'F' ? 1 : 2;
            continue;
        }
        if (ch != 'L' && ch != 'V' && ch != 'l' && ch != 'v') return false;
        sq.card.owner = std::isupper(static_cast<unsigned char>(ch)) ? 1 : 2;
        sq.card.virus = ch == 'V' || ch == 'v';
        // Marks, each optional, in the order + ! #.
        if (i < text.size() && text[i] == '+') {
            sq.card.boosted = true;
            ++i;
        }
        if (i < text.size() && text[i] == '!') {
            sq.card.faceUp = true;
            ++i;
        }
        if (i < text.size() && text[i] == '#') {
            sq.firewall = sq.card.owner;
            ++i;
        }
    }
    return file == 8;
}

bool parseStack(std::string_view text, int side, Stack& stack) {
    if (text == "-") return true;
    if (text.empty()) return false;
    for (char ch : text) {
        if (ch != 'L' && ch != 'V' && ch != 'l' && ch != 'v') return false;
        int owner = std::isupper(static_cast<unsigned char>(ch)) ? 1 : 2;
        putIntoStack(stack, ch == 'V' || ch == 'v', /*captured=*/owner != side);
    }
    return true;
}

// The validity rules of docs/rules.md that do not depend on the preset.
bool isValid(const State& s) {
    for (int side = 1; side <= 2; ++side) {
        const Stack& own = s.stacks[side - 1];
        const Stack& theirs = s.stacks[opponent(side) - 1];
        int links = own.escapedLinks + theirs.capturedLinks;
        int viruses = own.escapedViruses + theirs.capturedViruses;
        int boosts = 0, walls = 0, faceUp = 0;
        for (Coord c : allSquares()) {
            const Square& sq = at(s, c);
            if (sq.firewall == side) {
                ++walls;
                if (isAnyExit(c)) return false;
            }
            if (sq.card.owner != side) continue;
            (sq.card.virus ? viruses : links)++;
            if (sq.card.boosted) ++boosts;
            if (sq.card.faceUp) ++faceUp;
        }
        if (links != 4 || viruses != 4) return false;
        if (own.links() > 4 || own.viruses() > 4) return false;
        if (boosts > 1 || walls > 1 || faceUp > 1) return false;
        if (faceUp > 0 && s.virusCheckerUnused[opponent(side) - 1]) return false;
    }
    int decided = 0;
    for (const Stack& stack : s.stacks) decided += (stack.links() >= 4) + (stack.viruses() >= 4);
    if (decided > 1) return false;
    if (s.sideToMove != (s.ply % 2 == 0 ? 1 : 2)) return false;
    if (s.noProgress > s.ply) return false;
    return true;
}

std::string formatStack(const Stack& stack, int side) {
    auto letter = [](char base, int owner) {
        return static_cast<char>(owner == 1 ? std::toupper(base) : base);
    };
    const int other = opponent(side);
    std::string text;
    // docs/rules.md: links before viruses; within a kind, captures before escapes.
    text += std::string(stack.capturedLinks, letter('l', other));
    text += std::string(stack.escapedLinks, letter('l', side));
    text += std::string(stack.capturedViruses, letter('v', other));
    text += std::string(stack.escapedViruses, letter('v', side));
    return text.empty() ? "-" : text;
}

}  // namespace

// -------------------------------------------------------------------------------------------------
// Public API

std::optional<State> parse(std::string_view positionString) {
    std::vector<std::string_view> fields = split(positionString, ' ');
    if (fields.size() != 6) return std::nullopt;
    State s;

    // 1. Board, rank 8 first.
    std::vector<std::string_view> ranks = split(fields[0], '/');
    if (ranks.size() != 8) return std::nullopt;
    for (int i = 0; i < 8; ++i) {
        if (!parseRank(ranks[i], s.board[7 - i])) return std::nullopt;
    }

    // 2. Side to move.
    if (fields[1] == "1") {
        s.sideToMove = 1;
    } else if (fields[1] == "2") {
        s.sideToMove = 2;
    } else {
        return std::nullopt;
    }

    // 3. Once-per-game cards: a subsequence of CNcn, or '-'.
    s.virusCheckerUnused = {false, false};
    s.notFoundUnused = {false, false};
    if (fields[2] != "-") {
        std::string_view order = "CNcn";
        size_t next = 0;
        if (fields[2].empty()) return std::nullopt;
        for (char ch : fields[2]) {
            size_t pos = order.find(ch, next);
            if (pos == std::string_view::npos) return std::nullopt;
            next = pos + 1;
            if (ch == 'C') s.virusCheckerUnused[0] = true;
            if (ch == 'N') s.notFoundUnused[0] = true;
            if (ch == 'c') s.virusCheckerUnused[1] = true;
            if (ch == 'n') s.notFoundUnused[1] = true;
        }
    }

    // 4. Stacks.
    std::vector<std::string_view> stacks = split(fields[3], '/');
    if (stacks.size() != 2) return std::nullopt;
    if (!parseStack(stacks[0], 1, s.stacks[0]) || !parseStack(stacks[1], 2, s.stacks[1])) {
        return std::nullopt;
    }

    // 5, 6. Counters.
    std::optional<int> noProgress = parseNumber(fields[4]);
    std::optional<int> ply = parseNumber(fields[5]);
    if (!noProgress || !ply) return std::nullopt;
    s.noProgress = *noProgress;
    s.ply = *ply;

    if (!isValid(s)) return std::nullopt;
    return s;
}

std::string format(const State& s) {
    std::string text;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Square& sq = s.board[rank][file];
            if (sq.card.owner == 0 && sq.firewall == 0) {
                ++empty;
                continue;
            }
            if (empty > 0) text += static_cast<char>('0' + empty);
            empty = 0;
            if (sq.card.owner == 0) {
                text += sq.firewall == 1 ? 'F' : 'f';
                continue;
            }
            char letter = sq.card.virus ? 'v' : 'l';
            text += sq.card.owner == 1 ? static_cast<char>(std::toupper(letter)) : letter;
            if (sq.card.boosted) text += '+';
            if (sq.card.faceUp) text += '!';
            if (sq.firewall == sq.card.owner) text += '#';
        }
        if (empty > 0) text += static_cast<char>('0' + empty);
        if (rank > 0) text += '/';
    }

    text += s.sideToMove == 1 ? " 1 " : " 2 ";

    std::string unused;
    if (s.virusCheckerUnused[0]) unused += 'C';
    if (s.notFoundUnused[0]) unused += 'N';
    if (s.virusCheckerUnused[1]) unused += 'c';
    if (s.notFoundUnused[1]) unused += 'n';
    text += unused.empty() ? "-" : unused;

    text += ' ' + formatStack(s.stacks[0], 1) + '/' + formatStack(s.stacks[1], 2);
    text += ' ' + std::to_string(s.noProgress) + ' ' + std::to_string(s.ply);
    return text;
}

std::vector<std::string> legalActions(const State& state, const Options& options) {
    std::vector<std::string> texts;
    for (const Action& a : generate(state, options)) texts.push_back(a.text);
    return texts;  // already sorted and unique
}

std::optional<State> apply(const State& state, std::string_view action, const Options& options) {
    for (const Action& a : generate(state, options)) {
        if (a.text == action) return execute(state, a);
    }
    return std::nullopt;
}

uint64_t perft(const State& state, int depth, const Options& options) {
    return perftOf(state, depth, options);
}

Outcome outcome(const State& s, const Options& o) {
    for (int side = 1; side <= 2; ++side) {
        const Stack& stack = s.stacks[side - 1];
        Outcome win = side == 1 ? Outcome::Side1Wins : Outcome::Side2Wins;
        Outcome loss = side == 1 ? Outcome::Side2Wins : Outcome::Side1Wins;
        if (stack.links() >= 4) return win;
        if (stack.viruses() >= 4) return loss;
    }
    if (o.noProgressLimit > 0 && s.noProgress >= o.noProgressLimit) return Outcome::Draw;
    return Outcome::Ongoing;
}

}  // namespace rainet::reference
