#pragma once
// The value of one hexadecimal digit, or -1: for the two percent-decoders of request targets (the
// lenient one of query strings in server.cpp, the strict one of static paths in static_files.cpp).
namespace rainet::server {

constexpr int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace rainet::server
