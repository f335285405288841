#pragma once
// Validating JUnit XML against tests/compare/junit.xsd (Jenkins' JUnit schema's structure) with python3-lxml,
// for sluice compare --output-format=junit. Skips the calling test, with the reason, when it cannot run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice::testing {

inline std::string debian_python3() {
  if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";  // where Debian's python3-lxml is
  return have_program("python3") ? "python3" : "";
}

// Call as the last statement of a test or wrapped in ASSERT_NO_FATAL_FAILURE: a skip returns from here only.
inline void expect_valid_junit(const std::string& xml) {
  const std::string python = debian_python3();
  if (python.empty()) GTEST_SKIP() << "python3 is not installed: the JUnit XML cannot be validated";
  RunOptions run;
  run.program = python;
  if (run_binary({"-c", "import lxml.etree"}, run).exit_code != 0) {
    GTEST_SKIP() << "python3-lxml is not installed (scripts/install-deps.sh --with-peers): the JUnit XML cannot be "
                    "validated";
  }
  TempDir dir;
  std::ofstream(dir.file("report.xml")) << xml;
  const std::string script =
      "import sys, lxml.etree as e\n"
      "schema = e.XMLSchema(e.parse(sys.argv[1]))\n"
      "if not schema.validate(e.parse(sys.argv[2])):\n"
      "    print(schema.error_log); sys.exit(1)\n";
  const RunOutput r =
      run_binary({"-c", script, SLUICE_SOURCE_DIR "/tests/compare/junit.xsd", dir.file("report.xml")}, run);
  EXPECT_EQ(r.exit_code, 0) << "not valid JUnit XML: " << r.out << r.err << "\n" << xml;
}

}  // namespace sluice::testing
