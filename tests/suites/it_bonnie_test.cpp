// End to end: build/sluice bonnie with small sizes in a temporary directory; its CSV through the real
// bon_csv2txt and bon_csv2html when Debian's bonnie++ is installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

RunOptions within_a_minute() {
  RunOptions o;
  o.timeout = std::chrono::milliseconds(60000);
  return o;
}

RunOptions through_sh() {
  RunOptions o;
  o.program = "sh";
  return o;
}

std::size_t entries_in(const std::string& dir) {
  std::size_t n = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(dir);
       it != std::filesystem::recursive_directory_iterator(); ++it)
    ++n;
  return n;
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',')
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// The line starting with "1.98,2.00a," in `text`.
std::string csv_line(const std::string& text) {
  const std::size_t start = text.find("1.98,2.00a,");
  if (start == std::string::npos) return "";
  return text.substr(start, text.find('\n', start) - start);
}

// Small sizes: 4 MiB file, 1 MiB per-char, 1000 seeks, 1024 empty files.
const std::vector<std::string> kSmall = {"-s", "4:8192:1000", "-r", "2", "-f1", "-n", "1", "-m", "testhost"};

std::vector<std::string> args_with(const std::string& dir, std::vector<std::string> extra) {
  std::vector<std::string> a = {"bonnie", "-d", dir};
  a.insert(a.end(), kSmall.begin(), kSmall.end());
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(BonnieCli, RunsEveryPhaseReportsAsBonnieAndRemovesItsFiles) {
  TempDir tmp;
  const RunOutput r = run_binary(args_with(tmp.path(), {}), within_a_minute());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\ntesthost  4M:::1000 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n                  1 "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("Writing a byte at a time...done\nWriting intelligently...done\nRewriting...done\n"
                       "Reading a byte at a time...done\nReading intelligently...done\nstart 'em..."),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Delete files in random order...done."), std::string::npos) << r.err;
  const std::vector<std::string> f = csv_fields(csv_line(r.out));
  ASSERT_EQ(f.size(), 50u) << r.out;
  EXPECT_EQ(f[2], "testhost");
  EXPECT_EQ(f[5], "4M");
  EXPECT_EQ(f[7], "1000");
  EXPECT_EQ(f[21], "1");
  for (std::size_t i = 38; i < 50; ++i) EXPECT_TRUE(f[i].ends_with("us") || f[i].ends_with("ms")) << i << " " << f[i];
  EXPECT_EQ(entries_in(tmp.path()), 0u) << "files left behind";
}

TEST(BonnieCli, JsonHoldsEveryPhaseWithItsBytes) {
  TempDir tmp;
  const RunOutput r = run_binary(args_with(tmp.path(), {"-q", "--output-format=json"}), within_a_minute());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc) << r.out;
  const nlohmann::json& phases = (*doc)["sluice"]["bonnie"]["runs"][0]["phases"];
  ASSERT_EQ(phases.size(), 12u) << phases.dump();
  EXPECT_EQ(phases["put_block"]["bytes"].get<std::uint64_t>(), 4u << 20);
  EXPECT_EQ(phases["put_block"]["ops"].get<std::uint64_t>(), 512u);
  EXPECT_EQ(phases["putc"]["bytes"].get<std::uint64_t>(), 1u << 20);
  EXPECT_EQ(phases["rewrite"]["bytes"].get<std::uint64_t>(), 8u << 20);
  EXPECT_EQ(phases["seeks"]["ops"].get<std::uint64_t>(), 1000u);
  EXPECT_EQ(phases["seq_create"]["ops"].get<std::uint64_t>(), 1024u);
  EXPECT_EQ(phases["ran_del"]["ops"].get<std::uint64_t>(), 1024u);
  const double s = phases["put_block"]["seconds"].get<double>();
  EXPECT_NEAR(phases["put_block"]["rate"].get<double>(), 4096 / s, 1e-6 * 4096 / s);
  EXPECT_NE(r.err.find("Version 2.00a"), std::string::npos) << "-q puts the table on stderr";
}

