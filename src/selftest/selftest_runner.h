#pragma once
// Runs a selftest: brings up each planned lab (a raw device, lab/lab_device.h), runs every check's command
// as a child process (this sluice binary, and fio beside where the check has fio arguments and fio is
// installed), reads the measured values and judges them (selftest_report.h), and takes the labs down again,
// also when a check fails or a stop is requested.
#include <functional>
#include <string>

#include "selftest/selftest_plan.h"
#include "selftest/selftest_report.h"

namespace sluice {

struct SelftestOptions {
  SelftestPlanOptions plan;
  std::string lab_dir;      // --lab: judge the lab that is up at this DIR (a raw device: lab up --fs=none)...
  std::string model;        // ... as this model (a preset's name or a model file): its truth, whatever it serves
  bool use_fio = true;      // measure with fio beside where a check has fio arguments
  std::string results_dir;  // keep every result document and the children's log here; "": a temporary directory
  std::function<void(const SelftestRow&)> on_row;  // called after each row (progress); may be empty
};

// Runs the selftest. Throws UserError before measuring anything when a lab cannot be brought up or --lab
// names no raw lab; a failed measurement is a row that does not agree, with the reason.
SelftestSummary run_selftest(const SelftestOptions& options);

}  // namespace sluice
