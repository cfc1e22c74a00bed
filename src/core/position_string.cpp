#include "core/position_string.h"

#include <charconv>

namespace rainet::detail {

namespace {

std::string quote(char c) {
    if (c >= 0x21 && c < 0x7f) return std::string("'") + c + "'";
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(c));
    return buf;
}

Error fieldError(const char* field, std::string what, size_t at) {
    return Error{std::string(field) + ": " + what + " at character " + std::to_string(at + 1)};
}

// Splits on single spaces into exactly six fields, remembering where each starts.
bool splitFields(std::string_view text, std::string_view (&out)[6], size_t (&start)[6],
                 Error& err) {
    size_t pos = 0;
    for (int i = 0; i < 6; ++i) {
        size_t end = i < 5 ? text.find(' ', pos) : text.size();
        if (end == std::string_view::npos) {
            err = Error{"position: expected 6 fields separated by single spaces, found " +
                        std::to_string(i + 1)};
            return false;
        }
        out[i] = text.substr(pos, end - pos);
        start[i] = pos;
        static const char* names[6] = {"board",  "side to move",        "once-per-game cards",
                                       "stacks", "no-progress counter", "ply number"};
        if (out[i].empty()) {
            err = fieldError(names[i], "empty field", pos);
            return false;
        }
        pos = end + 1;
    }
    return true;
}

Result<int> parseCounter(const char* field, std::string_view t, size_t at) {
    if (t.size() > 7) return fieldError(field, "number too large", at);
    for (size_t i = 0; i < t.size(); ++i)
        if (t[i] < '0' || t[i] > '9') return fieldError(field, "unexpected " + quote(t[i]), at + i);
    if (t.size() > 1 && t[0] == '0') return fieldError(field, "leading zero", at);
    int v = 0;
    std::from_chars(t.data(), t.data() + t.size(), v);
    return v;
}

}  // namespace

Result<PositionFields> parsePositionFields(std::string_view text, bool allowUnknown) {
    if (text.size() > 200) return Error{"position: longer than any valid position string"};
    std::string_view f[6];
    size_t at[6];
    Error err;
    if (!splitFields(text, f, at, err)) return err;
    PositionFields out;
    PositionState& st = out.st;
    st.unused = 0;

    // Field 1: the board, rank 8 first.
    {
        const std::string_view b = f[0];
        int rank = 7, file = 0;
        for (size_t i = 0; i < b.size(); ++i) {
            const char c = b[i];
            const size_t where = at[0] + i;
            if (c == '/') {
                if (file != 8)
                    return fieldError(
                        "board", "rank " + std::to_string(rank + 1) + " does not have 8 squares",
                        where);
                if (--rank < 0) return fieldError("board", "more than 8 ranks", where);
                file = 0;
                continue;
            }
            if (c >= '1' && c <= '8') {
                if (i > 0 && b[i - 1] >= '1' && b[i - 1] <= '8')
                    return fieldError("board", "two digits in a row (write one run)", where);
                file += c - '0';
                if (file > 8)
                    return fieldError(
                        "board", "rank " + std::to_string(rank + 1) + " has more than 8 squares",
                        where);
                continue;
            }
            if (file >= 8)
                return fieldError("board",
                                  "rank " + std::to_string(rank + 1) + " has more than 8 squares",
                                  where);
            const Square sq = makeSquare(file, rank);
            const Bitboard sb = bit(sq);
            if (c == 'F' || c == 'f') {
                st.firewall[c == 'F' ? 0 : 1] |= sb;
                ++file;
                continue;
            }
            int side;
            bool link = false, unknown = false;
            switch (c) {
                case 'L':
                    side = 0, link = true;
                    break;
                case 'V':
                    side = 0;
                    break;
                case 'l':
                    side = 1, link = true;
                    break;
                case 'v':
                    side = 1;
                    break;
                case 'X':
                case 'x':
                    if (!allowUnknown)
                        return fieldError("board",
                                          "unexpected " + quote(c) + " (X/x appear only in views)",
                                          where);
                    side = c == 'X' ? 0 : 1;
                    unknown = true;
                    break;
                default:
                    return fieldError("board", "unexpected " + quote(c), where);
            }
            st.cards[side] |= sb;
            if (link) st.links[side] |= sb;
            if (unknown) out.unknown[side] |= sb;
            // Marks, each at most once, in the order + ! #.
            int lastMark = -1;
            while (i + 1 < b.size()) {
                const char m = b[i + 1];
                const int order = m == '+' ? 0 : m == '!' ? 1 : m == '#' ? 2 : -1;
                if (order < 0) break;
                if (order <= lastMark)
                    return fieldError("board",
                                      "mark " + quote(m) + " repeated or out of order (+ ! #)",
                                      at[0] + i + 1);
                lastMark = order;
                ++i;
                if (m == '+') st.boost |= sb;
                if (m == '!') {
                    if (unknown)
                        return fieldError("board", "a face-up card cannot be unidentified",
                                          at[0] + i);
                    st.faceUp |= sb;
                }
                if (m == '#') st.firewall[side] |= sb;
            }
            ++file;
        }
        if (rank != 0 || file != 8)
            return fieldError("board",
                              rank != 0 ? "fewer than 8 ranks" : "rank 1 does not have 8 squares",
                              at[0] + b.size());
    }

    // Field 2: side to move.
    if (f[1] == "1")
        st.toMove = Side::One;
    else if (f[1] == "2")
        st.toMove = Side::Two;
    else
        return fieldError("side to move", "expected 1 or 2, found " + quote(f[1][0]), at[1]);

    // Field 3: once-per-game cards, a subsequence of CNcn, or '-'.
    if (f[2] != "-") {
        static constexpr char kOrder[4] = {'C', 'N', 'c', 'n'};
        int next = 0;
        for (size_t i = 0; i < f[2].size(); ++i) {
            int k = next;
            while (k < 4 && kOrder[k] != f[2][i]) ++k;
            if (k == 4)
                return fieldError(
                    "once-per-game cards",
                    "unexpected " + quote(f[2][i]) + " (expected a subsequence of CNcn, or -)",
                    at[2] + i);
            st.unused = static_cast<std::uint8_t>(st.unused | 1 << k);
            next = k + 1;
        }
    }

    // Field 4: stacks "side1/side2".
    {
        const std::string_view s = f[3];
        const size_t slash = s.find('/');
        if (slash == std::string_view::npos)
            return fieldError("stacks", "expected two stacks separated by '/'", at[3]);
        for (int side = 0; side < 2; ++side) {
            std::string_view part = side == 0 ? s.substr(0, slash) : s.substr(slash + 1);
            const size_t base = at[3] + (side == 0 ? 0 : slash + 1);
            if (part.empty()) return fieldError("stacks", "empty stack (write -)", base);
            if (part == "-") continue;
            Stack& k = st.stacks[side];
            const char ownL = side == 0 ? 'L' : 'l', ownV = side == 0 ? 'V' : 'v',
                       ownX = side == 0 ? 'X' : 'x';
            const char oppL = side == 0 ? 'l' : 'L', oppV = side == 0 ? 'v' : 'V';
            for (size_t i = 0; i < part.size(); ++i) {
                const char c = part[i];
                if (part.size() > 16) return fieldError("stacks", "too many cards", base + i);
                if (c == oppL)
                    ++k.capturedLinks;
                else if (c == oppV)
                    ++k.capturedViruses;
                else if (c == ownL)
                    ++k.escapedLinks;
                else if (c == ownV)
                    ++k.escapedViruses;
                else if (c == ownX && allowUnknown)
                    ++out.unknownEscapes[side];
                else
                    return fieldError("stacks",
                                      "unexpected " + quote(c) + " in side " +
                                          std::to_string(side + 1) + "'s stack",
                                      base + i);
            }
        }
    }

    auto np = parseCounter("no-progress counter", f[4], at[4]);
    if (!np) return np.error();
    auto ply = parseCounter("ply number", f[5], at[5]);
    if (!ply) return ply.error();
    st.noProgress = static_cast<std::uint16_t>(*np);
    st.ply = static_cast<std::uint32_t>(*ply);
    return out;
}

