#include "server/game_room.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>

#include "server/bot_workers.h"
#include "server/hub.h"
#include "server/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::MsgType;

namespace {

constexpr std::size_t kEventsHeld = 128;
constexpr std::size_t kChatHeld = store::Store::kChatLoaded;  // chat lines per channel held
constexpr double kChatBurst = 5;          // chat lines a player may send at once
constexpr double kChatEveryCs = 200;      // then one more every 2 s
constexpr std::size_t kChatIdsHeld = 64;  // chat ids remembered per player and game
constexpr Viewer kViewers[3] = {Viewer::Side1, Viewer::Side2, Viewer::Spectator};

const char* sideName(Side s) {
    return viewerName(viewerOf(s));  // "1" / "2"
}
Side sideAt(int i) {
    return i == 0 ? Side::One : Side::Two;
}
bool isSide(Viewer v) {
    return v != Viewer::Spectator;
}
Side sideOfViewer(Viewer v) {
    return v == Viewer::Side1 ? Side::One : Side::Two;
}
std::string botName(int level) {
    return "computer (level " + std::to_string(level) + ")";
}

}  // namespace

GameRoom::GameRoom(Hub& hub, store::GameRow row)
    : hub_(hub),
      metrics_(hub.metrics()),
      strand_(asio::make_strand(hub.io())),
      timer_(strand_),
      id_(row.id),
      row_(std::move(row)),
      rng_(hub.ids().seed()) {
    ++metrics_.gamesLoaded[static_cast<int>(state())];
    stateSince_ = hub_.time().nowCs();
    for (int i = 0; i < 2; ++i) {
        Seat& seat = seats_[i];
        seat.goneSince = hub_.time().nowCs();
        seat.player = row_.player[i];
        if (!seat.player) continue;
        auto p = hub_.store().playerById(seat.player);
        if (!p) {
            loadError_ = p.error();
        } else if (*p) {
            seat.publicId = (*p)->publicId;
            seat.name = (*p)->name;
            seat.rating = (*p)->rating;
            seat.botAccount = (*p)->bot;
        }
    }
}

GameRoom::~GameRoom() {
    --metrics_.gamesLoaded[static_cast<int>(state())];
}

GameState GameRoom::state() const {
    const std::string& s = row_.status;
    if (s == "open") return GameState::Open;
    if (s == "setup") return GameState::Setup;
    if (s == "playing") return GameState::Playing;
    if (s == "finished") return GameState::Finished;
    return GameState::Aborted;
}

void GameRoom::setStatus(const std::string& status) {
    --metrics_.gamesLoaded[static_cast<int>(state())];
    row_.status = status;
    ++metrics_.gamesLoaded[static_cast<int>(state())];
    stateSince_ = hub_.time().nowCs();
}

Result<std::shared_ptr<GameRoom>> GameRoom::create(Hub& hub, store::GameRow row,
                                                   std::optional<Side> botSide) {
    std::shared_ptr<GameRoom> r(new GameRoom(hub, std::move(row)));
    if (r->loadError_) return *r->loadError_;  // its players could not be read
    if (botSide) {
        r->botSide_ = botSide;
        Seat& seat = r->seats_[index(*botSide)];
        seat.bot = true;
        seat.publicId = "computer";
        seat.name = botName(r->row_.level);
    }
    return r;
}

Result<std::shared_ptr<GameRoom>> GameRoom::restore(Hub& hub, const store::GameData& d) {
    std::optional<Side> botSide;
    if (d.game.opponent == "computer")
        botSide = d.game.player[0] == d.game.creator ? Side::Two : Side::One;
    auto created = create(hub, d.game, botSide);
    if (!created) return created;
    auto r = std::move(*created);
    r->setups_[0] = d.setup[0];
    r->setups_[1] = d.setup[1];
    r->ratings_ = d.ratings;
    // What the players wrote: chat, and the offers pending when the server stopped.
    for (const store::ChatRow& line : d.chat) {
        Json j = Json::parse(line.line, nullptr, false);
        if (j.is_discarded() || line.channel < 0 || line.channel > 1) continue;
        r->chat_[line.channel].push_back(std::move(j));
        r->chatSeq_ = std::max(r->chatSeq_, line.seq);
    }
    auto offerSide = [](int n) {
        return n == 1 || n == 2 ? std::optional<Side>(sideAt(n - 1)) : std::nullopt;
    };
    if (d.game.status == "playing") r->drawOffer_ = offerSide(d.game.drawOffer);
    r->nextGame_ = d.game.nextGame;
    if (r->nextGame_.empty()) r->rematchOffer_ = offerSide(d.game.rematchOffer);
    if (d.setup[0] < 0 || d.setup[1] < 0) return r;
    auto rules = Rules::byName(d.game.preset);
    if (!rules) return Error{"restore: unknown preset " + d.game.preset};
    auto p = Position::fromSetups(static_cast<std::uint8_t>(d.setup[0]),
                                  static_cast<std::uint8_t>(d.setup[1]), *rules);
    if (!p) return Error{"restore: " + p.error().message};
    r->start_ = r->pos_ = *p;
    if (botSide) r->botKnows_.emplace(View::of(*p, viewerOf(*botSide)));
    for (const auto& row : d.actions) {
        auto a = parseAction(row.action);
        if (!a || row.ply != r->pos_->ply() || !r->pos_->isLegal(*a))
            return Error{"restore: action " + std::to_string(row.ply) + " (" + row.action +
                         ") does not replay"};
        const Side mover = r->pos_->toMove();
        if (!row.clientId.empty())
            r->done_[index(mover)][row.clientId] =
                protocol::renderAck(protocol::Json::parse(row.clientId, nullptr, false), r->id_);
        if (botSide) r->botKnows_->observe(observe(*r->pos_, *a, viewerOf(*botSide)));
        r->pos_->doAction(*a);
        r->actions_.push_back(*a);
    }
    r->turnStart_ = hub.time().nowCs();  // the downtime is not charged
    return r;
}

