// The builders of objects.h and the replay's withLegal.
#include "protocol/objects.h"

#include <gtest/gtest.h>

#include "protocol/server_messages.h"

namespace rainet::protocol {
namespace {

TEST(ChatLineStored, ReadsBackWhatWasRendered) {
    const ChatLine spectator{ChatChannel::Spectators,
                             7,
                             Player{"p3", "Ann \"A\"", {}, {}, {}, {}, {}},
                             std::nullopt,
                             "hi\nthere é",
                             1700000000123};
    ChatLine player = spectator;
    player.channel = ChatChannel::Players;
    player.side = Side::Two;
    for (const ChatLine& line : {spectator, player}) {
        auto read = readChatLine(render(line));
        ASSERT_TRUE(read);
        EXPECT_EQ(render(*read), render(line));
    }
}

TEST(ChatLineStored, RefusesWhatIsNotALine) {
    for (
        const char* bad :
        {"", "nonsense", "[]", R"({"channel":"players"})",
         R"({"channel":"lounge","n":1,"from":{"id":"p1","name":"a"},"side":null,"text":"x","at":1})",
         R"({"channel":"players","n":"1","from":{"id":"p1","name":"a"},"side":null,"text":"x","at":1})",
         R"({"channel":"players","n":1,"from":{"id":"p1","name":"a"},"side":"3","text":"x","at":1})",
         R"({"channel":"players","n":1,"from":{"id":"p1"},"side":null,"text":"x","at":1})"})
        EXPECT_FALSE(readChatLine(bad)) << bad;
}

TEST(WithLegal, AppendsTheListAsTheLastField) {
    EXPECT_EQ(
        withLegal(R"({"type":"event","game":"g1","v":3,"kind":"draw_offer","side":"1"})",
                  {"a1-a2", "b1-b2"}),
        R"({"type":"event","game":"g1","v":3,"kind":"draw_offer","side":"1","legal":["a1-a2","b1-b2"]})");
}

TEST(SetupSquares, AreTheMasksSquaresAscending) {
    EXPECT_EQ(Json(setupSquares(Side::One, 0x0f)), setupJson(Side::One, 0x0f));
    EXPECT_EQ(setupSquares(Side::Two, 0).size(), 0u);
    EXPECT_EQ(setupSquares(Side::Two, 0xff).size(), 8u);
}

}  // namespace
}  // namespace rainet::protocol