std::string formatPositionFields(const PositionFields& f) {
    const PositionState& st = f.st;
    std::string s;
    s.reserve(80);
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Square sq = makeSquare(file, rank);
            const Bitboard b = bit(sq);
            const int side = (st.cards[0] & b) ? 0 : (st.cards[1] & b) ? 1 : -1;
            if (side < 0 && !((st.firewall[0] | st.firewall[1]) & b)) {
                ++empty;
                continue;
            }
            if (empty) s += static_cast<char>('0' + empty), empty = 0;
            if (side < 0) {
                s += (st.firewall[0] & b) ? 'F' : 'f';
                continue;
            }
            char c = (f.unknown[side] & b) ? 'X' : (st.links[side] & b) ? 'L' : 'V';
            s += side == 0 ? c : static_cast<char>(c - 'A' + 'a');
            if (st.boost & b) s += '+';
            if (st.faceUp & b) s += '!';
            if (st.firewall[side] & b) s += '#';
        }
        if (empty) s += static_cast<char>('0' + empty);
        if (rank) s += '/';
    }
    s += st.toMove == Side::One ? " 1 " : " 2 ";
    static constexpr char kOrder[4] = {'C', 'N', 'c', 'n'};
    bool any = false;
    for (int k = 0; k < 4; ++k)
        if (st.unused & (1 << k)) s += kOrder[k], any = true;
    if (!any) s += '-';
    s += ' ';
    for (int side = 0; side < 2; ++side) {
        const Stack& k = st.stacks[side];
        const bool one = side == 0;
        // Links before viruses; within each kind, captures before escapes; unidentified escapes
        // last.
        std::string part;
        part.append(k.capturedLinks, one ? 'l' : 'L');
        part.append(k.escapedLinks, one ? 'L' : 'l');
        part.append(k.capturedViruses, one ? 'v' : 'V');
        part.append(k.escapedViruses, one ? 'V' : 'v');
        part.append(f.unknownEscapes[side], one ? 'X' : 'x');
        s += part.empty() ? "-" : part;
        if (side == 0) s += '/';
    }
    s += ' ' + std::to_string(st.noProgress) + ' ' + std::to_string(st.ply);
    return s;
}

}  // namespace rainet::detail
