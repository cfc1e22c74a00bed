#pragma once
// Logistic regression over card features (behaviour.h) by Newton's method: the MAP weights under
// a normal prior per weight (mean, precision). Used to fit the belief model offline (prior mean 0)
// and to refit it during a game on the cards identified so far (prior: the offline model).
#include <vector>

#include "ai/behaviour.h"

namespace rainet::ai {

CardFeatures fitLogistic(const std::vector<CardFeatures>& x, const std::vector<bool>& link,
                         const CardFeatures& priorMean, const CardFeatures& priorPrecision,
                         int maxIterations = 30);

}  // namespace rainet::ai
