#include "server/ids.h"

#include <sodium.h>

namespace rainet::server {

namespace {

// Written without operator+(const char*, string&&), which trips GCC 12's -Wrestrict.
std::string prefixed(char prefix, const std::string& rest) {
    std::string s(1, prefix);
    s += rest;
    return s;
}

std::string hex(const unsigned char* p, std::size_t n) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        s += kDigits[p[i] >> 4];
        s += kDigits[p[i] & 15];
    }
    return s;
}

class RandomIds : public IdSource {
  public:
    RandomIds() {
        if (sodium_init() < 0) std::abort();
    }
    std::string gameId() override { return prefixed('g', code(10)); }
    std::string playerId() override { return prefixed('p', code(10)); }
    std::string token() override {
        unsigned char b[32];
        randombytes_buf(b, sizeof b);
        return hex(b, sizeof b);
    }
    std::uint64_t seed() override {
        std::uint64_t s;
        randombytes_buf(&s, sizeof s);
        return s;
    }

  private:
    static std::string code(int n) {
        static constexpr char kAlphabet[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";  // 32 letters
        std::string s;
        for (int i = 0; i < n; ++i) s += kAlphabet[randombytes_uniform(32)];
        return s;
    }
};

class SequentialIds : public IdSource {
  public:
    std::string gameId() override { return prefixed('g', std::to_string(++games_)); }
    std::string playerId() override { return prefixed('p', std::to_string(++players_)); }
    std::string token() override {
        std::string s = "test-token-";
        s += std::to_string(++tokens_);
        return hashToken(s);  // 64 hex digits, deterministic
    }
    std::uint64_t seed() override { return ++seeds_ * 0x9E3779B97F4A7C15ULL; }

  private:
    std::atomic<int> games_{0}, players_{0}, tokens_{0};
    std::atomic<std::uint64_t> seeds_{0};
};

}  // namespace

std::unique_ptr<IdSource> IdSource::random() {
    return std::make_unique<RandomIds>();
}
std::unique_ptr<IdSource> IdSource::sequential() {
    return std::make_unique<SequentialIds>();
}

std::string hashToken(const std::string& token) {
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(token.data()), token.size());
    return hex(h, sizeof h);
}

}  // namespace rainet::server
