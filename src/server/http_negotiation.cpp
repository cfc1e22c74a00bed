#include "server/http_negotiation.h"

#include <cctype>

namespace rainet::server {
namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool equalNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

// The weight of one element's parameters ("q=0.5"): 1000ths, 1000 without a q, -1 when its q is
// malformed. qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
int weightOf(std::string_view params) {
    while (!params.empty()) {
        const auto semi = params.find(';');
        const std::string_view p = trimmed(params.substr(0, semi));
        params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
        const auto eq = p.find('=');
        if (eq == std::string_view::npos || !equalNoCase(trimmed(p.substr(0, eq)), "q")) continue;
        const std::string_view v = trimmed(p.substr(eq + 1));
        if (v.empty() || (v[0] != '0' && v[0] != '1')) return -1;
        if (v.size() > 1 && (v[1] != '.' || v.size() > 5)) return -1;
        int thousandths = 0, scale = 100;
        for (std::size_t i = 2; i < v.size(); ++i, scale /= 10) {
            if (!std::isdigit(static_cast<unsigned char>(v[i]))) return -1;
            thousandths += (v[i] - '0') * scale;
        }
        if (v[0] == '1') return thousandths == 0 ? 1000 : -1;
        return thousandths;
    }
    return 1000;
}

}  // namespace

bool acceptsEncoding(std::string_view acceptEncoding, std::string_view coding) {
    int named = -1, star = -1;
    while (!acceptEncoding.empty()) {
        const auto comma = acceptEncoding.find(',');
        const std::string_view element = acceptEncoding.substr(0, comma);
        acceptEncoding =
            comma == std::string_view::npos ? std::string_view{} : acceptEncoding.substr(comma + 1);
        const auto semi = element.find(';');
        const std::string_view name = trimmed(element.substr(0, semi));
        const int weight =
            semi == std::string_view::npos ? 1000 : weightOf(element.substr(semi + 1));
        if (weight < 0) continue;
        if (equalNoCase(name, coding))
            named = weight;
        else if (name == "*")
            star = weight;
    }
    return (named >= 0 ? named : star) > 0;
}

bool noneMatchHits(std::string_view ifNoneMatch, std::string_view etag) {
    std::string_view s = trimmed(ifNoneMatch);
    if (s == "*") return true;
    while (true) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == ','))
            s.remove_prefix(1);
        if (s.empty()) return false;
        if (s.starts_with("W/")) s.remove_prefix(2);
        if (s.empty() || s.front() != '"') return false;
        const auto close = s.find('"', 1);
        if (close == std::string_view::npos) return false;
        if (s.substr(0, close + 1) == etag) return true;
        s.remove_prefix(close + 1);
        s = trimmed(s);
        if (!s.empty() && s.front() != ',') return false;
    }
}

}  // namespace rainet::server