std::optional<Side> GameRoom::sideOf(std::int64_t player) const {
    for (int i = 0; i < 2; ++i)
        if (player && seats_[i].player == player) return sideAt(i);
    return std::nullopt;
}

Viewer GameRoom::roleOf(std::int64_t player) const {
    auto s = sideOf(player);
    return s ? viewerOf(*s) : Viewer::Spectator;
}

// ---------------------------------------------------------------- rendering

std::int64_t GameRoom::remaining(Side s) const {
    std::int64_t r = row_.clock[index(s)];
    if (row_.status == "playing" && pos_ && pos_->toMove() == s)
        r -= hub_.time().nowCs() - turnStart_;
    return std::max<std::int64_t>(r, 0);
}

GameRoom::Json GameRoom::clocksJson() const {
    if (!isTimed()) return nullptr;
    Json j;
    j["1"] = remaining(Side::One);
    j["2"] = remaining(Side::Two);
    if (row_.status == "playing" && pos_)
        j["running"] = sideName(pos_->toMove());
    else
        j["running"] = nullptr;
    return j;
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
    if (row_.status != "finished" && row_.status != "aborted") return nullptr;
    Json j;
    j["result"] = row_.result.empty() ? Json(nullptr) : Json(row_.result);
    j["winner"] = row_.result == "1-0"   ? Json("1")
                  : row_.result == "0-1" ? Json("2")
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
    j["status"] = row_.status;
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
    if (row_.status == "playing" && pos_ && viewerOf(pos_->toMove()) == v)
        j["legal"] = legalJson(v);
    j["draw_offer"] = drawOffer_ ? Json(sideName(*drawOffer_)) : Json(nullptr);
    j["grace"] = hub_.config().graceCs;
    j["spectators"] = spectators_;
    j["result"] = resultJson();
    if (row_.status == "finished" || row_.status == "aborted") j["rematch"] = rematchJson();
    if (const auto& lines = chat_[isSide(v) ? 0 : 1]; !lines.empty()) {
        Json& out = j["chat"] = Json::array();
        for (const Json& line : lines) out.push_back(line);
    }
    return j.dump();
}

// ---------------------------------------------------------------- subscribers

void GameRoom::subscribe(const std::shared_ptr<Client>& c, Viewer role) {
    for (Sub& s : subs_) {
        if (s.key != c.get()) continue;
        if (s.role == role) return;
        if (isSide(s.role)) setConnections(sideOfViewer(s.role), -1);
        if (!isSide(s.role)) setSpectators(spectators_ - 1);
        s.role = role;
        if (isSide(role)) setConnections(sideOfViewer(role), +1);
        if (!isSide(role)) setSpectators(spectators_ + 1);
        return;
    }
    subs_.push_back(Sub{c, c.get(), role});
    if (isSide(role)) setConnections(sideOfViewer(role), +1);
    if (!isSide(role)) setSpectators(spectators_ + 1);
}

void GameRoom::setSpectators(int n) {
    spectators_ = n;
    sendAll(Json{{"type", "spectators"}, {"game", id_}, {"count", n}});
}

void GameRoom::unsubscribe(const Client* c) {
    for (std::size_t i = 0; i < subs_.size(); ++i) {
        if (subs_[i].key != c) continue;
        const Viewer role = subs_[i].role;
        subs_.erase(subs_.begin() + static_cast<std::ptrdiff_t>(i));
        if (isSide(role)) setConnections(sideOfViewer(role), -1);
        if (!isSide(role)) setSpectators(spectators_ - 1);
        return;
    }
}

