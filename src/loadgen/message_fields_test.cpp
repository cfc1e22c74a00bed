// readMessageFields against nlohmann on every server message of the golden transcripts and on
// the cases its scan hands over to nlohmann.
#include "loadgen/message_fields.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

namespace rainet::loadgen {
namespace {

using Json = nlohmann::json;

// What the load generator read from the tree before (Json::parse, then field by field).
std::optional<MessageFields> fromTree(const std::string& text) {
    const Json j = Json::parse(text, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    MessageFields f;
    for (auto [key, out] : {std::pair{"type", &f.type},
                            {"id", &f.id},
                            {"game", &f.game},
                            {"kind", &f.kind},
                            {"token", &f.token},
                            {"code", &f.code}})
        if (j.contains(key) && j[key].is_string()) *out = j[key];
    if (j.contains("ply") && j["ply"].is_number_integer()) f.ply = j["ply"].get<int>();
    if (j.contains("legal")) {
        f.hasLegal = true;
        if (j["legal"].is_array())
            for (const Json& a : j["legal"])
                if (a.is_string()) f.legal.push_back(a);
    }
    return f;
}

void expectSame(const std::string& text) {
    const auto want = fromTree(text);
    const auto got = readMessageFields(text);
    ASSERT_EQ(want.has_value(), got.has_value()) << text;
    if (!want) return;
    EXPECT_EQ(want->type, got->type) << text;
    EXPECT_EQ(want->id, got->id) << text;
    EXPECT_EQ(want->game, got->game) << text;
    EXPECT_EQ(want->kind, got->kind) << text;
    EXPECT_EQ(want->token, got->token) << text;
    EXPECT_EQ(want->code, got->code) << text;
    EXPECT_EQ(want->ply, got->ply) << text;
    EXPECT_EQ(want->hasLegal, got->hasLegal) << text;
    EXPECT_EQ(want->legal, got->legal) << text;
}

TEST(MessageFields, SameAsTheTreeOnTheGoldenTranscripts) {
    const char* root = std::getenv("RAINET_SOURCE_DIR");
    ASSERT_NE(root, nullptr);
    int lines = 0, withLegal = 0;
    for (const char* name : {"side1.jsonl", "side2.jsonl", "spectator.jsonl"}) {
        std::ifstream in(std::string(root) + "/tests/server/golden/" + name);
        ASSERT_TRUE(in) << name;
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            ++lines;
            expectSame(line);
            if (line.find("\"legal\"") != std::string::npos) ++withLegal;
        }
    }
    EXPECT_GT(lines, 50);
    EXPECT_GT(withLegal, 5);
}

TEST(MessageFields, ReadsTheFieldsOfAnActionEvent) {
    const auto f = readMessageFields(
        R"({"type":"event","game":"g7","v":12,"kind":"action","ply":9,"seen":{"kind":"move","type":"x"},)"
        R"("legal":["a1-a2","LB+b1"],"clocks":{"1":5,"2":6,"running":"1"}})");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->type, "event");  // not the nested "type"
    EXPECT_EQ(f->kind, "action");
    EXPECT_EQ(f->game, "g7");
    EXPECT_EQ(f->ply, 9);
    EXPECT_TRUE(f->hasLegal);
    EXPECT_EQ(f->legal, (std::vector<std::string>{"a1-a2", "LB+b1"}));
}

TEST(MessageFields, EscapesRepeatsAndOddValuesAsTheTreeReadsThem) {
    for (const std::string text : {
             R"({"type":"welcome","token":"a\"b\\c\u00e9"})",  // escapes: through nlohmann
             R"({"type":"ack","id":"a1","id":2})",             // the last value counts
             R"({"type":"ack","id":7,"id":"a2"})",
             R"({"type":"event","ply":1.5})",  // not an integer
             R"({"type":"event","ply":-3,"ply":4})",
             R"({"type":"event","ply":99999999999})",  // out of int's range
             R"({"type":"event","legal":null})",
             R"({"type":"event","legal":["a1-a2",3,{"x":[1]},"b1-b2"]})",
             R"({"type":"event","legal":[]})",
             R"( { "type" : "ack" , "id" : "c1" , "game" : "g1" } )",
             R"({})",
             R"([1,2])",
             R"("text")",
             R"({"type":"ack")",  // truncated
             R"({"type":"ack"} trailing)",
             R"({"type":"ack",})",
             "",
             "not json",
         })
        expectSame(text);
}

}  // namespace
}  // namespace rainet::loadgen
