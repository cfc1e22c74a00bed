// What a WebSocket session does with each message: identity (hello, login, register, logout),
// games (create, and the messages for a game's room), the lobby, seeks, ping.
#include "server/ws_session.h"

#include <utility>

#include "server/forwarding.h"
#include "server/game_room.h"
#include "server/tournaments.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;
using protocol::MsgType;

namespace {

constexpr std::size_t kMaxGamesPerConnection = 100;  // games one connection may follow

}  // namespace

void WsSession::handle(const std::string& text) {
    if (text.size() > protocol::kMaxFrame) {
        if (allow(nullptr)) fail(ErrorCode::TooLarge, "frames are limited to 4096 bytes");
        return;
    }
    auto parsed = protocol::parseClientMessage(text);
    if (!allow(std::holds_alternative<protocol::ClientMessage>(parsed)
                   ? std::get<protocol::ClientMessage>(parsed).id
                   : std::get<protocol::Failure>(parsed).id))
        return;
    if (auto* f = std::get_if<protocol::Failure>(&parsed))
        return fail(f->code, f->message, f->id, f->game);
    const auto& m = std::get<protocol::ClientMessage>(parsed);
    if (registry_.forwarder) raw_ = text;  // forwarded as is if its game is another node's
    if (!player_ && m.type != MsgType::Hello && m.type != MsgType::Login)
        return fail(ErrorCode::NotAuthenticated, "say hello first", m.id, m.game);
    // A new guest is stored only once it does something that needs a row (Hub::hello): admitted
    // under the identity limit on a reader thread (a cluster's limit asks Redis: not on this
    // thread, nor the writer's, whose stall would stall every commit), then stored on the writer.
    if (player_ && !player_->id && Hub::needsStoredPlayer(m.type)) {
        using Stored = std::pair<std::optional<Hub::Refusal>, store::PlayerRow>;
        return viaStore(
            false, [&hub = hub_, ip = ip_] { return hub.admitGuest(ip); },
            [this, m](const std::optional<Hub::Refusal>& no) {
                if (no) return fail(no->code, no->message, m.id, m.game);
                if (!player_) return;
                viaStore(
                    true,
                    [&hub = hub_, p = *player_, hash = tokenHash_]() mutable {
                        auto refused = hub.storeGuest(p, hash);
                        return Stored{std::move(refused), std::move(p)};
                    },
                    [this, m](const Stored& r) {
                        if (r.first) return fail(r.first->code, r.first->message, m.id, m.game);
                        if (!player_) return;
                        player_ = r.second;
                        relink();
                        route(m);
                    });
            });
    }
    route(m);
}

