// Accounts: register, login (throttled) and logout, hashed on the password thread.
#include "server/hub.h"

#include <cctype>
#include <chrono>
#include <cmath>

#include "server/game_room.h"
#include "store/log.h"
#include "store/utc_time.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

bool Hub::cheapHashes() const {
    return config_.passwordCost == "min" || (config_.passwordCost.empty() && config_.testMode);
}

namespace {

// The password thread's top: an exception fails only the request concerned (answered
// `internal`), logged once.
template <class F>
void guarded(const char* what, const Hub::AuthDone& done, F f) {
    try {
        f();
    } catch (const std::exception& e) {
        logEvent("password_exception", {{"request", what}, {"message", e.what()}});
        done(Hub::AuthReply{std::nullopt, ErrorCode::Internal, "the request failed on the server",
                            std::nullopt});
    }
}

}  // namespace

void Hub::registerAccount(const store::PlayerRow& p, const std::string& tokenHash,
                          const std::string& address, std::string username, std::string password,
                          bool bot, AuthDone done) {
    auto limited = [](std::int64_t wait) {
        return AuthReply{std::nullopt, ErrorCode::RateLimited,
                         "too many registrations from your address; try again in " +
                             std::to_string((wait + 99) / 100) + " s",
                         std::nullopt};
    };
    // This node's own count first (no Redis on the network thread); the cluster's on the
    // password thread.
    if (config_.identitiesPerMinute)
        if (const std::int64_t wait = identities_.localWait({address}, time_.nowCs()))
            return done(limited(wait));
    auto job = [this, p, tokenHash, address, username = std::move(username),
                password = std::move(password), bot, done, limited] {
        guarded("register", done, [&] {
            if (config_.identitiesPerMinute)
                if (const std::int64_t wait = identities_.tryTake({address}, time_.nowCs()))
                    return done(limited(wait));
            AuthReply r;
            auto hash = hashPassword(password, cheapHashes());
            if (!hash) {
                r.message = "the password could not be hashed";
                return done(std::move(r));
            }
            store::PlayerRow who = p;
            if (!who.id) {
                auto taken = store_.accountByUsername(username);
                if (!taken) {
                    logEvent("store_error", {{"message", taken.error().message}});
                    r.message = "the account could not be stored";
                    return done(std::move(r));
                }
                if (*taken) {
                    r.code = ErrorCode::UsernameTaken;
                    r.message = "this username is taken";
                    return done(std::move(r));
                }
                auto stored = store_.createPlayer(who.publicId, tokenHash, who.name);
                if (!stored) {
                    logEvent("store_error", {{"message", stored.error().message}});
                    r.message = "the identity could not be stored";
                    return done(std::move(r));
                }
                who = *stored;
                r.guest = who;
            }
            auto outcome = store_.registerAccount(who.id, username, *hash, bot);
            if (!outcome) {
                logEvent("store_error", {{"message", outcome.error().message}});
                r.message = "the account could not be stored";
            } else if (*outcome == store::Registration::UsernameTaken) {
                r.code = ErrorCode::UsernameTaken;
                r.message = "this username is taken";
            } else if (*outcome == store::Registration::AlreadyRegistered) {
                r.code = ErrorCode::AlreadyRegistered;
                r.message = "you already have an account; log out to register another";
            } else if (auto fresh = store_.playerById(who.id); fresh && *fresh) {
                r.identity = Identity{**fresh, {}};
                logEvent("account_registered", {{"player", (*fresh)->publicId}});
            } else {
                if (!fresh) logEvent("store_error", {{"message", fresh.error().message}});
                r.message = "the account could not be read back";
            }
            done(std::move(r));
        });
    };
    if (!passwords_.post(std::move(job))) done(busy());
}

void Hub::login(const std::string& ip, std::string username, std::string password, AuthDone done) {
    std::string key = username;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::string> address = {ip}, pair = {ip + "\n" + key};
    auto limited = [](std::int64_t wait) {
        return AuthReply{
            std::nullopt, ErrorCode::RateLimited,
            "too many failed logins; try again in " + std::to_string((wait + 99) / 100) + " s",
            std::nullopt};
    };
    // This node's own failures first (no Redis on the network thread); the cluster's on the
    // password thread.
    const std::int64_t now = time_.nowCs();
    if (const std::int64_t wait =
            std::max(loginsByAddress_.localWait(address, now), loginsByUser_.localWait(pair, now)))
        return done(limited(wait));
    auto job = [this, address = std::move(address), pair = std::move(pair),
                username = std::move(username), password = std::move(password), done, limited] {
        guarded("login", done, [&] {
            const std::int64_t at = time_.nowCs();
            if (const std::int64_t wait =
                    std::max(loginsByAddress_.wait(address, at), loginsByUser_.wait(pair, at)))
                return done(limited(wait));
            std::call_once(dummyOnce_, [&] {
                dummyHash_ = hashPassword("not a password of anyone", cheapHashes()).value_or("");
            });
            AuthReply r;
            auto found = store_.accountByUsername(username);
            if (!found) {  // not a wrong password: nothing is counted against anyone
                logEvent("store_error", {{"message", found.error().message}});
                r.message = "the login could not be checked";
                return done(std::move(r));
            }
            const auto& account = *found;
            const bool ok = verifyPassword(account ? account->passwordHash : dummyHash_, password);
            if (!account || !ok) {
                loginsByAddress_.take(address, time_.nowCs());
                loginsByUser_.take(pair, time_.nowCs());
                r.code = ErrorCode::BadCredentials;
                r.message = "wrong username or password";
                return done(std::move(r));
            }
            // A banned account is refused after its password is checked (the answer tells
            // nothing to one who does not know it), and counted as no failure.
            auto ban = store_.activeSanction(account->player, "ban", time_.unixMs());
            if (!ban) {
                logEvent("store_error", {{"message", ban.error().message}});
                r.message = "the login could not be checked";
                return done(std::move(r));
            }
            if (*ban) {
                r.code = ErrorCode::Banned;
                r.message = (*ban)->until
                                ? "this account is banned until " + store::utcTime((*ban)->until)
                                : "this account is banned";
                return done(std::move(r));
            }
            auto read = store_.playerById(account->player);
            std::optional<Error> e = read ? Error{"store: no player"} : read.error();
            const std::optional<store::PlayerRow> p = read ? *read : std::nullopt;
            std::string token;
            for (int attempt = 0; p && e && attempt < 100; ++attempt) {  // a token may collide
                token = ids_.token();
                e = store_.addToken(p->id, hashToken(token));
            }
            if (e) {
                logEvent("store_error", {{"message", e->message}});
                r.message = "the login could not be stored";
                return done(std::move(r));
            }
            logEvent("login", {{"player", p->publicId}});
            r.identity = Identity{*p, token};
            done(std::move(r));
        });
    };
    if (!passwords_.post(std::move(job))) done(busy());
}

Hub::AuthReply Hub::busy() {
    return AuthReply{std::nullopt, ErrorCode::Busy,
                     "the server is busy with other logins; try again in a few seconds",
                     std::nullopt};
}

std::optional<Error> Hub::logout(const std::string& token) {
    return store_.revokeToken(hashToken(token));
}

}  // namespace rainet::server
