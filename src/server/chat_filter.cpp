#include "server/chat_filter.h"

#include <cctype>

namespace rainet::server {

namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// A word's edge: an ASCII letter or digit continues a word; anything else (spaces,
// punctuation, and the bytes of other scripts) ends it.
bool wordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::vector<std::string> parseChatFilter(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#') continue;
        line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
        std::string w;
        for (char c : line) w.push_back(lower(c));
        out.push_back(std::move(w));
    }
    return out;
}

bool chatFiltered(std::string_view line, const std::vector<std::string>& words) {
    std::string low;
    low.reserve(line.size());
    for (char c : line) low.push_back(lower(c));
    for (const std::string& w : words) {
        if (w.empty()) continue;
        for (auto at = low.find(w); at != std::string::npos; at = low.find(w, at + 1)) {
            const bool startsWord = at == 0 || !wordChar(low[at - 1]) || !wordChar(w.front());
            const std::size_t end = at + w.size();
            const bool endsWord = end == low.size() || !wordChar(low[end]) || !wordChar(w.back());
            if (startsWord && endsWord) return true;
        }
    }
    return false;
}

}  // namespace rainet::server