void WsSession::route(const protocol::ClientMessage& m) {
    auto self = shared_from_this();
    switch (m.type) {
        case MsgType::Hello: {
            if (player_) return fail(ErrorCode::BadMessage, "hello was already said", m.id);
            // Read off the network threads; on the writer thread when it may rename the
            // player (a token and a name).
            const bool renames = !m.token.empty() && !m.name.empty();
            using Welcome = std::pair<Hub::Identity, std::string>;
            return viaStore(
                renames,
                [&hub = hub_, token = m.token, name = m.name]() -> Result<Welcome> {
                    auto who = hub.hello(token, name);
                    if (!who) return who.error();
                    auto text = hub.welcome(*who);
                    if (!text) return text.error();
                    return Welcome{std::move(*who), std::move(*text)};
                },
                [this, id = m.id](Result<Welcome>& r) {
                    // A store failure answers `internal` and changes nothing: the client
                    // keeps its token and says hello again (never a new guest in place of
                    // the player).
                    if (!r) {
                        logEvent("store_error", {{"message", r.error().message}});
                        return fail(
                            ErrorCode::Internal,
                            "the server could not read or store your identity; say hello again",
                            id);
                    }
                    if (player_) return fail(ErrorCode::BadMessage, "hello was already said", id);
                    player_ = r->first.player;
                    token_ = r->first.token;
                    tokenHash_ = hashToken(token_);
                    relink();
                    timer_.cancel();
                    reply(std::move(r->second));
                });
        }
        case MsgType::Register:
        case MsgType::Login: {
            if (authBusy_)
                return fail(ErrorCode::RateLimited, "a login or registration is under way", m.id);
            if (m.type == MsgType::Register && player_->kind == "account")
                return fail(ErrorCode::AlreadyRegistered,
                            "you already have an account; log out to register another", m.id);
            authBusy_ = true;
            // Called on the hub's password thread: back to this session's strand.
            auto done = [self, id = m.id, type = m.type](Hub::AuthReply r) {
                asio::post(self->ws_.get_executor(),
                           [self, id, type, r = std::move(r)] { self->authDone(type, id, r); });
            };
            if (m.type == MsgType::Register)
                hub_.registerAccount(*player_, tokenHash_, ip_, m.username, m.password, m.bot,
                                     std::move(done));
            else
                hub_.login(ip_, m.username, m.password, std::move(done));
            return;
        }
        case MsgType::Logout:
            return viaStore(
                true, [&hub = hub_, token = token_] { return hub.logout(token); },
                [this, id = m.id](const std::optional<Error>& e) {
                    if (e) {
                        logEvent("store_error", {{"message", e->message}});
                        return fail(ErrorCode::Internal, "the logout could not be stored", id);
                    }
                    if (!player_) return reply(protocol::renderAck(id));
                    logEvent("logout", {{"player", player_->publicId}});
                    dropIdentity();
                    awaitHello();
                    reply(protocol::renderAck(id));
                });
        case MsgType::Create: {
            if (rooms_.size() >= kMaxGamesPerConnection)
                return fail(ErrorCode::BadMessage, "too many games on one connection; leave some",
                            m.id);
            // The creator follows the game: tracked so that closing unsubscribes it. Stored
            // on the writer thread.
            return viaStore(
                true, [&hub = hub_, self, p = *player_, m] { return hub.create(self, p, m); },
                [this](const std::shared_ptr<GameRoom>& room) {
                    if (room) rooms_[room->id()] = room;
                });
        }
        case MsgType::Rename: {
            // Seats already taken keep the name they were taken with; new games use this one.
            if (player_->kind == "account")
                return fail(ErrorCode::BadMessage, "an account is named after its username", m.id);
            return viaStore(
                true,
                [&hub = hub_, player = player_->id, name = m.name] {
                    return hub.store().renamePlayer(player, name);
                },
                [this, id = m.id, name = m.name](const std::optional<Error>& e) {
                    if (e) {
                        logEvent("store_error", {{"message", e->message}});
                        return fail(ErrorCode::Internal, "the name could not be stored", id);
                    }
                    if (!player_) return;
                    player_->name = name;
                    reply(protocol::render(protocol::Ack{
                        id, {}, std::nullopt, Hub::ownPlayer(*player_), std::nullopt}));
                });
        }
        case MsgType::Seek:  // may store a new game: on the writer thread
            return viaStore(
                true,
                [&hub = hub_, self, p = *player_, m] {
                    hub.seek(self, p, m);
                    return true;
                },
                [](bool) {});
        case MsgType::Unseek:
            hub_.unseek(this, player_->id);
            return reply(protocol::renderAck(m.id));
        case MsgType::TournamentCreate:
        case MsgType::TournamentJoin:
        case MsgType::TournamentPause:
        case MsgType::TournamentWithdraw:
        case MsgType::TournamentWatch:
        case MsgType::Tournaments:
            // They read and write the store: on the writer thread, as create does.
            return viaStore(
                true,
                [&hub = hub_, self, p = *player_, m] {
                    auto& t = hub.tournaments();
                    if (m.type == MsgType::TournamentCreate) t.create(self, p, m);
                    if (m.type == MsgType::TournamentJoin) t.join(self, p, m);
                    if (m.type == MsgType::TournamentPause) t.pause(self, p, m);
                    if (m.type == MsgType::TournamentWithdraw) t.withdraw(self, p, m);
                    if (m.type == MsgType::TournamentWatch) t.watch(self, p.id, m);
                    if (m.type == MsgType::Tournaments) t.list(self, m);
                    return true;
                },
                [](bool) {});
        case MsgType::TournamentUnwatch:
            return hub_.tournaments().unwatch(this, m.tournament);
        case MsgType::LobbySubscribe:
            return hub_.subscribeLobby(self);
        case MsgType::LobbyUnsubscribe:
            return hub_.unsubscribeLobby(this);
        case MsgType::Ping:
            return reply(protocol::render(protocol::PongMessage{m.id}));
        case MsgType::Notifications:
            return viaStore(
                false,
                [&hub = hub_, player = player_->id, m] {
                    return hub.notificationPage(player, m.before, m.limit, m.id);
                },
                [this, id = m.id](Result<std::string>& r) {
                    if (!r) {
                        logEvent("store_error", {{"message", r.error().message}});
                        return fail(ErrorCode::Internal, "the notifications could not be read", id);
                    }
                    reply(std::move(*r));
                });
        case MsgType::Challenge:  // admitted on a reader thread, then on the writer thread
            return viaStore(
                false, [&hub = hub_, ip = ip_] { return hub.admitChallenge(ip); },
                [this, self, m](const std::optional<Hub::Refusal>& no) {
                    if (no) return fail(no->code, no->message, m.id);
                    if (!player_) return;
                    viaStore(
                        true,
                        [&hub = hub_, self, p = *player_, m] {
                            hub.challenge(self, p, m);
                            return true;
                        },
                        [](bool) {});
                });
        case MsgType::ChallengeAccept:
        case MsgType::ChallengeDecline:
        case MsgType::ChallengeCancel:
            return viaStore(
                true,
                [&hub = hub_, self, p = *player_, m] {
                    hub.answerChallenge(self, p, m);
                    return true;
                },
                [](bool) {});
        case MsgType::ChallengeSettings:
            return viaStore(
                true,
                [&hub = hub_, self, p = *player_, m] {
                    hub.setChallengeSettings(self, p, m);
                    return true;
                },
                [](bool) {});
        case MsgType::Follow:
        case MsgType::Unfollow:
            return viaStore(
                true,
                [&hub = hub_, self, p = *player_, m] {
                    hub.follow(self, p, m);
                    return true;
                },
                [](bool) {});
        case MsgType::Block:
        case MsgType::Unblock:
        case MsgType::Report:
        case MsgType::Reports:
        case MsgType::Moderate:
            return viaStore(
                true,
                [&hub = hub_, self, p = *player_, m] {
                    if (m.type == MsgType::Report) hub.report(self, p, m);
                    if (m.type == MsgType::Reports) hub.reports(self, p, m);
                    if (m.type == MsgType::Moderate) hub.moderate(self, p, m);
                    if (m.type == MsgType::Block || m.type == MsgType::Unblock)
                        hub.block(self, p, m);
                    return true;
                },
                [](bool) {});
        case MsgType::Challenges:
        case MsgType::Following:
        case MsgType::MyGames:
        case MsgType::Blocked:
            return viaStore(
                false,
                [&hub = hub_, p = *player_, m] {
                    if (m.type == MsgType::MyGames) return hub.myGames(p, m.id);
                    if (m.type == MsgType::Blocked) return hub.blockedList(p, m.id);
                    return m.type == MsgType::Challenges ? hub.challengeList(p, m.id)
                                                         : hub.followingList(p, m.id);
                },
                [this, id = m.id](Result<std::string>& r) {
                    if (!r) {
                        logEvent("store_error", {{"message", r.error().message}});
                        return fail(ErrorCode::Internal, "the list could not be read", id);
                    }
                    reply(std::move(*r));
                });
        case MsgType::NotificationsRead:
            return viaStore(
                true,
                [&hub = hub_, player = player_->id, upTo = m.upTo] {
                    return hub.markNotificationsRead(player, upTo);
                },
                [this, id = m.id](const Result<std::int64_t>& r) {
                    if (!r) {
                        logEvent("store_error", {{"message", r.error().message}});
                        return fail(ErrorCode::Internal, "the notifications could not be marked",
                                    id);
                    }
                    reply(protocol::renderAck(id));
                });
        default:
            break;
    }
    if (auto f = forwarded_.find(m.game); f != forwarded_.end()) return forwardTo(f->second, m);
    std::shared_ptr<GameRoom> room;
    if (auto it = rooms_.find(m.game); it != rooms_.end() && !it->second->broken())
        room = it->second;
    else if (rooms_.size() + forwarded_.size() >= kMaxGamesPerConnection)
        return fail(ErrorCode::BadMessage, "too many games on one connection; leave some", m.id,
                    m.game);
    else if (!(room = hub_.loaded(m.game))) {
        // Read and replayed on a reader thread (Hub::open takes no lock meanwhile). A game
        // another node owns: its owner is read there too, and the message forwarded to it.
        struct Opened {
            Result<std::shared_ptr<GameRoom>> room;
            std::string owner;
        };
        return viaStore(
            false,
            [&hub = hub_, id = m.game, forwarding = registry_.forwarder != nullptr] {
                Opened o{hub.open(id), {}};
                if (forwarding && !o.room && o.room.error().message == Hub::kHeldElsewhere)
                    if (auto l = hub.store().leaseOf(id); l && *l) o.owner = (*l)->owner;
                return o;
            },
            [this, m](const Opened& o) {
                const auto& opened = o.room;
                if (!opened && opened.error().message == Hub::kHeldElsewhere) {
                    if (registry_.forwarder && !o.owner.empty() &&
                        o.owner != registry_.forwarder->node())
                        return forwardTo(o.owner, m);
                    return fail(ErrorCode::Busy,
                                "the game is served by another node; try again in a moment", m.id,
                                m.game);
                }
                if (!opened)
                    return fail(ErrorCode::Internal, "the game could not be read; try again", m.id,
                                m.game);
                toRoom(*opened, m);
            });
    }
    toRoom(room, m);
}

