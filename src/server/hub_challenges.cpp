// Challenges between named players and follows (hub.h; docs/protocol.md, "Challenges" and
// "Follows"). Both live in the store, so that every node of a cluster sees them; what concerns a
// player reaches its connections on every node (Hub::sendToPlayer).
#include "protocol/server_messages.h"
#include "server/game_room.h"
#include "server/hub.h"
#include "server/player_object.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

protocol::Challenge challengeObject(const store::ChallengeRow& c, const store::PlayerRow& from,
                                    const store::PlayerRow& to) {
    protocol::Challenge o;
    o.id = c.id;
    o.from = playerObject(factsOf(from), PlayerPlace::Public);
    o.to = playerObject(factsOf(to), PlayerPlace::Public);
    o.preset =
        protocol::enumFromName<protocol::Preset>(c.preset).value_or(protocol::Preset::Standard);
    o.clock = protocol::clockSetting(c.clockInitial, c.clockIncrement);
    o.rated = c.rated;
    o.side = c.side == "1"   ? protocol::SideWish::One
             : c.side == "2" ? protocol::SideWish::Two
                             : protocol::SideWish::Random;
    o.expires = c.expires;
    return o;
}

Json who(const store::PlayerRow& p) {
    return {{"id", p.publicId}, {"name", p.name}, {"kind", p.bot ? "bot" : p.kind}};
}

}  // namespace

std::optional<Hub::Refusal> Hub::admitChallenge(const std::string& address) {
    if (const std::int64_t wait = challengesByAddress_.tryTake({address}, time_.nowCs()))
        return Refusal{ErrorCode::RateLimited,
                       "too many challenges from your address; try again in " +
                           std::to_string((wait + 99) / 100) + " s"};
    return std::nullopt;
}

void Hub::challenge(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                    const protocol::ClientMessage& m) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    // The challenged, by id or username.
    store::Lookup<store::PlayerRow> target = std::nullopt;
    if (!m.player.empty()) {
        target = store_.playerByPublicId(m.player);
    } else {
        auto acc = store_.accountByUsername(m.username);
        if (!acc)
            target = acc.error();
        else if (*acc)
            target = store_.playerById((*acc)->player);
    }
    if (!target) return refuse(ErrorCode::Internal, "the player could not be read; try again");
    if (!*target) return refuse(ErrorCode::UnknownPlayer, "no player has this id or username");
    const store::PlayerRow& to = **target;
    if (to.id == p.id) return refuse(ErrorCode::BadMessage, "you cannot challenge yourself");
    auto settings = store_.challengeSettings(to.id);
    if (!settings) return refuse(ErrorCode::Internal, "the player could not be read; try again");
    if (settings->from == "nobody")
        return refuse(ErrorCode::ChallengeRefused, "this player accepts no challenges");
    auto blocked = store_.blocks(to.id, p.id);
    if (!blocked) return refuse(ErrorCode::Internal, "the player could not be read; try again");
    if (*blocked)
        return refuse(ErrorCode::ChallengeRefused, "this player accepts no challenges from you");
    if (p.bot && !settings->bots)
        return refuse(ErrorCode::ChallengeRefused, "this player accepts no challenges from bots");
    if (settings->from == "followed") {
        auto f = store_.follows(to.id, p.id);
        if (!f) return refuse(ErrorCode::Internal, "the player could not be read; try again");
        if (!*f)
            return refuse(ErrorCode::ChallengeRefused,
                          "this player accepts challenges only from players it follows");
    }
    store::ChallengeRow row;
    row.id = "c" + ids_.gameId().substr(1);
    row.challenger = p.id;
    row.challenged = to.id;
    row.preset = m.preset;
    if (m.clock) {
        row.clockInitial = m.clock->initial;
        row.clockIncrement = m.clock->increment;
    }
    row.rated = m.rated.value_or(true);
    row.side = m.side;
    row.created = time_.unixMs();
    row.expires = row.created + kChallengeTtlMs;
    auto added = store_.insertChallenge(row, kMaxChallengesOut, kMaxChallengesIn);
    if (!added) {
        logEvent("store_error", {{"message", added.error().message}});
        return refuse(ErrorCode::Internal, "the challenge could not be stored");
    }
    if (*added == store::ChallengeInsert::TooManyOut)
        return refuse(ErrorCode::RateLimited,
                      "you have " + std::to_string(kMaxChallengesOut) +
                          " challenges waiting already; cancel one or wait for answers");
    if (*added == store::ChallengeInsert::TooManyIn)
        return refuse(ErrorCode::ChallengeRefused,
                      "this player has too many challenges waiting; try again later");
    const protocol::Challenge obj = challengeObject(row, p, to);
    c->send(protocol::render(protocol::ChallengeMessage{obj, m.id}));
    sendToPlayer(to.id, protocol::render(protocol::ChallengeMessage{obj, std::nullopt}));
    notify(to.id, "challenge",
           {{"challenge", row.id},
            {"from", who(p)},
            {"preset", row.preset},
            {"clock", protocol::clockJson(row.clockInitial, row.clockIncrement)},
            {"rated", row.rated}});
    logEvent("challenge", {{"challenge", row.id}, {"from", p.publicId}, {"to", to.publicId}});
}

