#include "ai/weights_text.h"

#include <cstdio>
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

std::string formatWeights(const std::string& header, const std::string& origin,
                          const std::vector<std::string>& names, int namesPerLine,
                          const std::vector<double>& weights) {
    std::string out = "// " + header + ", written by:\n//   " + origin;
    for (std::size_t j = 0; j < names.size(); ++j) {
        out += j % static_cast<std::size_t>(namesPerLine) == 0 ? "\n//  " : "";
        out += " " + names[j];
    }
    out += "\n{{";
    char buf[32];
    for (std::size_t j = 0; j < weights.size(); ++j) {
        std::snprintf(buf, sizeof buf, "%s%.6f", j ? ", " : "", weights[j]);
        out += buf;
    }
    return out + "}}";
}

}  // namespace rainet::ai
