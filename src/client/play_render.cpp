#include "client/play_render.h"

#include <cstdio>
#include <sstream>

#include "core/action.h"
#include "core/view.h"

namespace rainet::client::play {
namespace {

const char* kReset = "\x1b[0m";
const char* kDim = "\x1b[2m";
const char* kBold = "\x1b[1m";
const char* sideColor(int i) {
    return i == 0 ? "\x1b[36m" : "\x1b[31m";  // side 1 cyan, side 2 red
}

std::string paint(const std::string& text, const char* code, bool color) {
    return color ? code + text + kReset : text;
}

// One square: its text (at most 4 visible characters) and the colour to paint it.
struct Cell {
    std::string text;
    const char* code = nullptr;
};

Cell cellAt(const detail::PositionFields& f, Square sq) {
    const Bitboard b = bit(sq);
    for (int i = 0; i < 2; ++i) {
        if (!(f.st.cards[i] & b)) continue;
        std::string t = std::to_string(i + 1);
        t += (f.unknown[i] & b) ? '?' : (f.st.links[i] & b) ? 'L' : 'V';
        if (f.st.boost & b) t += '+';
        if (f.st.faceUp & b) t += '!';
        if (f.st.firewall[i] & b) t += '#';
        return {t, sideColor(i)};
    }
    if (f.st.firewall[0] & b) return {"F1", sideColor(0)};
    if (f.st.firewall[1] & b) return {"F2", sideColor(1)};
    if (kAllExits & b) return {"[]", kDim};
    return {".", kDim};
}

std::string stackText(const detail::PositionFields& f, int i) {
    const Stack& st = f.st.stacks[i];
    std::ostringstream o;
    o << "stack " << st.links() << (st.links() == 1 ? " link " : " links ") << st.viruses()
      << (st.viruses() == 1 ? " virus" : " viruses");
    if (f.unknownEscapes[i]) o << " +" << f.unknownEscapes[i] << " unknown";
    return o.str();
}

std::string cardsText(const detail::PositionFields& f, int i) {
    const Side s = i == 0 ? Side::One : Side::Two;
    std::string t;
    const Bitboard boosted = f.st.boost & f.st.cards[i];
    t += boosted ? "LB on " + squareName(lsb(boosted)) : std::string("LB in hand");
    const Bitboard fw = f.st.firewall[i];
    t += fw ? ", FW on " + squareName(lsb(fw)) : std::string(", FW in hand");
    t += (f.st.unused & checkBit(s)) ? ", VC unused" : ", VC used";
    t += (f.st.unused & notFoundBit(s)) ? ", NF unused" : ", NF used";
    return t;
}

long remainingCs(const GameState& s, int i, SteadyTime now) {
    const Clocks& c = *s.clocks;
    long cs = c.cs[i];
    if (s.status == "playing" && c.running == std::to_string(i + 1) && now > c.received)
        cs -= static_cast<long>(
            std::chrono::duration_cast<std::chrono::milliseconds>(now - c.received).count() / 10);
    return cs;
}

std::string seatLine(const GameState& s, const detail::PositionFields* f, int i,
                     const RenderOptions& o) {
    const std::string side = std::to_string(i + 1);
    std::string line = paint("side " + side, sideColor(i), o.color);
    const auto& seat = s.seats[i];
    if (!seat) {
        line += "  (free seat)";
    } else {
        line += "  " + (seat->name.empty() ? seat->id : seat->name);
        if (seat->rating) line.append(" (").append(std::to_string(*seat->rating)).append(")");
        if (s.you == side) line += " (you)";
        if (seat->bot && !seat->rating) {  // the server's computer (it has no rating)
            if (seat->name.find("computer") == std::string::npos) line += " (computer)";
        } else {
            if (seat->bot) line += " (bot)";  // an account played by a program
            if (!seat->connected && s.you != side) line += " (away)";
        }
    }
    if (s.clocks) {
        line += "  clock " + formatClock(remainingCs(s, i, o.now));
        if (s.status == "playing" && s.clocks->running == side) line += " *";
    }
    if (f) line += "  " + stackText(*f, i) + "  " + cardsText(*f, i);
    return line;
}

std::string reasonText(const std::string& reason) {
    if (reason == "four_links") return "four links in a stack";
    if (reason == "four_viruses") return "four viruses in a stack";
    if (reason == "no_progress") return "no progress";
    if (reason == "resign") return "resignation";
    if (reason == "agreement") return "agreement";
    if (reason == "time") return "time";
    if (reason == "abandoned") return "the opponent left";
    return reason;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : " ") + x;
    return out;
}

}  // namespace

