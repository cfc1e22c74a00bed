#pragma once
// The two request headers a static file's answer depends on, parsed leniently: whatever is
// malformed counts as absent (the full, uncompressed answer), never as an error or a match.
#include <string_view>

namespace rainet::server {

// Whether `acceptEncoding` (every Accept-Encoding header's value, joined by ',') accepts the
// content coding `coding` ("br", "gzip"): named, or covered by "*" when not named, with a q above
// 0 (RFC 9110 12.5.3). An element with a malformed q is ignored.
bool acceptsEncoding(std::string_view acceptEncoding, std::string_view coding);

// Whether `ifNoneMatch` (every If-None-Match header's value, joined by ',') matches `etag` (a
// quoted entity tag) by the weak comparison RFC 9110 13.1.2 asks for: "*", or one of the listed
// tags, W/ or not. A malformed list matches nothing.
bool noneMatchHits(std::string_view ifNoneMatch, std::string_view etag);

}  // namespace rainet::server
