#include "protocol/server_messages.h"

#include "protocol/json_out.h"

namespace rainet::protocol {

namespace {

const char* sideName(Side s) {
    return s == Side::One ? "\"1\"" : "\"2\"";
}

}  // namespace

void write(std::string& out, const std::optional<Clocks>& c) {
    if (!c) {
        out += "null";
        return;
    }
    out += "{\"1\":";
    json_out::integer(out, c->remaining[0]);
    out += ",\"2\":";
    json_out::integer(out, c->remaining[1]);
    out += ",\"running\":";
    out += c->running ? sideName(*c->running) : "null";
    out += '}';
}

Json toJson(const std::optional<Clocks>& c) {
    std::string text;
    write(text, c);
    return Json::parse(text);
}

std::string render(const Ack& a) {
    std::string out = "{\"type\":\"ack\",\"id\":";
    json_out::value(out, a.id);
    if (!a.game.empty()) {
        out += ",\"game\":";
        json_out::string(out, a.game);
    }
    if (a.v) {
        out += ",\"v\":";
        json_out::integer(out, *a.v);
    }
    out += '}';
    return out;
}

std::string render(const ActionEvent& e) {
    std::string out;
    out.reserve(160 + e.view.size() + (e.legal ? 9 * e.legal->size() : 0));
    out += "{\"type\":\"event\",\"game\":";
    json_out::string(out, e.game);
    out += ",\"v\":";
    json_out::integer(out, e.v);
    out += ",\"kind\":\"action\",\"ply\":";
    json_out::integer(out, e.ply);
    out += ",\"side\":";
    out += sideName(e.side);
    out += ",\"action\":\"";
    appendTo(out, e.seen.action, e.seen.swapKnown ? Notation::Full : Notation::Public);
    out += '"';
    if (e.seen.revealedLink)
        out += *e.seen.revealedLink ? ",\"revealed\":\"link\"" : ",\"revealed\":\"virus\"";
    out += ",\"view\":";
    json_out::string(out, e.view);
    if (e.legal) {
        out += ",\"legal\":[";
        bool first = true;
        for (Action a : *e.legal) {
            if (!first) out += ',';
            first = false;
            out += '"';
            appendTo(out, a);
            out += '"';
        }
        out += ']';
    }
    out += ",\"clocks\":";
    write(out, e.clocks);
    out += ",\"draw_offer\":null}";
    return out;
}

}  // namespace rainet::protocol
