#include "protocol/typescript.h"

#include <algorithm>
#include <vector>

#include "protocol/http_answers.h"
#include "protocol/server_messages.h"

namespace rainet::protocol {

namespace {

bool identifier(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9');
    });
}

std::string quoted(std::string_view s) {
    std::string out = "'";
    out += s;
    out += '\'';
    return out;
}

std::string tsType(const Type& t) {
    std::string s;
    switch (t.kind) {
        case Type::Kind::String:
            s = "string";
            break;
        case Type::Kind::Integer:
        case Type::Kind::Number:
            s = "number";
            break;
        case Type::Kind::Map:
            s = "Record<string, " + tsType(*t.element) + ">";
            break;
        case Type::Kind::Data:
            s = "Record<string, unknown>";
            break;
        case Type::Kind::Boolean:
            s = "boolean";
            break;
        case Type::Kind::Enum:
            s = std::string(t.name);
            break;
        case Type::Kind::Literal:
            s = quoted(t.values[0]);
            break;
        case Type::Kind::Id:
            s = "string | number";
            break;
        case Type::Kind::Object:
            s = std::string(t.object->name);
            break;
        case Type::Kind::Array: {
            const std::string e = tsType(*t.element);
            if (e.find(' ') == std::string::npos) {
                s = e;
            } else {
                s = '(';
                s += e;
                s += ')';
            }
            s += "[]";
            break;
        }
    }
    if (t.nullable) s += " | null";
    return s;
}

// Enums and objects in the order they are first reached, each object after those it holds.
struct Collector {
    std::vector<const Type*> enums;
    std::vector<const Schema*> objects;
    void type(const Type& t) {
        if (t.kind == Type::Kind::Enum &&
            std::none_of(enums.begin(), enums.end(),
                         [&](const Type* e) { return e->name == t.name; }))
            enums.push_back(&t);
        if (t.kind == Type::Kind::Object) {
            fields(*t.object);
            if (std::find(objects.begin(), objects.end(), t.object) == objects.end())
                objects.push_back(t.object);
        }
        if (t.kind == Type::Kind::Array || t.kind == Type::Kind::Map) type(*t.element);
    }
    void fields(const Schema& s) {
        for (const Field& f : s.fields) type(f.type);
    }
};

void interface(std::string& out, const Schema& s, bool hiddenEvent) {
    out += "export interface " + std::string(s.name) + " {\n";
    for (const Field& f : s.fields) {
        if (!f.doc.empty()) {
            out += "  /** ";
            out += f.doc;
            out += " */\n";
        }
        out += "  ";
        out += identifier(f.name) ? std::string(f.name) : quoted(f.name);
        out += f.optional ? "?: " : ": ";
        out += tsType(f.type) + ";\n";
    }
    // So that narrowing a GameEvent on `kind` works: the event without one has none.
    if (hiddenEvent) out += "  kind?: undefined;\n";
    out += "}\n\n";
}

}  // namespace

std::string typescriptTypes() {
    Collector c;
    for (const MessageDef& m : serverMessages()) c.fields(*m.schema);
    for (const Schema* s : httpAnswers()) c.fields(*s);
    std::string out =
        "// Generated from src/protocol/server_messages.h by rainet_protocol_ts: do not edit.\n"
        "// Regenerate with scripts/gen-protocol-ts.sh; a test fails while this file differs.\n"
        "// The server -> client messages of docs/protocol.md sections 5 and 6, and the HTTP\n"
        "// JSON answers of section 10 (src/protocol/http_answers.h).\n\n";
    for (const Type* e : c.enums) {
        out += "export type " + std::string(e->name) + " =";
        for (std::size_t i = 0; i < e->values.size(); ++i) {
            out += i ? " | " : " ";
            out += quoted(e->values[i]);
        }
        out += ";\n";
    }
    out += "\n";
    for (const Schema* s : c.objects) interface(out, *s, false);
    std::string events, messages;
    for (const MessageDef& m : serverMessages()) {
        interface(out, *m.schema, m.type == "event" && m.kind.empty());
        std::string& list = m.type == "event" ? events : messages;
        list += "\n  | " + std::string(m.schema->name);
    }
    out +=
        "/** Every event, discriminated on `kind` (absent: the event shows nothing to this role). "
        "*/\n";
    out += "export type GameEvent =" + events + ";\n\n";
    out += "/** Every server message, discriminated on `type`. */\n";
    out += "export type ServerMessage =" + messages + "\n  | GameEvent;\n";
    out += "\n// The HTTP JSON answers of docs/protocol.md section 10.\n\n";
    for (const Schema* s : httpAnswers()) interface(out, *s, false);
    out.pop_back();  // one newline at the end
    return out;
}

}  // namespace rainet::protocol
