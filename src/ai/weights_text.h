#pragma once
// Reading the committed weight files (belief_weights.inc, value_weights.inc) back as numbers:
// every number on the lines that are not comments, braces and commas ignored.
#include <string>
#include <vector>

#include "core/error.h"

namespace rainet::ai {

Result<std::vector<double>> readWeightNumbers(const std::string& text);

// The header comment (what the model is, the command that wrote it, the feature names,
// `namesPerLine` a line) and the braced weights "{{w0, w1, ...}}" (6 decimals), without a newline.
std::string formatWeights(const std::string& header, const std::string& origin,
                          const std::vector<std::string>& names, int namesPerLine,
                          const std::vector<double>& weights);

}  // namespace rainet::ai