void Hub::answerChallenge(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                          const protocol::ClientMessage& m) {
    using protocol::MsgType;
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    auto found = store_.challenge(m.challenge);
    if (!found) return refuse(ErrorCode::Internal, "the challenge could not be read; try again");
    const bool cancel = m.type == MsgType::ChallengeCancel;
    if (!*found || (cancel ? (*found)->challenger : (*found)->challenged) != p.id)
        return refuse(ErrorCode::UnknownChallenge, cancel ? "you made no challenge with this id"
                                                          : "you have no challenge with this id");
    const char* status = m.type == MsgType::ChallengeAccept    ? "accepted"
                         : m.type == MsgType::ChallengeDecline ? "declined"
                                                               : "canceled";
    auto settled = store_.settleChallenge(
        m.challenge, status, m.type == MsgType::ChallengeDecline ? m.reason : "", time_.unixMs());
    if (!settled) return refuse(ErrorCode::Internal, "the challenge could not be stored");
    if (!*settled)
        return refuse(ErrorCode::UnknownChallenge,
                      "the challenge is no longer waiting (answered, canceled or expired)");
    const store::ChallengeRow& ch = **settled;
    const std::int64_t other = cancel ? ch.challenged : ch.challenger;
    protocol::ChallengeUpdateMessage update;
    update.challenge = ch.id;
    if (m.type == MsgType::ChallengeDecline) {
        update.status = protocol::ChallengeStatus::Declined;
        update.reason = ch.reason;
        c->send(protocol::renderAck(m.id));
        sendToPlayer(other, protocol::render(update));
        notify(other, "challenge_declined",
               {{"challenge", ch.id}, {"by", who(p)}, {"reason", ch.reason}});
        return;
    }
    if (cancel) {
        update.status = protocol::ChallengeStatus::Canceled;
        c->send(protocol::renderAck(m.id));
        sendToPlayer(other, protocol::render(update));
        return;
    }
    // Accepted: the game, both seated, in setup, sides as the challenger wished.
    store::GameRow row;
    row.preset = ch.preset;
    row.clockInitial = ch.clockInitial;
    row.clockIncrement = ch.clockIncrement;
    row.clock[0] = row.clock[1] = row.clockInitial;
    row.opponent = "match";  // arranged by the server; never listed
    row.rated = ch.rated;
    row.creator = ch.challenger;
    row.sideWish = ch.side;
    int challengerSide = ch.side == "1"   ? 0
                         : ch.side == "2" ? 1
                                          : static_cast<int>(ids_.seed() >> 63);
    row.player[challengerSide] = ch.challenger;
    row.player[1 - challengerSide] = ch.challenged;
    row.status = GameStatus::Setup;
    if (!launch(row, std::nullopt))
        return refuse(ErrorCode::Internal, "the game could not be stored; challenge again");
    if (auto e = store_.setChallengeGame(ch.id, row.id))
        logEvent("store_error", {{"message", e->message}});
    logEvent("game_created", {{"game", row.id}, {"opponent", "challenge"}});
    update.status = protocol::ChallengeStatus::Accepted;
    update.game = row.id;
    c->send(protocol::renderAck(m.id, row.id));
    auto matched = [&](int side) {
        return protocol::render(
            protocol::MatchedMessage{row.id, side == 0 ? Side::One : Side::Two});
    };
    sendToPlayer(ch.challenged, matched(1 - challengerSide));
    sendToPlayer(ch.challenger, protocol::render(update));
    sendToPlayer(ch.challenger, matched(challengerSide));
    notify(ch.challenger, "challenge_accepted",
           {{"challenge", ch.id}, {"by", who(p)}, {"game", row.id}});
}

