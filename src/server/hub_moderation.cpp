// Blocks, reports and moderators' actions over the protocol (hub.h; docs/protocol.md,
// "Moderation"). All live in the store, so that every node of a cluster and `rainet admin` see
// the same; every moderator's action is written to the moderation log with it.
#include "protocol/server_messages.h"
#include "server/hub.h"
#include "server/player_object.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

constexpr std::int64_t kDayMs = 24 * 60 * 60 * 1000;

}  // namespace

void Hub::block(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                const protocol::ClientMessage& m) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    const auto other = otherPlayer(c, p, m, "block");
    if (!other) return;
    const store::PlayerRow& them = *other;
    if (m.type == protocol::MsgType::Unblock) {
        auto r = store_.unblock(p.id, them.id);
        if (!r) return refuse(ErrorCode::Internal, "the block could not be stored");
        return c->send(protocol::renderAck(m.id));
    }
    auto r = store_.block(p.id, them.id, time_.unixMs(), kMaxBlocks);
    if (!r) return refuse(ErrorCode::Internal, "the block could not be stored");
    if (*r == store::BlockResult::Full)
        return refuse(ErrorCode::BadMessage, "you block " + std::to_string(kMaxBlocks) +
                                                 " players already; unblock some first");
    c->send(protocol::renderAck(m.id));
}

Result<std::string> Hub::blockedList(const store::PlayerRow& p, const Json& id) {
    protocol::BlockedMessage out;
    out.id = id.is_null() ? std::nullopt : std::optional<Json>(id);
    if (p.id) {
        auto list = store_.blockedBy(p.id);
        if (!list) return list.error();
        for (const auto& b : *list)
            out.players.push_back(playerObject(factsOf(b), PlayerPlace::Chat));
    }
    return protocol::render(out);
}

void Hub::report(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                 const protocol::ClientMessage& m) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    const auto other = otherPlayer(c, p, m, "report");
    if (!other) return;
    store::ReportRow r;
    r.reporter = p.id;
    r.target = other->id;
    r.game = m.game;
    r.reason = m.reason;
    r.text = m.text;
    r.created = time_.unixMs();
    auto added = store_.addReport(r, kMaxReportsPerDay, r.created - kDayMs);
    if (!added) {
        logEvent("store_error", {{"message", added.error().message}});
        return refuse(ErrorCode::Internal, "the report could not be stored");
    }
    if (!*added)
        return refuse(ErrorCode::RateLimited, "you made " + std::to_string(kMaxReportsPerDay) +
                                                  " reports in the last 24 hours; wait a little");
    logEvent("report", {{"report", **added}, {"from", p.publicId}, {"about", m.player}});
    c->send(protocol::renderAck(m.id));
}

namespace {

// Whether the player holds the moderator or admin role (an Error when it cannot be read).
Result<bool> isModerator(store::Store& st, std::int64_t player) {
    if (!player) return false;
    auto roles = st.roles(player);
    if (!roles) return roles.error();
    for (const auto& r : *roles)
        if (r == "moderator" || r == "admin") return true;
    return false;
}

}  // namespace

void Hub::reports(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                  const protocol::ClientMessage& m) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    auto mod = isModerator(store_, p.id);
    if (!mod) return refuse(ErrorCode::Internal, "the reports could not be read; try again");
    if (!*mod) return refuse(ErrorCode::Forbidden, "only moderators read reports");
    auto list = store_.reports("open", kMaxReportsListed);
    if (!list) return refuse(ErrorCode::Internal, "the reports could not be read; try again");
    protocol::ReportsMessage out;
    out.id = m.id.is_null() ? std::nullopt : std::optional<Json>(m.id);
    for (const auto& r : *list) {
        store::PlayerRow from, about;
        from.publicId = r.reporterPublicId;
        from.name = r.reporterName;
        about.publicId = r.targetPublicId;
        about.name = r.targetName;
        protocol::Report o;
        o.id = r.id;
        o.reporter = playerObject(factsOf(from), PlayerPlace::Chat);
        o.target = playerObject(factsOf(about), PlayerPlace::Chat);
        if (!r.game.empty()) o.game = r.game;
        o.reason = r.reason;
        o.text = r.text;
        o.at = r.created;
        out.reports.push_back(std::move(o));
    }
    c->send(protocol::render(out));
}

void Hub::moderate(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                   const protocol::ClientMessage& m) {
    auto refuse = [&](ErrorCode code, const std::string& why) {
        metrics_.error(code);
        c->send(protocol::renderError(code, why, m.id));
    };
    auto mod = isModerator(store_, p.id);
    if (!mod) return refuse(ErrorCode::Internal, "the roles could not be read; try again");
    if (!*mod) return refuse(ErrorCode::Forbidden, "only moderators may do this");
    const std::int64_t now = time_.unixMs();
    if (m.modAction == "close_report") {
        auto closed = store_.closeReport(m.report, p.id, m.text, now);
        if (!closed) return refuse(ErrorCode::Internal, "the report could not be stored");
        if (!*closed) return refuse(ErrorCode::BadMessage, "no open report has this id");
        return c->send(protocol::renderAck(m.id));
    }
    auto target = store_.playerByPublicId(m.player);
    if (!target) return refuse(ErrorCode::Internal, "the player could not be read; try again");
    if (!*target) return refuse(ErrorCode::UnknownPlayer, "no player has this id");
    const store::PlayerRow& them = **target;
    if (them.id == p.id) return refuse(ErrorCode::BadMessage, "you cannot moderate yourself");
    if (m.modAction == "unmute" || m.modAction == "unban") {
        auto lifted = store_.liftSanction(them.id, m.modAction.substr(2), p.id, m.text, now);
        if (!lifted) return refuse(ErrorCode::Internal, "the change could not be stored");
        if (!*lifted)
            return refuse(ErrorCode::BadMessage, m.modAction == "unban"
                                                     ? "this player is not banned"
                                                     : "this player is not muted");
        return c->send(protocol::renderAck(m.id));
    }
    store::SanctionRow s;
    s.player = them.id;
    s.kind = m.modAction;  // mute, ban
    s.until = m.modAction == "mute" ? now + std::int64_t{m.muteMinutes} * 60'000 : 0;
    s.by = p.id;
    s.reason = m.text;
    if (auto e = store_.sanction(s, now)) {
        logEvent("store_error", {{"message", e->message}});
        return refuse(ErrorCode::Internal, "the change could not be stored");
    }
    logEvent("moderation",
             {{"action", m.modAction}, {"by", p.publicId}, {"player", them.publicId}});
    c->send(protocol::renderAck(m.id));
}

}  // namespace rainet::server
