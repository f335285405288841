#pragma once
// read_iolog: each clone of a job replays one log (the clone's of the ':' list, in turn, as fio assigns
// them). Binding reads the log and makes the clone's files, sizes, directions and largest block sizes
// those of the log, so its targets are resolved, checked, laid out and opened like any job's; the IoLoop
// then takes its ios from the log instead of the pattern.
#include <vector>

namespace sluice {

struct GroupPlan;  // run/plan.h

// Reads the log of every clone that replays one and binds it to the clone (JobSpec::replay_log).
// Files the log names are the clone's files (replay_redirect: that one file); a file sluice must create is
// as large as the log's farthest io on any file, rounded up to 4 KiB. Throws UserError naming the log (and
// its line) when one cannot be read.
void bind_replay_logs(std::vector<GroupPlan>& plan);

}  // namespace sluice
