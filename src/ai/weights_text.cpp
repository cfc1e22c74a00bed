#include "ai/weights_text.h"

#include <sstream>

namespace rainet::ai {

Result<std::vector<double>> readWeightNumbers(const std::string& text) {
    std::vector<double> numbers;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("//", 0) == 0) continue;
        for (char& c : line)
            if (c == '{' || c == '}' || c == ',') c = ' ';
        std::istringstream in(line);
        for (std::string word; in >> word;) {
            try {
                std::size_t used = 0;
                numbers.push_back(std::stod(word, &used));
                if (used != word.size()) return Error{"bad number '" + word + "'"};
            } catch (const std::exception&) {
                return Error{"bad number '" + word + "'"};
            }
        }
    }
    return numbers;
}

}  // namespace rainet::ai
