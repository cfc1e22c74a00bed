#pragma once
// Reading the committed weight files (belief_weights.inc, value_weights.inc) back as numbers:
// every number on the lines that are not comments, braces and commas ignored.
#include <string>
#include <vector>

#include "core/error.h"

namespace rainet::ai {

Result<std::vector<double>> readWeightNumbers(const std::string& text);

}  // namespace rainet::ai
