#pragma once
// Internal to method/interfere: the conclusions of `sluice interfere` once its phases have run: each loaded
// phase's and trial's flood verdict (interfere_flood.h), the explanation's arithmetic (interfere_explain.h) and
// the mechanism and recommendation (interfere_advice.h), stored in the report.
#include <chrono>

#include "method/interfere.h"

namespace sluice {

// Fills the phases' and trials' `flood`, report.explanation and report.advice from the measured phases.
// `phase_length` is the runtime each phase was given.
void conclude_interfere(InterfereReport& report, std::chrono::nanoseconds phase_length);

}  // namespace sluice
