#include <bit>

#include "ai/bot.h"
#include "ai/random_bot.h"

namespace rainet::ai {

std::uint8_t randomSetup(Rng& rng) {
    // Partial Fisher-Yates over the 8 squares: the first 4 drawn hold links.
    int squares[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    std::uint8_t links = 0;
    for (int i = 0; i < 4; ++i) {
        const int j = i + static_cast<int>(rng.below(static_cast<std::uint32_t>(8 - i)));
        std::swap(squares[i], squares[j]);
        links |= static_cast<std::uint8_t>(1u << squares[i]);
    }
    return links;
}

std::unique_ptr<Bot> makeBot(std::string_view name) {
    if (name == "random") return std::make_unique<RandomBot>();
    return nullptr;
}

std::vector<std::string> botNames() {
    return {"random"};
}

}  // namespace rainet::ai
