#pragma once
// Identifiers and secrets: game ids, public player ids, guest tokens, and seeds for the rooms'
// random choices. Production draws them from libsodium's CSPRNG; the deterministic source (test
// mode) numbers them, so scripted sessions give byte-identical transcripts.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace rainet::server {

class IdSource {
  public:
    virtual ~IdSource() = default;
    virtual std::string gameId() = 0;    // "g" + letters and digits
    virtual std::string playerId() = 0;  // "p" + letters and digits
    virtual std::string token() = 0;     // 64 hex digits (256 bits)
    virtual std::uint64_t seed() = 0;
    static std::unique_ptr<IdSource> random();
    static std::unique_ptr<IdSource> sequential();
};

// SHA-256 of a token, as 64 hex digits: what the store keeps.
std::string hashToken(const std::string& token);

}  // namespace rainet::server