Result<std::string> Hub::challengeList(const store::PlayerRow& p, const Json& id) {
    protocol::ChallengesMessage out;
    out.id = id.is_null() ? std::nullopt : std::optional<Json>(id);
    if (p.id) {
        auto list = store_.pendingChallenges(p.id, time_.unixMs());
        if (!list) return list.error();
        for (const auto& c : *list) {
            const bool mine = c.challenger == p.id;
            auto other = store_.playerById(mine ? c.challenged : c.challenger);
            if (!other) return other.error();
            if (!*other) continue;
            if (mine)
                out.sent.push_back(challengeObject(c, p, **other));
            else
                out.received.push_back(challengeObject(c, **other, p));
        }
    }
    return protocol::render(out);
}

void Hub::expireChallenges() {
    store_.write([this] {
        auto gone = store_.expireChallenges(time_.unixMs());
        if (!gone) return logEvent("store_error", {{"message", gone.error().message}});
        for (const auto& c : *gone) {
            protocol::ChallengeUpdateMessage u;
            u.challenge = c.id;
            u.status = protocol::ChallengeStatus::Expired;
            const std::string text = protocol::render(u);
            sendToPlayer(c.challenger, text);
            sendToPlayer(c.challenged, text);
        }
    });
}

std::optional<store::PlayerRow> Hub::otherPlayer(const std::shared_ptr<Client>& c,
                                                 const store::PlayerRow& p,
                                                 const protocol::ClientMessage& m,
                                                 std::string_view verb) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
        return std::nullopt;
    };
    auto target = store_.playerByPublicId(m.player);
    if (!target) return refuse(ErrorCode::Internal, "the player could not be read; try again");
    if (!*target) return refuse(ErrorCode::UnknownPlayer, "no player has this id");
    if ((*target)->id == p.id)
        return refuse(ErrorCode::BadMessage, "you cannot " + std::string(verb) + " yourself");
    return std::move(**target);
}

void Hub::follow(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                 const protocol::ClientMessage& m) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    const auto other = otherPlayer(c, p, m, "follow");
    if (!other) return;
    const store::PlayerRow& them = *other;
    if (m.type == protocol::MsgType::Unfollow) {
        auto r = store_.unfollow(p.id, them.id);
        if (!r) return refuse(ErrorCode::Internal, "the follow could not be stored");
        return c->send(protocol::renderAck(m.id));
    }
    auto r = store_.follow(p.id, them.id, time_.unixMs(), kMaxFollows);
    if (!r) return refuse(ErrorCode::Internal, "the follow could not be stored");
    if (*r == store::FollowResult::Full)
        return refuse(ErrorCode::BadMessage, "you follow " + std::to_string(kMaxFollows) +
                                                 " players already; unfollow some first");
    if (auto e = store_.setFollowStarts(p.id, them.id, m.starts))
        return refuse(ErrorCode::Internal, "the follow could not be stored");
    c->send(protocol::renderAck(m.id));
    if (*r == store::FollowResult::Added) notify(them.id, "followed", {{"by", who(p)}});
}

void Hub::notifyGameStarted(std::int64_t player, const std::string& publicId,
                            const std::string& name, const std::string& game) {
    store_.read([this, player, publicId, name, game] {
        auto ids = store_.startFollowers(player, kMaxFollows);
        if (!ids) return logEvent("store_error", {{"message", ids.error().message}});
        for (std::int64_t f : *ids)
            notify(f, "follow_started_game",
                   {{"player", {{"id", publicId}, {"name", name}}}, {"game", game}});
    });
}

Result<std::string> Hub::followingList(const store::PlayerRow& p, const Json& id) {
    protocol::FollowingMessage out;
    out.id = id.is_null() ? std::nullopt : std::optional<Json>(id);
    if (p.id) {
        auto list = store_.following(p.id);
        if (!list) return list.error();
        for (const auto& f : *list)
            out.players.push_back({playerObject(factsOf(f.player), PlayerPlace::Public),
                                   links_.online(f.player.id), f.games});
    }
    return protocol::render(out);
}

void Hub::setChallengeSettings(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                               const protocol::ClientMessage& m) {
    if (auto e = store_.setChallengeSettings(p.id, {m.from, m.bots})) {
        logEvent("store_error", {{"message", e->message}});
        metrics_.error(ErrorCode::Internal);
        return c->send(
            protocol::renderError(ErrorCode::Internal, "the setting could not be stored", m.id));
    }
    c->send(protocol::renderAck(m.id));
}

}  // namespace rainet::server
