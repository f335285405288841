#pragma once
// PostMark's interactive prompt (`pm>`), for a person at a terminal: each command acts as it is typed, as in
// PostMark itself. Scripts piped into sluice postmark are read whole instead (postmark_script.h), so that every
// `set` is checked before anything touches a disk.
#include <cstdio>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "suites/postmark_session.h"

namespace sluice {

// Reads commands from `in` after printing "pm>" to `out` for each, and executes them at once: set, show, help,
// run, load FILE; quit or the end of input ends the prompt. A line PostMark does not know prints "Eh?" (with
// sluice's nearest command), a bad setting "Error: ..." (as PostMark prints them), and the prompt carries on.
// `progress` receives each run's progress lines as they happen. Returns the session, for the JSON document and
// the history; a stopped run (`stop`) ends it.
PostmarkSession run_postmark_prompt(std::istream& in, std::FILE* out, const std::vector<PostmarkCommand>& overrides,
                                    const std::function<bool()>& stop);

}  // namespace sluice
