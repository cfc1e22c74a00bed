// One scan over a server message for the fields the load generator reads (message_fields.h).
#include "loadgen/message_fields.h"

#include <charconv>
#include <nlohmann/json.hpp>

namespace rainet::loadgen {
namespace {

using Json = nlohmann::json;

// A cursor over the text; any surprise (an escape, a malformed token) makes the caller fall back
// to nlohmann, which is exact.
struct Scan {
    std::string_view s;
    std::size_t i = 0;
    bool ok = true;

    void space() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
    }
    bool eat(char c) {
        space();
        if (i < s.size() && s[i] == c) {
            ++i;
            return true;
        }
        return false;
    }
    // A string without escapes or control characters (else not ok).
    std::string_view string() {
        if (!eat('"')) return ok = false, std::string_view{};
        const std::size_t start = i;
        for (; i < s.size(); ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c == '"') return s.substr(start, i++ - start);
            if (c == '\\' || c < 0x20) break;
        }
        ok = false;
        return {};
    }
    // Skips any value, checking only that brackets and strings are balanced.
    void skipValue() {
        space();
        if (i >= s.size()) return void(ok = false);
        if (s[i] == '"') return void(string());
        if (s[i] != '{' && s[i] != '[') {
            const std::size_t start = i;
            while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' &&
                   s[i] != '\n' && s[i] != '\t' && s[i] != '\r' && s[i] != '"' && s[i] != '{' &&
                   s[i] != '[' && s[i] != ':')
                ++i;
            if (i == start) ok = false;
            return;
        }
        const char close = s[i] == '{' ? '}' : ']';
        ++i;
        if (eat(close)) return;
        do {
            if (close == '}') {
                string();
                if (!ok || !eat(':')) return void(ok = false);
            }
            skipValue();
            if (!ok) return;
        } while (eat(','));
        if (!eat(close)) ok = false;
    }
};

std::optional<MessageFields> viaTree(std::string_view text) {
    const Json j = Json::parse(text, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    MessageFields f;
    auto str = [&](const char* key, std::string& out) {
        if (auto it = j.find(key); it != j.end() && it->is_string()) out = it->get<std::string>();
    };
    str("type", f.type);
    str("id", f.id);
    str("game", f.game);
    str("kind", f.kind);
    str("token", f.token);
    str("code", f.code);
    if (auto it = j.find("ply"); it != j.end() && it->is_number_integer()) f.ply = it->get<int>();
    if (auto it = j.find("legal"); it != j.end()) {
        f.hasLegal = true;
        if (it->is_array())
            for (const Json& a : *it)
                if (a.is_string()) f.legal.push_back(a.get<std::string>());
    }
    return f;
}

}  // namespace

std::optional<MessageFields> readMessageFields(std::string_view text) {
    Scan sc{text};
    MessageFields f;
    if (!sc.eat('{')) return viaTree(text);
    if (!sc.eat('}')) {
        do {
            const std::string_view key = sc.string();
            if (!sc.ok || !sc.eat(':')) return viaTree(text);
            sc.space();
            std::string* out = key == "type"    ? &f.type
                               : key == "id"    ? &f.id
                               : key == "game"  ? &f.game
                               : key == "kind"  ? &f.kind
                               : key == "token" ? &f.token
                               : key == "code"  ? &f.code
                                                : nullptr;
            // A repeated key counts as its last value, as in nlohmann.
            if (out) out->clear();
            if (key == "ply") f.ply.reset();
            if (sc.i < text.size() && out && text[sc.i] == '"') {
                *out = sc.string();
            } else if (key == "ply" && sc.i < text.size() &&
                       (text[sc.i] == '-' || (text[sc.i] >= '0' && text[sc.i] <= '9'))) {
                int v = 0;
                const auto [end, ec] =
                    std::from_chars(text.data() + sc.i, text.data() + text.size(), v);
                const std::size_t n = static_cast<std::size_t>(end - (text.data() + sc.i));
                // Anything but a plain integer (a fraction, an exponent, out of range) is
                // left to nlohmann.
                if (ec != std::errc{} ||
                    (sc.i + n < text.size() &&
                     (text[sc.i + n] == '.' || text[sc.i + n] == 'e' || text[sc.i + n] == 'E')))
                    return viaTree(text);
                sc.i += n;
                f.ply = v;
            } else if (key == "legal") {
                f.hasLegal = true;
                f.legal.clear();
                if (sc.eat('[')) {
                    if (!sc.eat(']')) {
                        do {
                            sc.space();
                            if (sc.i < text.size() && text[sc.i] == '"')
                                f.legal.emplace_back(sc.string());
                            else
                                sc.skipValue();
                            if (!sc.ok) return viaTree(text);
                        } while (sc.eat(','));
                        if (!sc.eat(']')) return viaTree(text);
                    }
                } else {
                    sc.skipValue();
                }
            } else {
                sc.skipValue();
            }
            if (!sc.ok) return viaTree(text);
        } while (sc.eat(','));
        if (!sc.eat('}')) return viaTree(text);
    }
    sc.space();
    if (sc.i != text.size()) return viaTree(text);
    return f;
}

}  // namespace rainet::loadgen
