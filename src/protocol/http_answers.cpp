#include "protocol/http_answers.h"

#include <array>

namespace rainet::protocol {

std::span<const Schema* const> httpAnswers() {
    static const std::array kAll = {
        &schemaOf<GameRecordAnswer>(), &schemaOf<GameListPage>(), &schemaOf<PlayerProfile>(),
        &schemaOf<LeaderboardPage>(),  &schemaOf<GameAnalysis>(), &schemaOf<ClusterHealth>(),
        &schemaOf<StoreTestState>(),
    };
    return kAll;
}

}  // namespace rainet::protocol
