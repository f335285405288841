#pragma once
// IoLoopInputs: what an IoLoop is made from, and the one place where a job becomes them
// (io_loop_inputs(), io_loop_inputs.cpp). The loop never sees the whole job: each of its state groups
// (io_loop_state.h) takes the part of the job it reads from here, the facts that several parts decide
// (does the job write, the zone settings, the buffers' content, the pattern) are derived here once, and
// the features whose classes still read many parts are bound here for prepare() to build.
// The parts are references into the JobInstance, which outlives the loop.
#include <cstdint>
#include <memory>
#include <vector>

#include "run/io_loop_state.h"

namespace sluice {

struct JobInstance;  // run/plan.h
struct TargetFile;   // targets/target_file.h

struct IoLoopInputs {
  ioloop::Job job;
  const TimeOptions& time;    // -> Window
  const QueueOptions& queue;  // -> Queue
  ioloop::QueueContext queue_context;
  const PacingOptions& pacing;  // -> Source (arrivals), Think
  bool thinktime_blocks_given = false;
  const DurabilityOptions& durability;  // -> SyncState
  const ZoneOptions& zones;             // -> Zones
  ZoneJobSettings zone_settings;
  const BufferOptions& buffers;  // -> Content
  BufferFillPolicy fill_policy;
  Rng buffer_rng;                        // the write buffers' content
  std::unique_ptr<DedupeSource> dedupe;  // dedupe_percentage on a writing job that does not verify; else null
  const ReportOptions& report;           // -> Accounting
  std::uint64_t trim_block = 0;          // bs of trims (block_error_percentiles)
  IoPattern pattern;                     // over the targets' regions
  ioloop::Priority priority;
};

// The loop's inputs for a clone of a job over its files. instance and targets must outlive the loop.
IoLoopInputs io_loop_inputs(const JobInstance& instance, const std::vector<TargetFile>& targets);

}  // namespace sluice
