// What a game room sends, rendered for one viewer: clocks, players, result, the snapshot.
#include "server/game_room_detail.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>

#include "server/bot_workers.h"
#include "server/hub.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::MsgType;
using namespace room_detail;

std::int64_t GameRoom::remaining(Side s) const {
    std::int64_t r = row_.clock[index(s)];
    if (row_.status == GameStatus::Playing && pos_ && pos_->toMove() == s)
        r -= hub_.time().nowCs() - turnStart_;
    return std::max<std::int64_t>(r, 0);
}

std::optional<protocol::Clocks> GameRoom::clocks() const {
    if (!isTimed()) return std::nullopt;
    protocol::Clocks c{{remaining(Side::One), remaining(Side::Two)}, std::nullopt};
    if (row_.status == GameStatus::Playing && pos_) c.running = pos_->toMove();
    return c;
}

GameRoom::Json GameRoom::clocksJson() const {
    return protocol::toJson(clocks());
}

GameRoom::Json GameRoom::playerJson(Side s) const {
    const Seat& seat = seats_[index(s)];
    if (!seat.player && !seat.bot) return nullptr;
    Json j{{"id", seat.publicId},
           {"name", seat.name},
           {"rating", seat.bot ? Json(nullptr) : Json(std::lround(seat.rating))},
           {"connected", seat.bot || seat.connections > 0},
           {"bot", seat.bot || seat.botAccount}};
    // How long the seat has been without a connection, so that clients can count down to the
    // moment the opponent may claim the win.
    if (!seat.bot && seat.connections == 0) j["away"] = hub_.time().nowCs() - seat.goneSince;
    return j;
}

GameRoom::Json GameRoom::resultJson() const {
    if (!isOver(row_.status)) return nullptr;
    Json j;
    j["result"] = row_.result.empty() ? Json(nullptr) : Json(row_.result);
    const Outcome o = outcomeOf(row_.result);
    j["winner"] = o == Outcome::Side1Wins   ? Json("1")
                  : o == Outcome::Side2Wins ? Json("2")
                                            : Json(nullptr);
    j["reason"] = row_.reason;
    if (pos_) j["position"] = pos_->toString();
    Json setups;
    for (int i = 0; i < 2; ++i)
        setups[sideName(sideAt(i))] =
            setups_[i] < 0 ? Json::array()
                           : protocol::setupJson(sideAt(i), static_cast<std::uint8_t>(setups_[i]));
    j["setups"] = setups;
    if (ratings_.size() == 2) {
        Json r;
        for (int i = 0; i < 2; ++i)
            r[sideName(sideAt(i))] = {{"before", std::lround(ratings_[i].before)},
                                      {"after", std::lround(ratings_[i].after)}};
        j["ratings"] = r;
    }
    return j;
}

GameRoom::Json GameRoom::legalJson(Viewer v) const {
    Json a = Json::array();
    for (Action x : View::of(*pos_, v).legalActions()) a.push_back(toString(x));
    return a;
}

std::string GameRoom::snapshot(Viewer v) const {
    Json j;
    j["type"] = "snapshot";
    j["game"] = id_;
    j["v"] = row_.version;
    j["you"] = viewerName(v);
    j["status"] = toString(row_.status);
    j["preset"] = row_.preset;
    j["opponent"] = row_.opponent;
    j["level"] = row_.opponent == "computer" ? Json(row_.level) : Json(nullptr);
    j["rated"] = row_.rated;
    j["clock"] = protocol::clockJson(row_.clockInitial, row_.clockIncrement);
    j["clocks"] = clocksJson();
    j["players"] = {{"1", playerJson(Side::One)}, {"2", playerJson(Side::Two)}};
    j["setup"] = {{"1", setups_[0] >= 0}, {"2", setups_[1] >= 0}};
    if (isSide(v) && setups_[index(sideOfViewer(v))] >= 0)
        j["links"] = protocol::setupJson(
            sideOfViewer(v), static_cast<std::uint8_t>(setups_[index(sideOfViewer(v))]));
    j["view"] = pos_ ? Json(View::of(*pos_, v).toString()) : Json(nullptr);
    Json history = Json::array();
    if (start_) {
        Position p = *start_;
        for (Action a : actions_) {
            const Observation o = observe(p, a, v);
            Json e{{"ply", p.ply()},
                   {"side", sideName(p.toMove())},
                   {"action", toString(o.action, o.swapKnown ? Notation::Full : Notation::Public)}};
            if (o.revealedLink) e["revealed"] = *o.revealedLink ? "link" : "virus";
            history.push_back(std::move(e));
            p.doAction(a);
        }
    }
    j["history"] = std::move(history);
    if (row_.status == GameStatus::Playing && pos_ && viewerOf(pos_->toMove()) == v)
        j["legal"] = legalJson(v);
    j["draw_offer"] = drawOffer_ ? Json(sideName(*drawOffer_)) : Json(nullptr);
    j["grace"] = hub_.config().graceCs;
    j["spectators"] = spectators_;
    j["result"] = resultJson();
    if (isOver(row_.status)) j["rematch"] = rematchJson();
    if (const auto& lines = chat_[isSide(v) ? 0 : 1]; !lines.empty()) {
        Json& out = j["chat"] = Json::array();
        for (const Json& line : lines) out.push_back(line);
    }
    return j.dump();
}

GameRoom::Json GameRoom::rematchJson() const {
    return Json{{"offer", rematchOffer_ ? Json(sideName(*rematchOffer_)) : Json(nullptr)},
                {"next_game", nextGame_.empty() ? Json(nullptr) : Json(nextGame_)}};
}

}  // namespace rainet::server