void GameRoom::setConnections(Side s, int delta) {
    Seat& seat = seats_[index(s)];
    const bool was = seat.connections > 0;
    seat.connections += delta;
    const bool is = seat.connections > 0;
    if (!is) seat.goneSince = hub_.time().nowCs();
    if (was != is) broadcastPresence(s);
}

void GameRoom::broadcastPresence(Side s) {
    sendAll(Json{{"type", "presence"},
                 {"game", id_},
                 {"side", sideName(s)},
                 {"connected", seats_[index(s)].connections > 0}});
}

void GameRoom::sendAll(const Json& message) {
    auto text = std::make_shared<const std::string>(message.dump());
    for (const Sub& sub : subs_)
        if (auto c = sub.client.lock()) c->send(text);
}

template <class Render>
void GameRoom::emit(Render render) {
    // Sent with `legal` to the side to move; held (for replay) without it, which keeps the held
    // events small: replay() adds the current legal actions to the last one it sends.
    Event ev;
    ev.v = row_.version;
    std::shared_ptr<const std::string> live[3];
    for (Viewer v : kViewers) {
        Json j{{"type", "event"}, {"game", id_}, {"v", row_.version}};
        render(v, j);
        const int i = static_cast<int>(v);
        live[i] = std::make_shared<const std::string>(j.dump());
        if (j.contains("legal")) {
            j.erase("legal");
            ev.text[i] = std::make_shared<const std::string>(j.dump());
        } else {
            ev.text[i] = live[i];
        }
    }
    for (const Sub& sub : subs_)
        if (auto c = sub.client.lock()) c->send(live[static_cast<int>(sub.role)]);
    events_.push_back(std::move(ev));
    if (events_.size() > kEventsHeld) events_.pop_front();
}

void GameRoom::replay(const std::shared_ptr<Client>& c, Viewer role, std::int64_t after) {
    for (const Event& ev : events_) {
        if (ev.v <= after) continue;
        const auto& text = ev.text[static_cast<int>(role)];
        if (ev.v == row_.version && row_.status == "playing" && pos_ &&
            viewerOf(pos_->toMove()) == role) {
            Json j = Json::parse(*text);
            j["legal"] = legalJson(role);
            c->send(j.dump());
        } else {
            c->send(text);
        }
    }
}

void GameRoom::replayChat(const std::shared_ptr<Client>& c, Viewer role, std::int64_t after) {
    for (const Json& line : chat_[isSide(role) ? 0 : 1]) {
        if (line.value("n", std::int64_t{0}) <= after) continue;
        Json msg{{"type", "chat"}, {"game", id_}};
        for (auto& [k, val] : line.items()) msg[k] = val;
        c->send(msg.dump());
    }
}

// ---------------------------------------------------------------- replies

void GameRoom::error(const std::shared_ptr<Client>& c, ErrorCode code, std::string message,
                     const protocol::ClientMessage& m) {
    metrics_.error(code);
    if (c) c->send(protocol::renderError(code, message, m.id, id_));
}

bool GameRoom::store(std::optional<Error> e, const std::shared_ptr<Client>& c,
                     const protocol::ClientMessage& m) {
    if (!e) return true;
    logEvent("store_error", {{"game", id_}, {"message", e->message}});
    error(c, ErrorCode::Internal, "the change could not be stored", m);
    return false;
}

void GameRoom::ack(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m) {
    if (!c) return;
    std::string text = protocol::renderAck(m.id, id_, row_.version);
    done_[index(s)][m.id.dump()] = text;
    c->send(std::move(text));
}

// ---------------------------------------------------------------- messages

void GameRoom::welcomeCreator(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                              const std::string& ackText) {
    c->send(ackText);
    const Viewer role = roleOf(who.id);
    subscribe(c, role);
    c->send(snapshot(role));
}

void GameRoom::handle(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                      const protocol::ClientMessage& m) {
    try {
        if (hub_.takeTestThrow(Hub::TestThrow::Game))
            throw std::runtime_error("test: thrown on demand in a game");
        dispatch(c, who, m);
    } catch (const std::exception& e) {
        error(c, ErrorCode::Internal, "the server failed handling this game; follow it again", m);
        fail(e.what());
    }
}

void GameRoom::enter(Task f) {
    if (broken()) return;
    if (committing_) return held_.push_back(std::move(f));
    guarded(f);
}

void GameRoom::guarded(const Task& f) {
    try {
        f(*this);
    } catch (const std::exception& e) {
        fail(e.what());
    } catch (...) {
        fail("an exception that is not a std::exception");
    }
}

void GameRoom::resumeHeld() {
    while (!committing_ && !held_.empty() && !broken()) {
        Task f = std::move(held_.front());
        held_.pop_front();
        guarded(f);
    }
}

