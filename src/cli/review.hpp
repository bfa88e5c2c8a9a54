// The review of a game as the terminal shows it (`carcassonne review`, and `play`'s review at the
// end of a game): a row per decision with a choice (the played move and the best with their
// expected margins, the loss, the mark ?! ? ??) and a line per seat, in the current language.
#pragma once
#include <string>

#include "ai/review.hpp"

namespace carc::cli {

std::string render_review(const Review& rv, const Record& r);

}  // namespace carc::cli
