// What a game room sends, built for one viewer as protocol values: clocks, players, result, the
// snapshot.
#include <algorithm>

#include "server/game_room_detail.h"
#include "server/hub.h"
#include "server/player_object.h"

namespace rainet::server {

using namespace room_detail;

std::int64_t GameRoom::remaining(Side s) const {
    std::int64_t r = row_.clock[index(s)];
    if (isCorrespondence()) {  // the side to move has until its deadline, the other a full move
        if (row_.status != GameStatus::Playing || !pos_ || pos_->toMove() != s) return r;
        return std::max<std::int64_t>((row_.deadline - hub_.time().unixMs() + 9) / 10, 0);
    }
    if (row_.status == GameStatus::Playing && pos_ && pos_->toMove() == s)
        r -= hub_.time().nowCs() - turnStart_;
    return std::max<std::int64_t>(r, 0);
}

std::optional<protocol::Clocks> GameRoom::clocks() const {
    if (!isTimed()) return std::nullopt;
    protocol::Clocks c{{remaining(Side::One), remaining(Side::Two)}, std::nullopt, std::nullopt};
    if (row_.status == GameStatus::Playing && pos_) c.running = pos_->toMove();
    if (c.running && isCorrespondence()) c.deadline = row_.deadline;
    return c;
}

std::optional<protocol::Player> GameRoom::seatPlayer(Side s) const {
    const Seat& seat = seats_[index(s)];
    if (!seat.player && !seat.bot) return std::nullopt;
    PlayerFacts f;
    f.publicId = seat.publicId;
    f.name = seat.name;
    f.rating = seat.rating;
    f.computer = seat.bot;
    f.botAccount = seat.botAccount;
    f.connections = seat.connections;
    f.awayCs = hub_.time().nowCs() - seat.goneSince;
    return playerObject(f, PlayerPlace::Seat);
}

std::optional<protocol::Result> GameRoom::result() const {
    if (!isOver(row_.status)) return std::nullopt;
    protocol::Result r;
    r.result = protocol::enumFromName<protocol::GameResult>(row_.result);
    const Outcome o = outcomeOf(row_.result);
    if (o == Outcome::Side1Wins) r.winner = Side::One;
    if (o == Outcome::Side2Wins) r.winner = Side::Two;
    r.reason = parseGameEnd(row_.reason).value_or(GameEnd::Aborted);
    if (pos_) r.position = pos_->toString();
    for (int i = 0; i < 2; ++i)
        if (setups_[i] >= 0)
            (i ? r.setups.two : r.setups.one) =
                protocol::setupSquares(sideAt(i), static_cast<std::uint8_t>(setups_[i]));
    if (ratings_.size() == 2) {
        auto change = [](const store::RatingChange& c) {
            return protocol::RatingChange{std::lround(c.before), std::lround(c.after)};
        };
        r.ratings = protocol::SideRatings{change(ratings_[0]), change(ratings_[1])};
    }
    return r;
}

std::vector<std::string> GameRoom::legal(Viewer v) const {
    return protocol::actionTexts(View::of(*pos_, v).legalActions());
}

protocol::RematchState GameRoom::rematchState() const {
    return {rematchOffer_, nextGame_.empty() ? std::nullopt : std::optional(nextGame_)};
}

std::string GameRoom::snapshot(Viewer v) const {
    protocol::Snapshot s;
    s.game = id_;
    s.v = row_.version;
    s.you = v;
    s.status = row_.status;
    s.preset = protocol::enumFromName<protocol::Preset>(row_.preset).value_or(protocol::Preset{});
    s.opponent =
        protocol::enumFromName<protocol::Opponent>(row_.opponent).value_or(protocol::Opponent{});
    if (s.opponent == protocol::Opponent::Computer) s.level = row_.level;
    s.rated = row_.rated;
    s.clock = protocol::clockSetting(row_.clockInitial, row_.clockIncrement);
    s.clocks = clocks();
    s.players = {seatPlayer(Side::One), seatPlayer(Side::Two)};
    s.setup = {setups_[0] >= 0, setups_[1] >= 0};
    if (isSide(v) && setups_[index(sideOfViewer(v))] >= 0)
        s.links = protocol::setupSquares(
            sideOfViewer(v), static_cast<std::uint8_t>(setups_[index(sideOfViewer(v))]));
    if (pos_) s.view = View::of(*pos_, v).toString();
    if (start_) {
        Position p = *start_;
        s.history.reserve(actions_.size());
        for (Action a : actions_) {
            s.history.push_back(protocol::historyEntry(p.ply(), p.toMove(), observe(p, a, v)));
            p.doAction(a);
        }
    }
    if (row_.status == GameStatus::Playing && pos_ && viewerOf(pos_->toMove()) == v)
        s.legal = legal(v);
    s.drawOffer = drawOffer_;
    if (isSide(v)) s.abortable = canAbort(row_.status, pos_ ? pos_->ply() : 0);
    s.grace = hub_.config().graceCs;
    s.spectators = spectators_;
    s.result = result();
    if (isOver(row_.status)) s.rematch = rematchState();
    if (const auto& lines = chat_[isSide(v) ? 0 : 1]; !lines.empty())
        s.chat.emplace(lines.begin(), lines.end());
    if (tournament_) {
        s.tournament = tournament_;
        s.berserk.emplace();
        for (Side side : {Side::One, Side::Two})
            if (berserk_[index(side)]) s.berserk->push_back(side);
    }
    return protocol::render(s);
}

}  // namespace rainet::server
