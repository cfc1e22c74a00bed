#include "core/record.h"

#include <algorithm>

#include "core/game_facts.h"
#include "core/view.h"

namespace rainet {

namespace {

std::string escapeTag(const std::string& v) {
    std::string out;
    for (char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n' || c == '\r') c = ' ';
        out += c;
    }
    return out;
}

Outcome parseResult(std::string_view s, bool& ok) {
    const Outcome o = outcomeOf(s);
    ok = o != Outcome::Ongoing || s == "*";
    return o;
}

// Writes tags and movetext; `rendered` gives each ply's action text.
template <class Render>
std::string write(const Record& r, bool full, Render rendered) {
    std::string out;
    auto tagLine = [&](const std::string& n, const std::string& v) {
        out += "[" + n + " \"" + escapeTag(v) + "\"]\n";
    };
    for (const auto& [n, v] : r.tags) tagLine(n, v);
    // A preset plus, when it differs from the presets' 100, the no-progress limit.
    Rules preset = r.rules;
    preset.noProgressLimit = Rules::standard().noProgressLimit;
    tagLine("Preset", preset.name());
    if (r.rules.noProgressLimit != preset.noProgressLimit)
        tagLine("NoProgressLimit", std::to_string(r.rules.noProgressLimit));
    tagLine("Result", resultString(r.result));
    if (!r.termination.empty()) tagLine("Termination", r.termination);
    if (r.startPosition)
        tagLine("Position", *r.startPosition);
    else if (full)
        tagLine("Setup1", setupString(r.setup1)), tagLine("Setup2", setupString(r.setup2));
    out += "\n";
    std::string line;
    for (std::size_t i = 0; i < r.actions.size(); ++i) {
        std::string tok;
        if (i % 2 == 0) tok = std::to_string(i / 2 + 1) + ". ";
        tok += rendered(i);
        if (!line.empty() && line.size() + tok.size() + 1 > 80) out += line + "\n", line.clear();
        line += (line.empty() ? "" : " ") + tok;
    }
    const std::string res = resultString(r.result);
    if (!line.empty() && line.size() + res.size() + 1 > 80) out += line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + res;
    out += line + "\n";
    return out;
}
}  // namespace

std::string Record::tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return v;
    return "";
}

void Record::setTag(std::string name, std::string value) {
    for (auto& [n, v] : tags)
        if (n == name) {
            v = std::move(value);
            return;
        }
    tags.emplace_back(std::move(name), std::move(value));
}

std::string setupString(std::uint8_t links) {
    std::string s;
    for (int i = 0; i < 8; ++i) s += ((links >> i) & 1) ? 'L' : 'V';
    return s;
}

Result<std::uint8_t> parseSetupString(std::string_view s) {
    if (s.size() != 8) return Error{"setup: expected 8 letters L or V"};
    std::uint8_t links = 0;
    for (int i = 0; i < 8; ++i) {
        if (s[i] == 'L')
            links |= static_cast<std::uint8_t>(1u << i);
        else if (s[i] != 'V')
            return Error{"setup: unexpected '" + std::string(1, s[i]) + "' (expected L or V)"};
    }
    if (std::popcount(links) != 4) return Error{"setup: expected exactly 4 links"};
    return links;
}

const char* endReasonName(EndReason r) {
    switch (r) {
        case EndReason::FourLinks:
            return "four-links";
        case EndReason::FourViruses:
            return "four-viruses";
        case EndReason::NoProgress:
            return "no-progress";
        case EndReason::None:
            break;
    }
    return "";
}

Result<Position> Record::initialPosition() const {
    if (startPosition) return Position::parse(*startPosition, rules);
    return Position::fromSetups(setup1, setup2, rules);
}

Result<Position> replay(const Record& r) {
    if (r.isPublic)
        return Error{"record: a public record hides identities and cannot be replayed in full"};
    auto start = r.initialPosition();
    if (!start) return start.error();
    Position p = *start;
    for (std::size_t i = 0; i < r.actions.size(); ++i) {
        if (!p.isLegal(r.actions[i]))
            return Error{"record: ply " + std::to_string(i + 1) + ": " + toString(r.actions[i]) +
                         (p.isOver() ? " after the game ended" : " is not legal")};
        p.doAction(r.actions[i]);
    }
    const bool rulesEnding = r.termination == "four-links" || r.termination == "four-viruses" ||
                             r.termination == "no-progress";
    if (rulesEnding && (p.outcome() != r.result || r.termination != endReasonName(p.endReason())))
        return Error{"record: the final position does not give " +
                     std::string(resultString(r.result)) + " by " + r.termination};
    if (p.isOver() && r.result != p.outcome())
        return Error{"record: the game ended " + std::string(resultString(p.outcome())) +
                     " but the record says " + resultString(r.result)};
    if (!p.isOver() && rulesEnding) return Error{"record: the game is not over"};
    return p;
}

std::string writeFullRecord(const Record& r) {
    auto start = r.initialPosition();
    Position p = start ? *start : Position::start(r.rules);
    return write(r, true, [&](std::size_t i) {
        const Action a = r.actions[i];
        std::string s =
            start && p.isLegal(a) ? toString(observe(p, a, viewerOf(p.toMove())), p) : toString(a);
        if (start && p.isLegal(a)) p.doAction(a);
        return s;
    });
}

