#include "protocol/server_messages.h"

#include <array>

namespace rainet::protocol {

void write(std::string& out, const std::optional<Clocks>& c) {
    writeValue(out, c);
}

std::string render(const ActionEvent& e) {
    std::string out;
    out.reserve(160 + e.view.size() + (e.legal ? 9 * e.legal->size() : 0));
    writeValue(out, e);
    return out;
}

std::string withLegal(std::string_view event, const std::vector<std::string>& legal) {
    std::string out(event.substr(0, event.size() - 1));  // without its closing brace
    out += ",\"legal\":";
    writeValue(out, legal);
    out += '}';
    return out;
}

namespace {

// The `type` and `kind` literals a message's table begins with.
template <class T>
MessageDef def() {
    const Schema& s = schemaOf<T>();
    MessageDef d{{}, {}, &s};
    for (const Field& f : s.fields) {
        if (f.type.kind != Type::Kind::Literal) continue;
        if (f.name == "type") d.type = f.type.values[0];
        if (f.name == "kind") d.kind = f.type.values[0];
    }
    return d;
}

}  // namespace

std::span<const MessageDef> serverMessages() {
    static const std::array kAll = {
        def<WelcomeMessage>(),       def<Ack>(),
        def<ErrorMessage>(),         def<Snapshot>(),
        def<HiddenEvent>(),          def<JoinedEvent>(),
        def<SetupEvent>(),           def<StartEvent>(),
        def<ActionEvent>(),          def<DrawOfferEvent>(),
        def<DrawDeclineEvent>(),     def<EndEvent>(),
        def<RematchOfferEvent>(),    def<RematchDeclineEvent>(),
        def<RematchEvent>(),         def<PresenceMessage>(),
        def<LobbyMessage>(),         def<ChatMessage>(),
        def<SpectatorsMessage>(),    def<MatchedMessage>(),
        def<PongMessage>(),          def<TournamentMessage>(),
        def<TournamentsMessage>(),   def<NotificationMessage>(),
        def<NotificationsMessage>(), def<UnreadMessage>(),
        def<ChallengeMessage>(),     def<ChallengeUpdateMessage>(),
        def<ChallengesMessage>(),    def<FollowingMessage>(),
        def<BerserkMessage>(),       def<MyGamesMessage>(),
        def<BlockedMessage>(),       def<ReportsMessage>(),
    };
    return kAll;
}

const MessageDef* findMessage(std::string_view type, std::string_view kind) {
    for (const MessageDef& d : serverMessages())
        if (d.type == type && d.kind == kind) return &d;
    return nullptr;
}

}  // namespace rainet::protocol
