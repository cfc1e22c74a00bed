#pragma once
// Who may open a WebSocket connection: a cap on connections in total and per client address
// (docs/protocol.md section 1), and the client address itself, taken from X-Forwarded-For only
// when the peer is a trusted reverse proxy (`serve --trust-proxy CIDR...`). Thread-safe.
#include <boost/asio/ip/address.hpp>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rainet::server {

// An address range, e.g. 10.0.0.0/8, ::1/128, 127.0.0.1 (a single address).
struct Cidr {
    boost::asio::ip::address base;
    int bits = 0;
    // nullopt for a malformed range.
    static std::optional<Cidr> parse(std::string_view text);
    bool contains(const boost::asio::ip::address& a) const;
};

// The client's address: `peer` itself unless it is in `trusted`; then the right-most address
// of `forwardedFor` (the X-Forwarded-For header) that is not itself trusted, i.e. the one that
// the nearest trusted proxy saw. Malformed entries stop the walk: `peer`'s view is kept.
std::string clientAddress(const boost::asio::ip::address& peer, std::string_view forwardedFor,
                          const std::vector<Cidr>& trusted);

class SharedCounters;

class Admission {
  public:
    // 0: no cap.
    Admission(std::size_t maxTotal, std::size_t maxPerAddress)
        : maxTotal_(maxTotal), maxPerAddress_(maxPerAddress) {}

    // Held by an admitted connection; dropping it frees the place.
    class Ticket {
      public:
        Ticket(Admission& a, std::string address, bool shared)
            : a_(a), address_(std::move(address)), shared_(shared) {}
        ~Ticket() { a_.release(address_, shared_); }
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;

      private:
        Admission& a_;
        std::string address_;
        bool shared_;  // counted in Redis too
    };

    // A cluster (shared_limits.h): the per-address cap counts every node's connections, as
    // this node last saw them in Redis (no round trip per admission), falling back to this
    // node's own count while Redis is away. The total cap stays this node's. Set before the
    // first admission.
    void share(std::shared_ptr<SharedCounters> counters) { shared_ = std::move(counters); }

    // A ticket, or nullptr when the total or the address is at its cap.
    std::unique_ptr<Ticket> admit(const std::string& address);
    std::size_t total();

  private:
    void release(const std::string& address, bool shared);
    std::shared_ptr<SharedCounters> shared_;
    std::size_t maxTotal_, maxPerAddress_;
    std::mutex mu_;
    std::size_t total_ = 0;
    std::unordered_map<std::string, std::size_t> perAddress_;
};

}  // namespace rainet::server
