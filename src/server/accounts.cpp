#include "server/accounts.h"

#include <sodium.h>

#include <boost/asio/post.hpp>

namespace rainet::server {

std::optional<std::string> hashPassword(std::string_view password, bool cheap) {
    if (sodium_init() < 0) return std::nullopt;
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(
            out, password.data(), password.size(),
            cheap ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE,
            cheap ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
        return std::nullopt;
    return std::string(out);
}

bool verifyPassword(const std::string& hash, std::string_view password) {
    if (sodium_init() < 0 || hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
    return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

PasswordWorker::~PasswordWorker() {
    stop();
    pool_.join();
}

bool PasswordWorker::post(std::function<void()> job) {
    if (stopping_) return false;
    if (++jobs_ > capacity_) {
        --jobs_;
        return false;
    }
    boost::asio::post(pool_, [this, job = std::move(job)] {
        if (stopping_)
            ++dropped_;
        else
            job();
        --jobs_;
    });
    return true;
}

void PasswordWorker::stop() {
    stopping_ = true;
}

}  // namespace rainet::server