void WsSession::forwardTo(const std::string& owner, const protocol::ClientMessage& m) {
    Forwarder* fwd = registry_.forwarder;
    if (!fwd || !player_) return fail(ErrorCode::Busy, "try again in a moment", m.id, m.game);
    if (!serial_) serial_ = fwd->newSerial();
    const bool leaving = m.type == MsgType::Leave;
    if (leaving)
        forwarded_.erase(m.game);
    else
        forwarded_[m.game] = owner;
    if (!fwd->forward(serial_, weak_from_this(), m.game, owner, *player_, raw_, leaving))
        // The publishing queue is full: this connection would lose messages; it resumes.
        closeNow(websocket::close_code::service_restart, "game moved; reconnect", false);
}

void WsSession::stopForwarding() {
    if (registry_.forwarder && serial_) registry_.forwarder->gone(serial_);
    forwarded_.clear();
}

void WsSession::toRoom(const std::shared_ptr<GameRoom>& room, const protocol::ClientMessage& m) {
    if (!room) return fail(ErrorCode::UnknownGame, "no game has this id", m.id, m.game);
    if (!player_) return fail(ErrorCode::NotAuthenticated, "say hello first", m.id, m.game);
    if (m.type == MsgType::Leave)
        rooms_.erase(m.game);
    else
        rooms_[m.game] = room;
    room->run([self = shared_from_this(), p = *player_, m](GameRoom& r) { r.handle(self, p, m); });
}

