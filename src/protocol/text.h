#pragma once
// Checks on the free text clients send (display names, chat): valid UTF-8, counted in code points,
// without the characters that could disguise or break what other players see (C0/C1 controls,
// bidi overrides and isolates, line separators). Nothing here knows about messages or sockets.
#include <cstddef>
#include <optional>
#include <string_view>

namespace rainet::protocol {

// The number of code points of well-formed UTF-8 (no overlong forms, no surrogates, nothing above
// U+10FFFF), or nullopt when `s` is not.
std::optional<std::size_t> codePoints(std::string_view s);

// C0 and C1 controls (U+0000-U+001F, U+007F-U+009F), bidi embeddings, overrides and isolates
// (U+202A-U+202E, U+2066-U+2069) and the line and paragraph separators (U+2028, U+2029).
bool forbiddenInText(char32_t c);

// Spaces of any kind (U+0020, U+00A0, U+1680, U+2000-U+200B, U+202F, U+205F, U+3000, U+FEFF).
bool isSpace(char32_t c);

enum class TextProblem { None, BadUtf8, TooLong, Forbidden, Blank };

// Why `s` is not an acceptable line of free text of at most `maxChars` code points; `Blank` when
// it is empty or only spaces.
TextProblem checkText(std::string_view s, std::size_t maxChars);

}  // namespace rainet::protocol
