#include "store/chat_store.h"

#include <algorithm>

namespace rainet::store {

std::optional<Error> insertChat(Database& db, const std::string& game, const ChatRow& line) {
    auto st = db.prepare("INSERT INTO chat (game, seq, channel, line) VALUES (?, ?, ?, ?)", true);
    st->bind(1, game);
    st->bind(2, line.seq);
    st->bind(3, line.channel);
    st->bind(4, line.line);
    if (st->step() != Step::Done) return Error{st->error()};
    return std::nullopt;
}

Result<std::vector<ChatRow>> loadChat(Database& db, const std::string& game, int perChannel) {
    std::vector<ChatRow> out;
    for (int channel = 0; channel < 2; ++channel) {
        auto st = db.prepare(
            "SELECT seq, line FROM chat WHERE game = ? AND channel = ? ORDER BY seq DESC LIMIT ?",
            true);
        st->bind(1, game);
        st->bind(2, channel);
        st->bind(3, perChannel);
        Step step;
        while ((step = st->step()) == Step::Row)
            out.push_back({st->integer(0), channel, st->text(1)});
        if (step == Step::Failed) return Error{st->error()};
    }
    std::sort(out.begin(), out.end(),
              [](const ChatRow& a, const ChatRow& b) { return a.seq < b.seq; });
    return out;
}

}  // namespace rainet::store