void GameRoom::fail(const std::string& what) {
    if (broken_.exchange(true)) return;
    ++metrics_.gamesFailed;
    logEvent("game_exception", {{"game", id_}, {"message", what}});
    stop();
    const auto text = std::make_shared<const std::string>(protocol::renderError(
        ErrorCode::Internal, "the server failed handling this game; follow it again", nullptr,
        id_));
    for (const Sub& sub : subs_)
        if (auto c = sub.client.lock()) c->send(text);
    subs_.clear();
    hub_.drop(id_, this);
}

void GameRoom::dispatch(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                        const protocol::ClientMessage& m) {
    const Viewer role = roleOf(who.id);
    switch (m.type) {
        case MsgType::Watch:
            subscribe(c, role);
            c->send(snapshot(role));
            return;
        case MsgType::Resume: {
            subscribe(c, role);
            const std::int64_t v = *m.v;
            if (v != row_.version &&
                !(v < row_.version && !events_.empty() && events_.front().v <= v + 1))
                return c->send(snapshot(role));  // it carries the chat too
            if (v != row_.version) replay(c, role, v);
            if (m.chatSeen) replayChat(c, role, *m.chatSeen);
            return;
        }
        case MsgType::Leave:
            unsubscribe(c.get());
            return;
        case MsgType::Join:
            join(c, who, m);
            return;
        case MsgType::Chat:
            chat(c, who, m);
            return;
        default:
            break;
    }
    const auto side = sideOf(who.id);
    if (!side) return error(c, ErrorCode::NotAPlayer, "you have no seat in this game", m);
    const Side s = *side;
    if (auto it = done_[index(s)].find(m.id.dump()); it != done_[index(s)].end()) {
        c->send(it->second);  // a repeated request: acknowledged again, not applied again
        return;
    }
    const std::string& st = row_.status;
    const bool ended = st == "finished" || st == "aborted";
    switch (m.type) {
        case MsgType::Setup: {
            if (st != "setup")
                return error(c, ErrorCode::WrongStatus, "the game is not in setup", m);
            if (setups_[index(s)] >= 0)
                return error(c, ErrorCode::AlreadySetUp, "your arrangement is already set", m);
            std::optional<std::uint8_t> mask =
                m.random ? std::optional<std::uint8_t>(ai::randomSetup(rng_))
                         : protocol::setupMask(s, m.links);
            if (!mask)
                return error(c, ErrorCode::BadSetup,
                             "'links' must be 4 distinct setup squares of your side", m);
            return setup(c, s, *mask, m);
        }
        case MsgType::Act: {
            if (st != "playing")
                return error(c, ErrorCode::WrongStatus, "the game is not in play", m);
            if (pos_->toMove() != s)
                return error(c, ErrorCode::NotYourTurn, "it is not your turn", m);
            if (m.v && *m.v != row_.version)
                return error(c, ErrorCode::StaleVersion,
                             "the game is at version " + std::to_string(row_.version), m);
            auto a = parseAction(m.action);
            if (!a) return error(c, ErrorCode::IllegalAction, a.error().message, m);
            if (!pos_->isLegal(*a))
                return error(c, ErrorCode::IllegalAction, m.action + " is not legal here", m);
            return act(c, s, *a, m);
        }
        case MsgType::Resign:
            if (st != "setup" && st != "playing")
                return error(c, ErrorCode::WrongStatus, "the game is not under way", m);
            return end(opponent(s), "resign", [&] { ack(c, s, m); });
        case MsgType::DrawOffer:
            if (st != "playing")
                return error(c, ErrorCode::WrongStatus, "the game is not in play", m);
            if (drawOffer_) return error(c, ErrorCode::NoDrawOffer, "a draw offer is pending", m);
            drawOffer_ = s;
            if (!drawEvent(c, s, m, "draw_offer")) drawOffer_.reset();
            // The computer never agrees to a draw: it declines at once instead of leaving the
            // offer pending until the next action.
            else if (seats_[index(opponent(s))].bot &&
                     drawEvent(nullptr, opponent(s), m, "draw_decline"))
                drawOffer_.reset();
            return;
        case MsgType::DrawAccept:
        case MsgType::DrawDecline:
            if (st != "playing")
                return error(c, ErrorCode::WrongStatus, "the game is not in play", m);
            if (drawOffer_ != opponent(s))
                return error(c, ErrorCode::NoDrawOffer, "your opponent has not offered a draw", m);
            if (m.type == MsgType::DrawAccept)
                return end(std::nullopt, "agreement", [&] { ack(c, s, m); });
            drawOffer_.reset();
            if (!drawEvent(c, s, m, "draw_decline")) drawOffer_ = opponent(s);
            return;
        case MsgType::ClaimWin: {
            if (st != "setup" && st != "playing")
                return error(c, ErrorCode::WrongStatus, "the game is not under way", m);
            const Seat& other = seats_[index(opponent(s))];
            if (other.bot || other.connections > 0 ||
                hub_.time().nowCs() - other.goneSince < hub_.config().graceCs)
                return error(c, ErrorCode::CannotClaim,
                             "your opponent is connected or within the grace period", m);
            return end(s, "abandoned", [&] { ack(c, s, m); });
        }
        case MsgType::Rematch:
            return rematch(c, s, m);
        case MsgType::RematchDecline:
            return declineRematch(c, s, m);
        case MsgType::Abort:
            if (ended) return error(c, ErrorCode::WrongStatus, "the game is over", m);
            if (st == "playing" && pos_->ply() >= 2)
                return error(c, ErrorCode::CannotAbort, "both sides have made an action", m);
            return end(std::nullopt, "aborted", [&] { ack(c, s, m); });
        default:
            return error(c, ErrorCode::BadMessage, "not a game message", m);
    }
}

