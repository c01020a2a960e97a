// The move model's weights (move_model.h). Written by tools/pgnarc-train; do not edit.
#include "codec/move_model.h"

namespace pgnarc::detail::model {

const std::array<std::int8_t, kFeatures> kWeights = {};

}  // namespace pgnarc::detail::model