std::string formatClock(long cs) {
    if (cs < 0) cs = 0;
    char buf[32];
    if (cs < 1000)
        std::snprintf(buf, sizeof buf, "%ld:%02ld.%ld", cs / 6000, cs / 100 % 60, cs / 10 % 10);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", cs / 6000, cs / 100 % 60);
    return buf;
}

std::string renderBoard(const detail::PositionFields& f, Side bottom, bool color) {
    const bool flip = bottom == Side::Two;
    std::string files = "   ";
    for (int c = 0; c < 8; ++c) {
        const int file = flip ? 7 - c : c;
        files += std::string(1, static_cast<char>('a' + file)) + "    ";
    }
    while (!files.empty() && files.back() == ' ') files.pop_back();
    std::string out = files + "\n";
    for (int r = 0; r < 8; ++r) {
        const int rank = flip ? r : 7 - r;
        std::string row = std::to_string(rank + 1) + "  ";
        for (int c = 0; c < 8; ++c) {
            const int file = flip ? 7 - c : c;
            const Cell cell = cellAt(f, makeSquare(file, rank));
            row += paint(cell.text, cell.code, color) + std::string(5 - cell.text.size(), ' ');
        }
        out += row + std::to_string(rank + 1) + "\n";
    }
    return out + files + "\n";
}

std::string renderGame(const GameState& s, const RenderOptions& o) {
    std::ostringstream out;
    const bool ended = s.ending.has_value();
    out << paint("game " + s.game, kBold, o.color) << "  " << s.preset << "  ";
    if (s.rated) out << (*s.rated ? "rated  " : "casual  ");
    out << (s.isPlayer()            ? "you are side " + s.you
            : s.opponent == "local" ? std::string("pass and play")
                                    : std::string("you are watching"))
        << "  " << s.status;
    if (s.opponent == "computer" && s.level) out << "  (computer level " << *s.level << ")";
    if (s.initialCs)
        out << "  clock " << formatClock(*s.initialCs) << "+" << *s.incrementCs / 100 << "s";

    // The fields to draw: the full position once the game is over, else the recipient's view.
    std::optional<detail::PositionFields> f;
    std::string problem;
    const Rules rules = Rules::byName(s.preset).value_or(Rules::standard());
    if (ended && !s.ending->position.empty()) {
        auto p = Position::parse(s.ending->position, rules);
        if (p)
            f = detail::PositionFields{p->state(), {0, 0}, {0, 0}};
        else
            problem = "cannot read the final position: " + p.error().message;
    } else if (!s.view.empty()) {
        const Viewer viewer = s.you == "1"   ? Viewer::Side1
                              : s.you == "2" ? Viewer::Side2
                                             : Viewer::Spectator;
        auto v = View::parse(s.view, viewer, rules);
        if (v)
            f = v->fields();
        else
            problem = "cannot read the view: " + v.error().message;
    }
    if (f) out << "  ply " << f->st.ply << "  no progress " << f->st.noProgress;
    out << "\n";

    const Side bottom = s.you == "2" ? Side::Two : Side::One;
    const int top = bottom == Side::One ? 1 : 0;
    const detail::PositionFields* fp = f ? &*f : nullptr;
    out << seatLine(s, fp, top, o) << "\n";
    if (f)
        out << renderBoard(*f, bottom, o.color);
    else if (!problem.empty())
        out << problem << "\n  " << s.view << "\n";
    out << seatLine(s, fp, 1 - top, o) << "\n";

    if (!s.history.empty()) {
        const HistoryEntry& h = s.history.back();
        out << "last: side " << h.side << " played " << h.action;
        if (!h.revealed.empty()) out << " (revealed a " << h.revealed << ")";
        out << "\n";
    }
    if (s.status == "open") {
        out << "waiting for an opponent: they type  join " << s.game << "\n";
    } else if (s.status == "setup") {
        out << "setup: side 1 " << (s.setupDone[0] ? "ready" : "arranging") << ", side 2 "
            << (s.setupDone[1] ? "ready" : "arranging") << "\n";
        if (!s.links.empty()) out << "your links: " << joined(s.links) << "\n";
        if (s.isPlayer() && !s.setupDone[s.you == "2"])
            out << "arrange your cards: setup random, or setup SQ SQ SQ SQ (your links among "
                << (s.you == "1" ? "a1 b1 c1 f1 g1 h1 d2 e2" : "a8 b8 c8 f8 g8 h8 d7 e7") << ")\n";
    } else if (s.status == "playing" && f) {
        const std::string mover = f->st.toMove == Side::One ? "1" : "2";
        out << "side " << mover << " to move" << (mover == s.you ? " (you)" : "") << "\n";
        if (s.myTurn())
            out << paint("your move", kBold, o.color) << ": " << s.legal.size()
                << " legal actions (legal lists them)\n";
    }
    if (!s.drawOffer.empty())
        out << "draw offered by side " << s.drawOffer
            << (s.isPlayer() && s.drawOffer != s.you ? ": accept or decline" : "") << "\n";
    if (ended) {
        const Ending& e = *s.ending;
        out << paint("game over", kBold, o.color) << ": ";
        if (e.reason == "aborted")
            out << "aborted";
        else if (e.winner.empty())
            out << e.result << ", drawn by " << reasonText(e.reason);
        else
            out << e.result << ", side " << e.winner << (e.winner == s.you ? " (you)" : "")
                << " wins by " << reasonText(e.reason);
        out << "\n";
        for (int i = 0; i < 2; ++i)
            if (!e.setups[i].empty())
                out << "side " << i + 1 << "'s links were on " << joined(e.setups[i]) << "\n";
        if (e.ratings[0] || e.ratings[1]) {
            out << "ratings:";
            for (int i = 0; i < 2; ++i) {
                if (!e.ratings[i]) continue;
                const auto& r = *e.ratings[i];
                const auto& seat = s.seats[i];
                out << (i && e.ratings[0] ? "," : "") << " side " << i + 1;
                if (seat && !seat->name.empty()) out << " " << seat->name;
                if (s.you == std::to_string(i + 1)) out << " (you)";
                out << " " << r.before << " -> " << r.after << " ("
                    << ratingDelta(r.before, r.after) << ")";
            }
            out << "\n";
        }
        if (!s.rematchOffer.empty())
            out << "side " << s.rematchOffer << " asks for a rematch"
                << (s.isPlayer() && s.rematchOffer != s.you ? ": accept or decline" : "") << "\n";
        if (!s.nextGame.empty())
            out << "rematch: the new game is " << s.nextGame << "\n";
        else if (s.isPlayer())
            out << "type rematch for another game, or quit\n";
    }
    return out.str();
}

