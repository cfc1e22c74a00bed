#include "server/site_headers.h"

namespace rainet::server {

void addSiteHeaders(boost::beast::http::fields& fields, bool tls) {
    namespace http = boost::beast::http;
    fields.set("Content-Security-Policy", kContentSecurityPolicy);
    fields.set(http::field::x_frame_options, "DENY");  // frame-ancestors for older browsers
    fields.set("X-Content-Type-Options", "nosniff");
    fields.set("Referrer-Policy", "same-origin");
    fields.set("Cross-Origin-Opener-Policy", "same-origin");
    if (tls) fields.set(http::field::strict_transport_security, kStrictTransportSecurity);
}

bool tlsInFront(const boost::asio::ip::address& peer, std::string_view forwardedProto,
                const std::vector<Cidr>& trusted) {
    boost::asio::ip::address p = peer;
    if (p.is_v6() && p.to_v6().is_v4_mapped())
        p = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, p.to_v6());
    bool fromProxy = false;
    for (const Cidr& c : trusted) fromProxy = fromProxy || c.contains(p);
    if (!fromProxy) return false;
    // A chain of proxies appends: the nearest (trusted) one's value comes last.
    const auto comma = forwardedProto.rfind(',');
    if (comma != std::string_view::npos) forwardedProto.remove_prefix(comma + 1);
    while (!forwardedProto.empty() && forwardedProto.front() == ' ')
        forwardedProto.remove_prefix(1);
    while (!forwardedProto.empty() && forwardedProto.back() == ' ') forwardedProto.remove_suffix(1);
    return forwardedProto == "https";
}

}  // namespace rainet::server
