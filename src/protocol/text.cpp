#include "protocol/text.h"

namespace rainet::protocol {

namespace {

// Decodes the code point at s[i] and advances i; nullopt on malformed UTF-8 (RFC 3629).
std::optional<char32_t> decode(std::string_view s, std::size_t& i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    int n;
    char32_t c, min;
    if ((b0 & 0xE0) == 0xC0) {
        n = 1, c = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        n = 2, c = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        n = 3, c = b0 & 0x07, min = 0x10000;
    } else {
        return std::nullopt;  // a continuation byte, or 0xF8-0xFF
    }
    if (i + n >= s.size()) return std::nullopt;  // truncated
    for (int k = 1; k <= n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return std::nullopt;
        c = (c << 6) | (b & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return std::nullopt;
    i += n + 1;
    return c;
}

template <class F>
bool forEachCodePoint(std::string_view s, F f) {
    for (std::size_t i = 0; i < s.size();) {
        auto c = decode(s, i);
        if (!c) return false;
        f(*c);
    }
    return true;
}

}  // namespace

std::optional<std::size_t> codePoints(std::string_view s) {
    std::size_t n = 0;
    if (!forEachCodePoint(s, [&](char32_t) { ++n; })) return std::nullopt;
    return n;
}

bool forbiddenInText(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

bool isSpace(char32_t c) {
    return c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200B) || c == 0x202F ||
           c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

TextProblem checkText(std::string_view s, std::size_t maxChars) {
    std::size_t n = 0;
    bool forbidden = false, blank = true;
    if (!forEachCodePoint(s, [&](char32_t c) {
            ++n;
            forbidden |= forbiddenInText(c);
            blank &= isSpace(c);
        }))
        return TextProblem::BadUtf8;
    if (forbidden) return TextProblem::Forbidden;
    if (n > maxChars) return TextProblem::TooLong;
    if (blank) return TextProblem::Blank;
    return TextProblem::None;
}

}  // namespace rainet::protocol
