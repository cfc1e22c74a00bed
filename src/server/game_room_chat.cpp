// Chat in a game room: players among players, spectators among spectators, flood controlled;
// the operator's filter, mutes and blocks applied (docs/protocol.md, "Moderation").
#include "server/game_room_detail.h"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>

#include "server/bot_workers.h"
#include "server/chat_filter.h"
#include "server/hub.h"
#include "server/player_object.h"
#include "store/log.h"
#include "store/utc_time.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::MsgType;
using namespace room_detail;

namespace {

// Read with the line's write, on the writer thread: a mute in force (nothing is stored then),
// and who blocked the speaker (at most kBlockersRead: the line is hidden from them).
struct ChatStanding {
    std::optional<store::SanctionRow> mute;
    std::vector<std::int64_t> blockers;
};
constexpr int kBlockersRead = 10000;

}  // namespace

void GameRoom::chat(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                    const protocol::ClientMessage& m) {
    const auto speaker = sideOf(who.id);
    if (!speaker && !hub_.config().spectatorChat)
        return error(c, ErrorCode::ChatRefused, "spectator chat is off on this server", m);
    if (chatFiltered(m.text, hub_.config().chatFilter))
        return error(c, ErrorCode::ChatRefused,
                     "this line holds a word the server does not allow; it was not sent", m);
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
    protocol::ChatLine line{
        side ? protocol::ChatChannel::Players : protocol::ChatChannel::Spectators,
        chatSeq_ + 1,
        playerObject(factsOf(who), PlayerPlace::Chat),
        side,
        m.text,
        hub_.time().unixMs()};
    // Stored before anyone sees it, as actions are: a restart forgets no line. The stored text is
    // the line's JSON (readChatLine reads it back).
    store::ChatRow row{chatSeq_ + 1, channel, protocol::render(line)};
    auto standing = std::make_shared<ChatStanding>();
    commit(
        [game = id_, row = std::move(row), player = who.id, now = hub_.time().unixMs(), standing](
            store::Store& st, const Fence& f) -> std::optional<Error> {
            auto mute = st.activeSanction(player, "mute", now);
            if (!mute) return mute.error();
            if ((standing->mute = *mute)) return std::nullopt;
            auto blockers = st.blockersOf(player, kBlockersRead);
            if (!blockers) return blockers.error();
            standing->blockers = std::move(*blockers);
            return st.saveChat(game, row, f);
        },
        [c, m, player = who.id, channel, line = std::move(line), standing](
            GameRoom& r, std::optional<Error> e) mutable {
            if (!r.store(e, c, m) || standing->mute) {
                if (auto it = r.chatBuckets_.find(player); it != r.chatBuckets_.end()) {
                    it->second.tokens += 1;
                    // Refused, not shown: the same id sent again is refused again.
                    auto& ids = it->second.recent;
                    if (auto k = std::find(ids.begin(), ids.end(), m.id.dump()); k != ids.end())
                        ids.erase(k);
                }
                if (!e && standing->mute)
                    r.error(c, ErrorCode::Muted,
                            standing->mute->until
                                ? "you are muted until " + store::utcTime(standing->mute->until)
                                : "you are muted",
                            m);
                return;
            }
            r.chatStored(c, m, channel, std::move(line), standing->blockers);
        });
}

void GameRoom::chatStored(const std::shared_ptr<Client>& c, const protocol::ClientMessage& m,
                          int channel, protocol::ChatLine line,
                          const std::vector<std::int64_t>& hidden) {
    ++chatSeq_;
    auto text =
        std::make_shared<const std::string>(protocol::render(protocol::ChatMessage{id_, line}));
    if (!m.id.is_null()) c->send(protocol::renderAck(m.id, id_));  // the ack first, as for events
    Broadcast out(std::move(text));
    for (const Sub& sub : subs_) {
        if ((isSide(sub.role) ? 0 : 1) != channel) continue;
        if (sub.player && std::find(hidden.begin(), hidden.end(), sub.player) != hidden.end())
            continue;  // blocked the speaker: never sent the line
        if (auto f = sub.client.lock()) out.add(f);
    }
    out.flush();
    chat_[channel].push_back(std::move(line));
    if (chat_[channel].size() > kChatHeld) chat_[channel].pop_front();
}

}  // namespace rainet::server