template <class Render>
bool GameRoom::bump(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m,
                    Render render) {
    const store::GameRow saved = row_;
    ++row_.version;
    // The offers as they stand are stored with the version that announces them.
    row_.drawOffer = drawOffer_ ? sideNumber(*drawOffer_) : 0;
    row_.rematchOffer = rematchOffer_ ? sideNumber(*rematchOffer_) : 0;
    row_.nextGame = nextGame_;
    if (!store(hub_.store().updateGame(row_), c, m)) {
        row_ = saved;
        return false;
    }
    ack(c, s, m);
    emit(render);
    return true;
}

bool GameRoom::drawEvent(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m,
                         const char* kind) {
    return bump(c, s, m, [&](Viewer, Json& j) {
        j["kind"] = kind;
        j["side"] = sideName(s);
    });
}

void GameRoom::chat(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                    const protocol::ClientMessage& m) {
    // A burst of kChatBurst lines, then one every kChatEveryCs: a room cannot be flooded.
    const std::int64_t now = hub_.time().nowCs();
    ChatBucket& b = chatBuckets_.try_emplace(who.id, ChatBucket{kChatBurst, now, {}}).first->second;
    // A line resent with the same id (a retry after a lost connection) is acknowledged again,
    // never shown twice.
    const std::string key = m.id.is_null() ? std::string() : m.id.dump();
    if (!key.empty() && std::find(b.recent.begin(), b.recent.end(), key) != b.recent.end())
        return c->send(protocol::renderAck(m.id, id_));
    b.tokens = std::min(kChatBurst, b.tokens + double(now - b.at) / kChatEveryCs);
    b.at = now;
    if (b.tokens < 1)
        return error(c, ErrorCode::RateLimited, "too many chat lines; wait a little", m);
    b.tokens -= 1;
    if (!key.empty()) {
        b.recent.push_back(key);
        if (b.recent.size() > kChatIdsHeld) b.recent.pop_front();
    }
    // Two rooms so that nobody watching can whisper to a player during the game.
    const auto side = sideOf(who.id);
    const int channel = side ? 0 : 1;
    Json line{{"channel", side ? "players" : "spectators"},
              {"n", chatSeq_ + 1},
              {"from", {{"id", who.publicId}, {"name", who.name}}},
              {"side", side ? Json(sideName(*side)) : Json(nullptr)},
              {"text", m.text},
              {"at", hub_.time().unixMs()}};
    // Stored before anyone sees it, as actions are: a restart forgets no line.
    if (!store(hub_.store().saveChat(id_, {chatSeq_ + 1, channel, line.dump()}), c, m)) {
        b.tokens += 1;
        return;
    }
    ++chatSeq_;
    Json msg{{"type", "chat"}, {"game", id_}};
    for (auto& [k, v] : line.items()) msg[k] = v;
    auto text = std::make_shared<const std::string>(msg.dump());
    if (!m.id.is_null()) c->send(protocol::renderAck(m.id, id_));  // the ack first, as for events
    for (const Sub& sub : subs_)
        if ((isSide(sub.role) ? 0 : 1) == channel)
            if (auto to = sub.client.lock()) to->send(text);
    chat_[channel].push_back(std::move(line));
    if (chat_[channel].size() > kChatHeld) chat_[channel].pop_front();
}

GameRoom::Json GameRoom::rematchJson() const {
    return Json{{"offer", rematchOffer_ ? Json(sideName(*rematchOffer_)) : Json(nullptr)},
                {"next_game", nextGame_.empty() ? Json(nullptr) : Json(nextGame_)}};
}