std::string renderChat(const ChatLine& c) {
    return "[" + c.channel + "] " + (c.fromName.empty() ? c.fromId : c.fromName) + ": " + c.text;
}

std::string ratingDelta(int before, int after) {
    const int d = after - before;
    if (d == 0) return "±0";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%+d", d);
    return buf;
}

std::string describeKind(const std::string& preset, const Json& clock, const Json& rated) {
    std::string out = preset.empty() ? std::string("standard") : preset;
    if (clock.is_object() && clock.contains("days"))
        out += ", " + std::to_string(clock.value("days", 0)) + " days per move";
    else if (clock.is_object())
        out += ", clock " + formatClock(clock.value("initial", 0)) + "+" +
               std::to_string(clock.value("increment", 0) / 100) + "s";
    else
        out += ", no clock";
    if (rated.is_boolean()) out += rated.get<bool>() ? ", rated" : ", casual";
    return out;
}

std::string renderLobby(const Json& j) {
    std::ostringstream out;
    const Json games = j.value("games", Json::array());
    const Json seeks = j.value("seeks", Json::array());
    if (!games.is_array() || games.empty()) {
        out << "no open games (new open creates one)\n";
    } else {
        out << "open games (join GAME):\n";
        for (const Json& g : games) {
            if (!g.is_object()) continue;
            const Json creator = g.value("creator", Json::object());
            out << "  " << g.value("game", "") << "  "
                << describeKind(g.value("preset", ""), g.value("clock", Json()),
                                g.value("rated", Json()))
                << "  by " << (creator.is_object() ? creator.value("name", "?") : "?");
            if (creator.is_object() && creator.contains("rating") && creator["rating"].is_number())
                out << " (" << static_cast<int>(creator["rating"].get<double>()) << ")";
            if (creator.is_object() && creator.value("bot", false)) out << " (bot)";
            out << "  creator's side " << g.value("side", "") << "\n";
        }
    }
    if (seeks.is_array() && !seeks.empty()) {
        out << "seeks waiting (seek the same to be paired):\n";
        for (const Json& k : seeks) {
            if (!k.is_object()) continue;
            const int n = k.value("players", 1);
            out << "  "
                << describeKind(k.value("preset", ""), k.value("clock", Json()),
                                k.value("rated", Json()))
                << "  " << n << (n == 1 ? " player" : " players") << "\n";
        }
    }
    return out.str();
}

std::string renderLegal(const GameState& s) {
    return "legal (" + std::to_string(s.legal.size()) + "): " + joined(s.legal) + "\n";
}

std::string renderHistory(const GameState& s) {
    if (s.history.empty()) return "no actions yet\n";
    std::ostringstream out;
    for (const HistoryEntry& h : s.history) {
        out << h.ply + 1 << ". side " << h.side << " " << h.action;
        if (!h.revealed.empty()) out << " (revealed a " << h.revealed << ")";
        out << "\n";
    }
    return out.str();
}

}  // namespace rainet::client::play
