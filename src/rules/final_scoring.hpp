// Which score events belong to the final scoring (after the last tile), by reason.
#pragma once
#include "rules/rules.hpp"

namespace carc {

// Unfinished features, fields, the end space of a game's track and networks are scored at the
// end; a game's special effects say so themselves (GameDef::Effect::at_end).
inline bool final_scoring_reason(ScoreReason r) {
  return r == ScoreReason::Final || r == ScoreReason::Farm || r == ScoreReason::Mouth || r == ScoreReason::Network;
}

}  // namespace carc