void GameRoom::rematch(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m) {
    if (row_.status != "finished" && row_.status != "aborted")
        return error(c, ErrorCode::WrongStatus, "the game is not over", m);
    const Seat& other = seats_[index(opponent(s))];
    if (!other.player && !other.bot)
        return error(c, ErrorCode::WrongStatus, "the game never had an opponent", m);
    // Already agreed, or already offered: acknowledged, nothing new happens.
    if (!nextGame_.empty() || rematchOffer_ == s) {
        if (c) c->send(protocol::renderAck(m.id, id_));
        return;
    }
    if (!other.bot && rematchOffer_ != opponent(s)) {
        rematchOffer_ = s;
        if (!bump(c, s, m, [&](Viewer, Json& j) {
                j["kind"] = "rematch_offer";
                j["side"] = sideName(s);
            }))
            rematchOffer_.reset();
        return;
    }
    auto next = hub_.rematch(row_);
    if (!next) return error(c, ErrorCode::Internal, "the rematch could not be stored", m);
    nextGame_ = *next;
    if (!bump(c, s, m, [&](Viewer, Json& j) {
            j["kind"] = "rematch";
            j["next_game"] = nextGame_;
        })) {
        // The new game exists (both players find it among their games) even if this one's
        // version could not move on; say so without an event.
        if (c) c->send(protocol::renderAck(m.id, id_));
        return;
    }
    rematchOffer_.reset();
}

void GameRoom::declineRematch(const std::shared_ptr<Client>& c, Side s,
                              const protocol::ClientMessage& m) {
    if (!nextGame_.empty() || rematchOffer_ != opponent(s))
        return error(c, ErrorCode::NoRematchOffer, "your opponent has not offered a rematch", m);
    rematchOffer_.reset();
    if (!bump(c, s, m, [&](Viewer, Json& j) {
            j["kind"] = "rematch_decline";
            j["side"] = sideName(s);
        }))
        rematchOffer_ = opponent(s);
}

void GameRoom::join(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                    const protocol::ClientMessage& m) {
    if (auto s = sideOf(who.id)) {
        c->send(protocol::renderAck(m.id, id_));
        subscribe(c, viewerOf(*s));
        c->send(snapshot(viewerOf(*s)));
        return;
    }
    if (row_.status != "open") return error(c, ErrorCode::WrongStatus, "the game is not open", m);
    const int i = row_.player[0] ? 1 : 0;
    const store::GameRow saved = row_;
    row_.player[i] = who.id;
    setStatus("setup");
    ++row_.version;
    if (!store(hub_.store().updateGame(row_), c, m)) {
        setStatus(saved.status);
        row_ = saved;
        return;
    }
    Seat& seat = seats_[i];
    seat.player = who.id;
    seat.publicId = who.publicId;
    seat.name = who.name;
    auto fresh = hub_.store().playerById(who.id);  // who's rating may be older
    seat.rating = fresh && *fresh ? (*fresh)->rating : who.rating;
    seat.botAccount = who.bot;
    seat.goneSince = hub_.time().nowCs();
    hub_.setLobbyEntry(id_, nullptr);
    c->send(protocol::renderAck(m.id, id_, row_.version));
    emit([&](Viewer, Json& j) {
        j["kind"] = "joined";
        j["side"] = sideName(sideAt(i));
        j["player"] = {
            {"id", seat.publicId}, {"name", seat.name}, {"rating", std::lround(seat.rating)}};
        if (seat.botAccount) j["player"]["bot"] = true;
    });
    subscribe(c, viewerOf(sideAt(i)));
    c->send(snapshot(viewerOf(sideAt(i))));
}

void GameRoom::setup(const std::shared_ptr<Client>& c, Side s, std::uint8_t links,
                     const protocol::ClientMessage& m) {
    const store::GameRow saved = row_;
    ++row_.version;
    if (!store(hub_.store().saveSetup(row_, sideNumber(s), links), c, m)) {
        row_ = saved;
        return;
    }
    setups_[index(s)] = links;
    ack(c, s, m);
    emit([&](Viewer v, Json& j) {
        j["kind"] = "setup";
        j["side"] = sideName(s);
        if (v == viewerOf(s)) j["links"] = protocol::setupJson(s, links);
    });
    if (setups_[0] >= 0 && setups_[1] >= 0) startPlay();
}

void GameRoom::startPlay() {
    auto p = Position::fromSetups(static_cast<std::uint8_t>(setups_[0]),
                                  static_cast<std::uint8_t>(setups_[1]),
                                  Rules::byName(row_.preset).value_or(Rules::standard()));
    if (!p) {
        logEvent("start_error", {{"game", id_}, {"message", p.error().message}});
        return;
    }
    const store::GameRow saved = row_;
    setStatus("playing");
    ++row_.version;
    row_.clock[0] = row_.clock[1] = row_.clockInitial;
    if (auto e = hub_.store().updateGame(row_)) {
        logEvent("store_error", {{"game", id_}, {"message", e->message}});
        setStatus(saved.status);
        row_ = saved;
        return;
    }
    start_ = pos_ = *p;
    turnStart_ = hub_.time().nowCs();
    if (botSide_) botKnows_.emplace(View::of(*start_, viewerOf(*botSide_)));
    const Json clocks = clocksJson();
    emit([&](Viewer v, Json& j) {
        j["kind"] = "start";
        j["view"] = View::of(*pos_, v).toString();
        if (viewerOf(pos_->toMove()) == v) j["legal"] = legalJson(v);
        j["clocks"] = clocks;
    });
    logEvent("game_start", {{"game", id_}});
    armTimer();
    botThink();
}

