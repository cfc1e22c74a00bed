#pragma once
// A test aid: checks a server message (parsed JSON) against the field tables of
// src/protocol/server_messages.h: a known `type` (and event `kind`), every required field present,
// no field the table does not name, each of the JSON type the table says, enum strings among their
// values. protocol_tests runs it over the golden transcripts and server_tests over a live session,
// so that the documented, generated and sent forms cannot part. The server never validates what it
// sends (it renders typed values), so the library does not carry this.
#include <optional>
#include <string>

#include "protocol/server_messages.h"

namespace rainet::protocol {

namespace validate_detail {

inline std::string describeType(const Type& t) {
    std::string s;
    switch (t.kind) {
        case Type::Kind::String:
            s = "a string";
            break;
        case Type::Kind::Integer:
            s = "an integer";
            break;
        case Type::Kind::Boolean:
            s = "a boolean";
            break;
        case Type::Kind::Enum:
            s = "one of";
            for (std::string_view v : t.values) (s += " \"") += std::string(v) + "\"";
            break;
        case Type::Kind::Literal:
            s = "\"" + std::string(t.values[0]) + "\"";
            break;
        case Type::Kind::Id:
            s = "a string or an integer";
            break;
        case Type::Kind::Object:
            s = "an object (" + std::string(t.object->name) + ")";
            break;
        case Type::Kind::Array:
            s = "an array";
            break;
        case Type::Kind::Number:
            s = "a number";
            break;
        case Type::Kind::Map:
        case Type::Kind::Data:
            s = "an object";
            break;
    }
    if (t.nullable) s += " or null";
    return s;
}

inline std::optional<std::string> checkObject(const Json& j, const Schema& s,
                                              const std::string& path);

// What is wrong with `j` as a value of type `t` at `path`, if anything.
inline std::optional<std::string> check(const Json& j, const Type& t, const std::string& path) {
    auto wrong = [&] {
        return "field " + path + ": expected " + describeType(t) + ", got " + j.dump();
    };
    if (j.is_null()) return t.nullable ? std::nullopt : std::optional(wrong());
    switch (t.kind) {
        case Type::Kind::String:
            if (!j.is_string()) return wrong();
            return std::nullopt;
        case Type::Kind::Integer:
            if (!j.is_number_integer()) return wrong();
            return std::nullopt;
        case Type::Kind::Boolean:
            if (!j.is_boolean()) return wrong();
            return std::nullopt;
        case Type::Kind::Enum:
        case Type::Kind::Literal:
            if (!j.is_string()) return wrong();
            for (std::string_view v : t.values)
                if (j.get_ref<const std::string&>() == v) return std::nullopt;
            return wrong();
        case Type::Kind::Id:
            if (!j.is_string() && !j.is_number_integer()) return wrong();
            return std::nullopt;
        case Type::Kind::Object:
            if (!j.is_object()) return wrong();
            return checkObject(j, *t.object, path + ".");
        case Type::Kind::Array:
            if (!j.is_array()) return wrong();
            for (std::size_t i = 0; i < j.size(); ++i)
                if (auto e = check(j[i], *t.element, path + "." + std::to_string(i))) return e;
            return std::nullopt;
        case Type::Kind::Number:
            if (!j.is_number()) return wrong();
            return std::nullopt;
        case Type::Kind::Data:
            if (!j.is_object()) return wrong();
            return std::nullopt;
        case Type::Kind::Map:
            if (!j.is_object()) return wrong();
            for (const auto& [key, value] : j.items())
                if (auto e = check(value, *t.element, path + "." + key)) return e;
            return std::nullopt;
    }
    return wrong();
}

// `prefix` is the path of the object with a trailing '.', empty at the top.
inline std::optional<std::string> checkObject(const Json& j, const Schema& s,
                                              const std::string& prefix) {
    for (const Field& f : s.fields) {
        const std::string path = prefix + std::string(f.name);
        auto it = j.find(f.name);
        if (it == j.end()) {
            if (!f.optional) return "missing required field " + path;
            continue;
        }
        if (auto e = check(*it, f.type, path)) return e;
    }
    for (const auto& [key, value] : j.items())
        if (!s.find(key)) return "unknown field " + prefix + key;
    return std::nullopt;
}

}  // namespace validate_detail

// nullopt when `m` is a valid server message; otherwise what is wrong, naming the message (its
// type and kind) and the field (a path such as `players.1.rating`).
inline std::optional<std::string> validateServerMessage(const Json& m) {
    if (!m.is_object()) return "not a JSON object: " + m.dump();
    const auto type = m.find("type");
    if (type == m.end() || !type->is_string()) return "no string field type: " + m.dump();
    const std::string& t = type->get_ref<const std::string&>();
    std::string kind;
    if (const auto k = m.find("kind"); k != m.end() && t == "event") {
        if (!k->is_string()) return "event: field kind: expected a string, got " + k->dump();
        kind = k->get<std::string>();
    }
    const MessageDef* def = findMessage(t, kind);
    if (!def)
        return "unknown message type \"" + t + (kind.empty() ? "" : "\" kind \"" + kind) + "\"";
    if (auto e = validate_detail::checkObject(m, *def->schema, {}))
        return std::string(def->schema->name) + " (" + t + (kind.empty() ? "" : " " + kind) +
               "): " + *e;
    return std::nullopt;
}

}  // namespace rainet::protocol