TEST(BonnieCli, CsvIsReadByBonnieOwnTools) {
  SLUICE_REQUIRE(kBonnie);
  TempDir tmp;
  const std::string work = tmp.file("work");
  std::filesystem::create_directory(work);
  const RunOutput r = run_binary(args_with(work, {"-x", "1", "-q"}), within_a_minute());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string line = csv_line(r.out);
  ASSERT_FALSE(line.empty()) << r.out;
  std::ofstream(tmp.file("run.csv")) << line << "\n";
  const std::vector<std::string> f = csv_fields(line);
  const RunOutput txt = run_binary({"-c", "bon_csv2txt < " + tmp.file("run.csv")}, through_sh());
  ASSERT_EQ(txt.exit_code, 0) << describe(txt);
  EXPECT_NE(txt.out.find("testhost"), std::string::npos) << txt.out;
  // bon_csv2txt's first Latency row starts with the per-char write latency (field 38), as our CSV gave it.
  const std::size_t latency_row = txt.out.find("\nLatency ");
  ASSERT_NE(latency_row, std::string::npos) << txt.out;
  std::istringstream row(txt.out.substr(latency_row + 1, txt.out.find('\n', latency_row + 1) - latency_row - 1));
  std::string label, first_latency;
  row >> label >> first_latency;
  EXPECT_EQ(first_latency, f[38]) << txt.out;
  EXPECT_NE(txt.out.find(f[44]), std::string::npos) << txt.out;
  const RunOutput html = run_binary({"-c", "bon_csv2html < " + tmp.file("run.csv")}, through_sh());
  ASSERT_EQ(html.exit_code, 0) << describe(html);
  EXPECT_NE(html.out.find("testhost"), std::string::npos);
  EXPECT_NE(html.out.find(">" + f[38] + "<"), std::string::npos) << html.out;
  EXPECT_NE(html.out.find(">" + f[49] + "<"), std::string::npos) << html.out;
}

TEST(BonnieCli, BadInputIsRefusedBeforeAnythingIsWritten) {
  TempDir tmp;
  const RunOutput ram = run_binary({"bonnie", "-d", tmp.path(), "-s", "64", "-r", "64", "-n", "0"});
  EXPECT_EQ(ram.exit_code, 1) << describe(ram);
  EXPECT_NE(ram.err.find("File size should be double RAM for good results, RAM is 64M"), std::string::npos) << ram.err;
  const RunOutput direct = run_binary({"bonnie", "-d", tmp.path(), "-D"});
  EXPECT_EQ(direct.exit_code, 1);
  EXPECT_NE(direct.err.find("-D"), std::string::npos) << direct.err;
  const RunOutput space = run_binary({"bonnie", "-d", tmp.path(), "-s", "1t", "-r", "0", "-n", "0"});
  EXPECT_EQ(space.exit_code, 1);
  EXPECT_NE(space.err.find("MiB free"), std::string::npos) << space.err;
  const RunOutput copies = run_binary({"bonnie", "-d", tmp.path(), "-c", "4"});
  EXPECT_EQ(copies.exit_code, 1);
  EXPECT_NE(copies.err.find("-c 4: concurrent copies are not implemented by sluice bonnie"), std::string::npos)
      << copies.err;
  EXPECT_EQ(entries_in(tmp.path()), 0u);
}

TEST(BonnieCli, InterruptedRunRemovesItsFilesAndReportsWhatItMeasured) {
  TempDir tmp;
  RunOptions o;
  o.signal_after = std::chrono::milliseconds(1500);
  const RunOutput r = run_binary({"bonnie", "-d", tmp.path(), "-s", "256", "-r", "0", "-n", "0", "-m", "h"}, o);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_NE(r.out.find("1.98,2.00a,h,"), std::string::npos) << r.out;
  EXPECT_EQ(entries_in(tmp.path()), 0u) << "files left behind";
}

}  // namespace
}  // namespace sluice::testing
