// bindings/python/record_input: how the Python module reads a record's text (carcassonne.from_record,
// Game.deserialize_state, unpickling a State). The engine's reader, and one case more: a game with
// no generator saved before its first draw (new_initial_state() without a seed) has no seed, draws
// or pile, which the engine's reader wants of a record it continues; the module settles every draw
// itself, so such a record is read with a placeholder seed, dropped again. fuzz/fuzz_record.cpp
// feeds it every input too (docs/fuzzing.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/json_input.hpp"
#include "engine/engine.hpp"

namespace carc::py_record {

// The record of text, or InputError saying what is wrong with it.
inline Record read(const std::string& text) {
  try {
    return record_from_json(text, "record");
  } catch (const InputError&) {
    // The text is parsed again below: it must pass the engine's checks first (nesting depth, NUL
    // bytes, UTF-8), as every JSON input does; a record nested 100,000 deep would otherwise reach
    // the parser and overflow the stack. Refused, the engine's own error stands.
    bool checked = true;
    try {
      jin::check_text(text, "record");
    } catch (const InputError&) {
      checked = false;
    }
    if (!checked) throw;
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || (j.contains("seed") && !j["seed"].is_null()) ||
        (j.contains("draws") && !j["draws"].empty()) || j.contains("setup"))
      throw;
    j["seed"] = 0;
    Record r = record_from_json(j.dump(), "record");
    r.seed.reset();
    return r;
  }
}

}  // namespace carc::py_record
