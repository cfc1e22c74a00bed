#include "api.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ai/analysis.h"
#include "ai/bench.h"
#include "ai/bot.h"
#include "ai/engine_protocol.h"
#include "core/perft.h"
#include "core/record.h"
#include "core/view.h"

namespace rainet::wasm {

namespace {

// The answer's JSON, written by hand: core and ai carry no JSON library.
void quote(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

std::string errorAnswer(std::string_view message) {
    std::string out = "{\"error\":";
    quote(out, message);
    return out + "}";
}

// The shortest decimal that reads back as the same double (the same text natively and in wasm).
void number(std::string& out, double x) {
    char buf[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    out += buf;
}

// Three decimals, as the server's analysis endpoint rounds (src/server/analysis.cpp).
double rounded(double x) {
    return std::round(x * 1000.0) / 1000.0;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t from = 0;
    while (true) {
        const std::size_t at = s.find(sep, from);
        parts.push_back(
            s.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
        if (at == std::string_view::npos) return parts;
        from = at + 1;
    }
}

Result<std::uint64_t> parseNumber(std::string_view text, std::string_view what) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty())
        return Error{std::string(what) + ": not a number: '" + std::string(text) + "'"};
    return n;
}

Result<Rules> parseRules(std::string_view name) {
    auto rules = Rules::byName(name);
    if (!rules) return Error{"rules must be standard or official, not '" + std::string(name) + "'"};
    return *rules;
}

Result<Side> parseSideNumber(std::string_view text) {
    if (text == "1") return Side::One;
    if (text == "2") return Side::Two;
    return Error{"side must be 1 or 2, not '" + std::string(text) + "'"};
}

Result<Position> parsePosition(std::string_view rules, std::string_view text) {
    auto r = parseRules(rules);
    if (!r) return r.error();
    return Position::parse(text, *r);
}

std::string stateFields(const Position& p) {
    std::string out = "\"position\":";
    quote(out, p.toString());
    out += ",\"to_move\":" + std::to_string(sideNumber(p.toMove()));
    out += ",\"ply\":" + std::to_string(p.ply());
    out += std::string(",\"over\":") + (p.isOver() ? "true" : "false");
    out += ",\"result\":";
    quote(out, resultString(p.outcome()));
    out += ",\"reason\":";
    quote(out, endReasonName(p.endReason()));
    return out;
}

using Args = std::vector<std::string_view>;

std::string start(const Args& a) {
    if (a.size() != 4) return errorAnswer("usage: start RULES SETUP1 SETUP2");
    auto rules = parseRules(a[1]);
    if (!rules) return errorAnswer(rules.error().message);
    auto s1 = parseSetupString(a[2]);
    if (!s1) return errorAnswer("setup 1: " + s1.error().message);
    auto s2 = parseSetupString(a[3]);
    if (!s2) return errorAnswer("setup 2: " + s2.error().message);
    auto p = Position::fromSetups(*s1, *s2, *rules);
    if (!p) return errorAnswer(p.error().message);
    return "{" + stateFields(*p) + "}";
}

std::string state(const Args& a) {
    if (a.size() != 3) return errorAnswer("usage: state RULES POSITION");
    auto p = parsePosition(a[1], a[2]);
    if (!p) return errorAnswer(p.error().message);
    return "{" + stateFields(*p) + "}";
}

std::string legal(const Args& a) {
    if (a.size() != 3) return errorAnswer("usage: legal RULES POSITION");
    auto p = parsePosition(a[1], a[2]);
    if (!p) return errorAnswer(p.error().message);
    std::vector<std::string> lines;
    if (!p->isOver())
        for (Action action : p->legalActions()) lines.push_back(toString(action));
    std::sort(lines.begin(), lines.end());
    std::string out = "{\"actions\":[";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i) out += ',';
        quote(out, lines[i]);
    }
    return out + "]}";
}

std::string apply(const Args& a) {
    if (a.size() != 4) return errorAnswer("usage: apply RULES POSITION ACTION");
    auto p = parsePosition(a[1], a[2]);
    if (!p) return errorAnswer(p.error().message);
    auto action = parseAction(a[3]);
    if (!action) return errorAnswer(action.error().message);
    if (p->isOver()) return errorAnswer("the game is over");
    if (!p->isLegal(*action))
        return errorAnswer("not a legal action for side " +
                           std::to_string(sideNumber(p->toMove())));
    const Side mover = p->toMove();
    std::string out = "{\"observed\":[";
    for (Side s : {Side::One, Side::Two}) {
        if (s == Side::Two) out += ',';
        quote(out, ai::formatObservation(observe(*p, *action, viewerOf(s)), mover));
    }
    out += "],";
    p->doAction(*action);
    return out + stateFields(*p) + "}";
}

std::string view(const Args& a) {
    if (a.size() != 4) return errorAnswer("usage: view RULES POSITION VIEWER");
    auto p = parsePosition(a[1], a[2]);
    if (!p) return errorAnswer(p.error().message);
    auto viewer = parseViewer(a[3]);
    if (!viewer) return errorAnswer("the viewer must be 1, 2 or spectator");
    std::string out = "{\"view\":";
    quote(out, View::of(*p, *viewer).toString());
    return out + "}";
}

std::string perftAnswer(const Args& a) {
    if (a.size() != 4) return errorAnswer("usage: perft RULES POSITION DEPTH");
    auto p = parsePosition(a[1], a[2]);
    if (!p) return errorAnswer(p.error().message);
    auto depth = parseNumber(a[3], "depth");
    if (!depth) return errorAnswer(depth.error().message);
    if (*depth > 6) return errorAnswer("depth: at most 6");
    return "{\"nodes\":" + std::to_string(perft(*p, static_cast<int>(*depth))) + "}";
}

// The bot's player of `setup` and `think`: RULES SIDE BOT, their first three arguments.
struct Player {
    Rules rules;
    Side side;
    std::unique_ptr<ai::Bot> bot;
};

Result<Player> parsePlayer(const Args& a) {
    auto rules = parseRules(a[1]);
    if (!rules) return rules.error();
    auto side = parseSideNumber(a[2]);
    if (!side) return side.error();
    auto bot = ai::makeBot(a[3]);
    if (!bot) return Error{"unknown bot '" + std::string(a[3]) + "'"};
    return Player{*rules, *side, std::move(bot)};
}

std::string setup(const Args& a) {
    if (a.size() != 5) return errorAnswer("usage: setup RULES SIDE BOT SEED");
    auto player = parsePlayer(a);
    if (!player) return errorAnswer(player.error().message);
    auto seed = parseNumber(a[4], "seed");
    if (!seed) return errorAnswer(seed.error().message);
    Rng rng(*seed);
    std::string out = "{\"setup\":";
    quote(out, setupString(player->bot->chooseSetup(player->side, player->rules, rng)));
    return out + "}";
}

std::string think(const Args& a) {
    if (a.size() != 7) return errorAnswer("usage: think RULES SIDE BOT NODES SEED KNOWLEDGE");
    auto player = parsePlayer(a);
    if (!player) return errorAnswer(player.error().message);
    const Side side = player->side;
    auto& bot = player->bot;
    auto nodes = parseNumber(a[4], "nodes");
    if (!nodes) return errorAnswer(nodes.error().message);
    auto seed = parseNumber(a[5], "seed");
    if (!seed) return errorAnswer(seed.error().message);
    std::vector<std::string> words{"position"};
    for (std::string_view w : split(a[6], ' '))
        if (!w.empty()) words.emplace_back(w);
    auto knowledge = ai::parsePositionCommand(words, side, player->rules);
    if (!knowledge) return errorAnswer(knowledge.error().message);
    if (knowledge->view().toMove() != side) return errorAnswer("it is not that side's turn");
    if (knowledge->view().legalActions().empty()) return errorAnswer("no legal action");
    ai::SearchInfo last;
    bot->setInfoCallback([&](const ai::SearchInfo& info) { last = info; });
    ai::Budget budget;
    budget.nodes = *nodes;
    Rng rng(*seed);
    const Action action = bot->chooseAction(*knowledge, budget, rng);
    std::string out = "{\"action\":";
    quote(out, toString(action));
    out += ",\"iterations\":" + std::to_string(last.iterations);
    out += ",\"pvirus\":{";
    for (std::size_t i = 0; i < last.virusProbability.size(); ++i) {
        if (i) out += ',';
        quote(out, squareName(last.virusProbability[i].first));
        out += ':';
        number(out, rounded(last.virusProbability[i].second));
    }
    return out + "}}";
}

std::string analyse(const Args& a) {
    if (a.size() != 4) return errorAnswer("usage: analyse SIDE NODES RECORD");
    auto side = parseSideNumber(a[1]);
    if (!side) return errorAnswer(side.error().message);
    auto nodes = parseNumber(a[2], "nodes");
    if (!nodes) return errorAnswer(nodes.error().message);
    if (*nodes == 0 || *nodes > 100000) return errorAnswer("nodes: from 1 to 100000");
    auto record = parseRecord(a[3]);
    if (!record) return errorAnswer(record.error().message);
    if (record->isPublic) return errorAnswer("a full record is needed (with both setups)");
    if (auto end = replay(*record); !end) return errorAnswer(end.error().message);
    auto startPosition = record->initialPosition();
    if (!startPosition) return errorAnswer(startPosition.error().message);
    ai::AnalysisConfig config;
    config.nodes = *nodes;
    auto plies = ai::analyseGame(*startPosition, record->actions, *side, config);
    if (!plies) return errorAnswer("the analysis stopped");
    // The shape of the server's GameAnalysis (src/protocol/http_answers.h), game left empty.
    // Sides as the protocol's SideId, the strings "1" and "2".
    std::string out = "{\"game\":\"\",\"side\":\"" + std::to_string(sideNumber(*side)) + '"';
    out += ",\"nodes\":" + std::to_string(*nodes) + ",\"plies\":[";
    for (std::size_t i = 0; i < plies->size(); ++i) {
        const ai::PlyAnalysis& p = (*plies)[i];
        if (i) out += ',';
        out += "{\"ply\":" + std::to_string(p.ply);
        out += ",\"to_move\":\"" + std::to_string(sideNumber(p.toMove)) + "\",\"win\":";
        number(out, rounded(p.win));
        if (p.over) out += ",\"over\":true";
        out += ",\"virus\":{";
        for (std::size_t j = 0; j < p.virus.size(); ++j) {
            if (j) out += ',';
            quote(out, squareName(p.virus[j].first));
            out += ':';
            number(out, rounded(p.virus[j].second));
        }
        out += "},\"best\":[";
        for (std::size_t j = 0; j < p.best.size(); ++j) {
            if (j) out += ',';
            out += "{\"action\":";
            quote(out, toString(p.best[j].action, Notation::Full));
            out += ",\"share\":";
            number(out, rounded(p.best[j].share));
            out += ",\"win\":";
            number(out, rounded(p.best[j].win));
            out += '}';
        }
        out += "]}";
    }
    return out + "]}";
}

// `rainet bench`'s search (strong's, fixed positions and seed): the node count is the same
// natively and in WebAssembly; the time is the machine's.
std::string bench(const Args& a) {
    if (a.size() != 2) return errorAnswer("usage: bench ITERATIONS");
    auto iterations = parseNumber(a[1], "iterations");
    if (!iterations) return errorAnswer(iterations.error().message);
    if (*iterations == 0 || *iterations > 100000)
        return errorAnswer("iterations: from 1 to 100000");
    const ai::BenchResult r = ai::runBench(*iterations, 1, ai::strongConfig());
    std::string out = "{\"iterations\":" + std::to_string(r.iterations);
    out += ",\"nodes\":" + std::to_string(r.nodes) + ",\"seconds\":";
    number(out, r.seconds);
    return out + "}";
}

}  // namespace

std::string call(std::string_view request) {
    const Args a = split(request, '\t');
    const std::string_view command = a[0];
    if (command == "start") return start(a);
    if (command == "state") return state(a);
    if (command == "legal") return legal(a);
    if (command == "apply") return apply(a);
    if (command == "view") return view(a);
    if (command == "perft") return perftAnswer(a);
    if (command == "setup") return setup(a);
    if (command == "think") return think(a);
    if (command == "analyse") return analyse(a);
    if (command == "bench") return bench(a);
    return errorAnswer("unknown command '" + std::string(command) + "'");
}

}  // namespace rainet::wasm
