#pragma once
// The headers every HTTP answer of `rainet serve` carries, pages, API and errors alike (the OWASP
// secure headers; docs/deployment.md): a Content-Security-Policy that lets a page load only the
// site's own script, styles, images and WebSocket and be framed by nobody, nosniff, a referrer
// policy, and HSTS when a trusted proxy says the client came over TLS.
#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/fields.hpp>
#include <string_view>
#include <vector>

#include "server/admission.h"

namespace rainet::server {

// The policy: no inline script or style, no eval ('wasm-unsafe-eval' compiles WebAssembly only:
// the engine that runs in the browser), nothing from another origin, no framing, no plugins.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; "
    "worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
inline constexpr const char* kStrictTransportSecurity = "max-age=31536000";

// Sets them on `fields`; Strict-Transport-Security only when `tls`.
void addSiteHeaders(boost::beast::http::fields& fields, bool tls);

// Whether the client reached us over TLS: only a trusted proxy (`--trust-proxy`) is believed, when
// its X-Forwarded-Proto (`forwardedProto`, the last value when several) says https. rainet itself
// never terminates TLS.
bool tlsInFront(const boost::asio::ip::address& peer, std::string_view forwardedProto,
                const std::vector<Cidr>& trusted);

}  // namespace rainet::server