void WsSession::authDone(MsgType type, const Json& id, const Hub::AuthReply& r) {
    authBusy_ = false;
    if (closing_ || finished_) return;
    if (!r.identity) {
        if (r.guest && player_ && !player_->id) {
            player_ = *r.guest;  // stored meanwhile
            relink();
        }
        if (!player_) awaitHello();  // a failed login: the hello timeout starts again
        return fail(r.code, r.message, id);
    }
    if (type == MsgType::Register) {
        player_ = r.identity->player;
        relink();
        return reply(protocol::render(
            protocol::Ack{id, {}, std::nullopt, Hub::ownPlayer(*player_), std::nullopt}));
    }
    // A login replaces the connection's identity: what it followed as the old player is
    // dropped; the client follows its games again after the welcome.
    auto text = hub_.welcome(*r.identity, id);
    if (!text) {
        logEvent("store_error", {{"message", text.error().message}});
        return fail(ErrorCode::Internal, "the login could not be completed; try again", id);
    }
    dropIdentity();
    player_ = r.identity->player;
    token_ = r.identity->token;
    tokenHash_ = hashToken(token_);
    relink();
    timer_.cancel();
    reply(std::move(*text));
}

void WsSession::relink() {
    const std::int64_t now = player_ ? player_->id : 0;
    if (now == linked_) return;
    hub_.links().remove(linked_, this);
    linked_ = now;
    if (now) hub_.links().add(now, shared_from_this());
}

void WsSession::dropIdentity() {
    for (auto& [gid, room] : rooms_) room->run([key = this](GameRoom& r) { r.unsubscribe(key); });
    rooms_.clear();
    stopForwarding();
    hub_.unsubscribeLobby(this);
    hub_.tournaments().unwatch(this, "");
    hub_.unseek(this, 0);  // a seek must not pair the identity just left
    player_.reset();
    relink();
    token_.clear();
    tokenHash_.clear();
}

}  // namespace rainet::server