void GameRoom::act(const std::shared_ptr<Client>& c, Side s, Action a,
                   const protocol::ClientMessage& m) {
    const std::int64_t now = hub_.time().nowCs();
    const int i = index(s);
    const store::GameRow saved = row_;
    if (isTimed()) {
        const std::int64_t left = row_.clock[i] - (now - turnStart_);
        if (left <= 0) {
            error(c, ErrorCode::WrongStatus, "your time is up", m);
            return checkClock();
        }
        row_.clock[i] = left + row_.clockIncrement;
    }
    ++row_.version;
    store::ActionRow ar{pos_->ply(), toString(a), c ? m.id.dump() : std::string(), row_.clock[i],
                        row_.version};
    committing_ = true;
    hub_.store().saveActionBatched(
        row_, ar, [self = shared_from_this(), c, s, a, m, saved, now](std::optional<Error> e) {
            // On the store's writer thread: back to the strand, ahead of what was held.
            asio::post(self->strand_, [self, c, s, a, m, saved, now, e = std::move(e)] {
                self->committing_ = false;
                if (!self->broken())
                    self->guarded([&](GameRoom& r) { r.acted(c, s, a, m, saved, now, e); });
                self->resumeHeld();
            });
        });
}

void GameRoom::acted(const std::shared_ptr<Client>& c, Side s, Action a,
                     const protocol::ClientMessage& m, const store::GameRow& saved,
                     std::int64_t now, std::optional<Error> stored) {
    if (!store(stored, c, m)) {
        row_ = saved;
        return;
    }
    const Position before = *pos_;
    pos_->doAction(a);
    actions_.push_back(a);
    turnStart_ = now;
    drawOffer_.reset();
    ++metrics_.actions;
    if (botKnows_) botKnows_->observe(observe(before, a, viewerOf(*botSide_)));
    ack(c, s, m);
    const bool over = pos_->isOver();
    const Json clocks = clocksJson();
    emit([&](Viewer v, Json& j) {
        const Observation o = observe(before, a, v);
        j["kind"] = "action";
        j["ply"] = before.ply();
        j["side"] = sideName(s);
        j["action"] = toString(o.action, o.swapKnown ? Notation::Full : Notation::Public);
        if (o.revealedLink) j["revealed"] = *o.revealedLink ? "link" : "virus";
        j["view"] = View::of(*pos_, v).toString();
        if (!over && viewerOf(pos_->toMove()) == v) j["legal"] = legalJson(v);
        j["clocks"] = clocks;
        j["draw_offer"] = nullptr;
    });
    if (over) {
        const Outcome o = pos_->outcome();
        const EndReason r = pos_->endReason();
        const char* reason = r == EndReason::FourLinks     ? "four_links"
                             : r == EndReason::FourViruses ? "four_viruses"
                                                           : "no_progress";
        std::optional<Side> winner;
        if (o == Outcome::Side1Wins) winner = Side::One;
        if (o == Outcome::Side2Wins) winner = Side::Two;
        return end(winner, reason);
    }
    armTimer();
    botThink();
}

template <class F>
void GameRoom::end(std::optional<Side> winner, const char* reason, F beforeBroadcast) {
    const store::GameRow saved = row_;
    const std::string reasonText = reason;
    const bool aborted = reasonText == "aborted";
    if (isTimed() && row_.status == "playing" && pos_)
        row_.clock[index(pos_->toMove())] = remaining(pos_->toMove());
    const std::string oldStatus = row_.status;
    setStatus(aborted ? "aborted" : "finished");
    row_.result = aborted ? "" : !winner ? "1/2-1/2" : *winner == Side::One ? "1-0" : "0-1";
    row_.reason = reasonText;
    row_.ended = hub_.time().unixMs();
    ++row_.version;
    // The result and the ratings it changes are stored together (store::Store::finishGame).
    auto rated = hub_.store().finishGame(row_);
    if (!rated) {
        logEvent("store_error", {{"game", id_}, {"message", rated.error().message}});
        setStatus(oldStatus);
        row_ = saved;
        return;
    }
    ratings_ = std::move(*rated);
    for (std::size_t i = 0; i < ratings_.size() && i < 2; ++i) seats_[i].rating = ratings_[i].after;
    drawOffer_.reset();
    ++timerGeneration_;
    timer_.cancel();
    // What only play needs goes now: an ended room is kept only while someone follows it.
    botKnows_.reset();
    chatBuckets_.clear();
    beforeBroadcast();
    Json result = resultJson();
    result["clocks"] = clocksJson();
    emit([&](Viewer, Json& j) {
        j["kind"] = "end";
        for (auto& [k, val] : result.items()) j[k] = val;
    });
    // An ended room keeps only the events from its end on (a resume from before gets a
    // snapshot): most of a room's memory, and ended rooms live as long as someone follows them.
    while (events_.size() > 1) events_.pop_front();
    events_.shrink_to_fit();
    hub_.setLobbyEntry(id_, nullptr);
    hub_.retire(id_);
    logEvent("game_end", {{"game", id_},
                          {"result", row_.result},
                          {"reason", row_.reason},
                          {"plies", actions_.size()}});
}

