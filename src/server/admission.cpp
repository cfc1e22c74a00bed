#include "server/admission.h"

#include <charconv>

#include "server/shared_limits.h"

namespace rainet::server {

namespace ip = boost::asio::ip;

std::optional<Cidr> Cidr::parse(std::string_view text) {
    const auto slash = text.find('/');
    boost::system::error_code ec;
    const auto base = ip::make_address(std::string(text.substr(0, slash)), ec);
    if (ec) return std::nullopt;
    const int max = base.is_v4() ? 32 : 128;
    int bits = max;
    if (slash != std::string_view::npos) {
        const auto digits = text.substr(slash + 1);
        auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
        if (err != std::errc() || end != digits.data() + digits.size() || bits < 0 || bits > max)
            return std::nullopt;
    }
    return Cidr{base, bits};
}

namespace {
// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) compare as the IPv4 address.
ip::address plain(const ip::address& a) {
    if (a.is_v6() && a.to_v6().is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, a.to_v6());
    return a;
}
}  // namespace

bool Cidr::contains(const ip::address& raw) const {
    const ip::address a = plain(raw);
    if (a.is_v4() != base.is_v4()) return false;
    auto match = [&](const auto& x, const auto& y) {
        int left = bits;
        for (std::size_t i = 0; i < x.size() && left > 0; ++i, left -= 8) {
            const unsigned mask = left >= 8 ? 0xFFu : (0xFFu << (8 - left)) & 0xFFu;
            if ((x[i] & mask) != (y[i] & mask)) return false;
        }
        return true;
    };
    if (a.is_v4()) return match(a.to_v4().to_bytes(), base.to_v4().to_bytes());
    return match(a.to_v6().to_bytes(), base.to_v6().to_bytes());
}

std::string clientAddress(const ip::address& peer, std::string_view forwardedFor,
                          const std::vector<Cidr>& trusted) {
    auto isTrusted = [&](const ip::address& a) {
        for (const Cidr& c : trusted)
            if (c.contains(a)) return true;
        return false;
    };
    ip::address client = plain(peer);
    while (isTrusted(client) && !forwardedFor.empty()) {
        const auto comma = forwardedFor.rfind(',');
        std::string_view last =
            comma == std::string_view::npos ? forwardedFor : forwardedFor.substr(comma + 1);
        forwardedFor =
            comma == std::string_view::npos ? std::string_view{} : forwardedFor.substr(0, comma);
        while (!last.empty() && (last.front() == ' ' || last.front() == '\t'))
            last.remove_prefix(1);
        while (!last.empty() && (last.back() == ' ' || last.back() == '\t')) last.remove_suffix(1);
        boost::system::error_code ec;
        const auto next = ip::make_address(std::string(last), ec);
        if (ec) break;
        client = plain(next);
    }
    return client.to_string();
}

std::unique_ptr<Admission::Ticket> Admission::admit(const std::string& address) {
    std::lock_guard lock(mu_);
    if (maxTotal_ && total_ >= maxTotal_) return nullptr;
    const bool shared = shared_ && maxPerAddress_;
    std::size_t& mine = perAddress_[address];
    // Shared: this node's cached view of every node's count (never waits for Redis).
    const bool refused = shared ? !shared_->admitConnection(address, maxPerAddress_)
                                : maxPerAddress_ && mine >= maxPerAddress_;
    if (refused) {
        if (mine == 0) perAddress_.erase(address);
        return nullptr;
    }
    ++mine;
    ++total_;
    return std::make_unique<Ticket>(*this, address, shared);
}

void Admission::release(const std::string& address, bool shared) {
    if (shared) shared_->releaseConnection(address);
    std::lock_guard lock(mu_);
    --total_;
    auto it = perAddress_.find(address);
    if (it != perAddress_.end() && --it->second == 0) perAddress_.erase(it);
}

std::size_t Admission::total() {
    std::lock_guard lock(mu_);
    return total_;
}

}  // namespace rainet::server
