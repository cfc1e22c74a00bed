#pragma once
// The operator's chat word filter (`rainet serve --chat-filter FILE`; docs/deploy.md,
// "Moderation"): a line holding a listed word or phrase is refused (never shown, never stored).
// A match is case-insensitive (ASCII letters) and whole: "ass" matches "Ass!" but not "class".
#include <string>
#include <string_view>
#include <vector>

namespace rainet::server {

// The words of a filter file: one word or phrase a line, lower-cased; blank lines and lines
// starting with '#' skipped.
std::vector<std::string> parseChatFilter(std::string_view text);
// Whether `line` holds one of `words` (lower case) as a whole word.
bool chatFiltered(std::string_view line, const std::vector<std::string>& words);

}  // namespace rainet::server