void GameRoom::end(std::optional<Side> winner, const char* reason) {
    end(winner, reason, [] {});
}

// ---------------------------------------------------------------- clocks

void GameRoom::checkClock() {
    if (!isTimed() || row_.status != "playing" || !pos_) return;
    const Side s = pos_->toMove();
    if (remaining(s) > 0) return;
    end(opponent(s), "time");
}

void GameRoom::checkExpiry() {
    ExpiryInput in;
    in.state = state();
    in.computer = botSide_.has_value();
    in.stateSince = stateSince_;
    in.ply = pos_ ? pos_->ply() : 0;
    in.toMove = pos_ ? pos_->toMove() : Side::One;
    for (int i = 0; i < 2; ++i)
        in.seats[i] = {seats_[i].player != 0 && !seats_[i].bot, seats_[i].connections > 0,
                       seats_[i].goneSince};
    const auto e = expiryOf(in, hub_.config().expiry);
    if (!e || hub_.time().nowCs() < e->at) return;
    logEvent("game_expired", {{"game", id_}, {"status", row_.status}});
    ++metrics_.gamesExpired;
    end(e->winner, e->winner ? "abandoned" : "aborted");
}

void GameRoom::armTimer() {
    if (!isTimed() || row_.status != "playing" || hub_.time().isManual() || stopped_) return;
    const std::uint64_t gen = ++timerGeneration_;
    timer_.expires_after(std::chrono::milliseconds(remaining(pos_->toMove()) * 10 + 1));
    timer_.async_wait(asio::bind_executor(
        strand_, [self = shared_from_this(), gen](const boost::system::error_code& ec) {
            if (ec) return;
            self->enter([gen](GameRoom& r) {  // after a commit in flight, if any
                if (gen != r.timerGeneration_) return;
                r.checkClock();
                if (r.row_.status == "playing") r.armTimer();
            });
        }));
}

void GameRoom::stop() {
    stopped_ = true;
    ++timerGeneration_;
    timer_.cancel();
}

// ---------------------------------------------------------------- the computer

void GameRoom::activate() {
    if (!botSide_) return;
    if (row_.status == "setup" && setups_[index(*botSide_)] < 0) return botSetup();
    armTimer();
    botThink();
}

void GameRoom::botSetup() {
    const Rules rules = Rules::byName(row_.preset).value_or(Rules::standard());
    setup(nullptr, *botSide_, setupBot(row_.level)->chooseSetup(*botSide_, rules, rng_),
          protocol::ClientMessage{});
}

void GameRoom::botThink() {
    if (!botSide_ || row_.status != "playing" || pos_->toMove() != *botSide_ || botBusy_ ||
        stopped_)
        return;
    botBusy_ = true;
    const int ply = pos_->ply();
    const std::uint64_t seed = rng_.next();
    ai::Budget budget;
    budget.movetime = std::chrono::milliseconds(100 * row_.level);
    asio::post(hub_.bots(), [self = shared_from_this(), knows = *botKnows_, ply, seed, budget,
                             level = row_.level] {
        Rng rng(seed);
        Action a;
        try {
            if (self->hub_.takeTestThrow(Hub::TestThrow::Bot))
                throw std::runtime_error("test: thrown on demand in a bot search");
            a = workerBot(level, self->metrics_).chooseAction(knows, budget, rng);
        } catch (const std::exception& e) {  // fails this game only, on its strand
            return self->run([what = std::string(e.what())](GameRoom& r) {
                r.botBusy_ = false;
                r.fail("bot: " + what);
            });
        }
        self->run([a, ply](GameRoom& r) {
            r.botBusy_ = false;
            if (r.row_.status != "playing" || r.pos_->ply() != ply) return;
            Action chosen = a;
            if (!r.pos_->isLegal(chosen)) {
                logEvent("bot_illegal_action", {{"game", r.id_}, {"action", toString(a)}});
                chosen = r.pos_->legalActions()[0];
            }
            r.act(nullptr, *r.botSide_, chosen, protocol::ClientMessage{});
        });
    });
}

}  // namespace rainet::server