std::string writePublicRecord(const Record& r) {
    auto start = r.initialPosition();
    Position p = start ? *start : Position::start(r.rules);
    Record pub = r;
    pub.isPublic = true;
    if (pub.startPosition && start)
        pub.startPosition = View::of(*start, Viewer::Spectator).toString();
    return write(pub, false, [&](std::size_t i) {
        const Action a = r.actions[i];
        if (!start || !p.isLegal(a)) return toString(a, Notation::Public);
        std::string s = toString(observe(p, a, Viewer::Spectator), p);
        p.doAction(a);
        return s;
    });
}

Result<Record> parseRecord(std::string_view text) {
    if (text.size() > (1 << 20)) return Error{"record: larger than 1 MiB"};
    Record r;
    r.isPublic = true;
    bool haveSetup1 = false, haveSetup2 = false, haveResult = false;
    std::optional<int> noProgressLimit;
    std::size_t pos = 0;
    int lineNo = 0;
    auto lineErr = [&](const std::string& m) {
        return Error{"record: line " + std::to_string(lineNo) + ": " + m};
    };
    // Tag section.
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line[0] != '[') break;
        ++lineNo;
        pos = end + 1;
        const std::size_t sp = line.find(' ');
        if (line.back() != ']' || sp == std::string_view::npos || line.size() < sp + 4 ||
            line[sp + 1] != '"' || line[line.size() - 2] != '"')
            return lineErr("malformed tag");
        const std::string name(line.substr(1, sp - 1));
        std::string value;
        for (std::size_t i = sp + 2; i + 2 < line.size(); ++i) {
            if (line[i] == '\\' && i + 3 < line.size()) ++i;
            value += line[i];
        }
        if (name == "Preset") {
            auto rules = Rules::byName(value);
            if (!rules) return lineErr("unknown preset '" + value + "'");
            r.rules = *rules;
        } else if (name == "NoProgressLimit") {
            if (value.empty() || value.size() > 6 ||
                value.find_first_not_of("0123456789") != std::string::npos)
                return lineErr("bad no-progress limit '" + value + "'");
            noProgressLimit = std::stoi(value);
        } else if (name == "Result") {
            bool ok;
            r.result = parseResult(value, ok);
            if (!ok) return lineErr("bad result '" + value + "'");
            haveResult = true;
        } else if (name == "Termination") {
            r.termination = value;
        } else if (name == "Setup1" || name == "Setup2") {
            auto s = parseSetupString(value);
            if (!s) return lineErr(s.error().message);
            (name == "Setup1" ? r.setup1 : r.setup2) = *s;
            (name == "Setup1" ? haveSetup1 : haveSetup2) = true;
        } else if (name == "Position") {
            r.startPosition = value;
        } else {
            r.setTag(name, value);
        }
    }
    if (noProgressLimit) r.rules.noProgressLimit = *noProgressLimit;  // whatever the tag order
    if (!haveResult) return Error{"record: missing Result tag"};
    if (haveSetup1 != haveSetup2) return Error{"record: needs both Setup1 and Setup2"};
    r.isPublic = !haveSetup1 && !r.startPosition;
    if (r.startPosition) {
        auto p = Position::parse(*r.startPosition, r.rules);
        if (!p) {
            auto v = View::parse(*r.startPosition, Viewer::Spectator, r.rules);
            if (!v) return Error{"record: Position tag: " + p.error().message};
            r.isPublic = true;
        }
    }
    // Movetext: move numbers, actions with optional {X} reveals, the result last.
    std::string_view body = text.substr(std::min(pos, text.size()));
    std::size_t i = 0;
    bool sawResult = false;
    while (i < body.size()) {
        while (i < body.size() &&
               (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t'))
            ++i;
        if (i >= body.size()) break;
        if (sawResult) return Error{"record: text after the result"};
        if (body[i] == '{') {
            const std::size_t close = body.find('}', i);
            if (close == std::string_view::npos) return Error{"record: unclosed {"};
            i = close + 1;
            continue;
        }
        std::size_t j = i;
        while (j < body.size() && body[j] != ' ' && body[j] != '\n' && body[j] != '\r' &&
               body[j] != '\t')
            ++j;
        std::string_view tok = body.substr(i, j - i);
        i = j;
        if (tok.back() == '.' && tok.find_first_not_of("0123456789") == tok.size() - 1) continue;
        bool isResult;
        const Outcome o = parseResult(tok, isResult);
        if (isResult) {
            if (o != r.result) return Error{"record: movetext result differs from the Result tag"};
            sawResult = true;
            continue;
        }
        auto a = parseAction(tok, r.isPublic);
        if (!a)
            return Error{"record: ply " + std::to_string(r.actions.size() + 1) + ": " +
                         a.error().message};
        r.actions.push_back(*a);
    }
    if (!sawResult) return Error{"record: the movetext does not end with the result"};
    return r;
}

}  // namespace rainet
