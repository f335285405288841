#pragma once
// ErrorOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <array>
#include <cstdint>
#include <vector>

namespace sluice {

// fio's error classes (td_error.h): EILSEQ is a verify error, any other error of a read a read error, of a
// write, trim or sync a write error.
enum class ErrorClass { kRead = 0, kWrite = 1, kVerify = 2 };

constexpr std::uint32_t kContinueOnAllErrors = 0xffff;  // fio's ERROR_TYPE_ANY

// Which io errors a job counts and goes on after, and which end it (or the whole run).
struct ErrorOptions {
  // continue_on_error / ignore_error, as fio's td_non_fatal_error: an error of a class whose bit is set and
  // whose errno is in that class's list is counted and passed; any other error stops the job.
  std::uint32_t continue_on_error = 0;            // ErrorClass bits (fio: none 0, read 1, write 2, io 3, verify 4, all)
  std::array<std::vector<int>, 3> ignore_errors;  // per ErrorClass; empty: fio's default list {EIO, EILSEQ}
  bool error_dump = false;                        // print every error as it happens, also those passed
  bool exitall_on_error = false;                  // a job that fails stops every job of the run
};

ErrorClass error_class_of(bool is_read, int error) noexcept;

// Whether the job counts `error` (an errno) of class `c` and goes on (fio's td_non_fatal_error).
bool error_is_non_fatal(const ErrorOptions& errors, ErrorClass c, int error) noexcept;

}  // namespace sluice
