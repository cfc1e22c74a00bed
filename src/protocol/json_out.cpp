#include "protocol/json_out.h"

#include <charconv>

namespace rainet::protocol::json_out {

void string(std::string& out, std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    std::size_t run = 0;  // start of the bytes not yet copied (they need no escape)
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s, run, i - run);
        run = i + 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 15];
        }
    }
    out.append(s, run, s.size() - run);
    out += '"';
}

void integer(std::string& out, std::int64_t n) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, n);
    out.append(buf, r.ptr);
}

void number(std::string& out, double x) {
    out += nlohmann::ordered_json(x).dump();
}

void value(std::string& out, const nlohmann::ordered_json& j) {
    if (j.is_number_unsigned()) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, j.get<std::uint64_t>());
        out.append(buf, r.ptr);
    } else if (j.is_number_integer()) {
        integer(out, j.get<std::int64_t>());
    } else if (j.is_string()) {
        string(out, j.get_ref<const std::string&>());
    } else {
        out += j.dump();
    }
}

}  // namespace rainet::protocol::json_out
