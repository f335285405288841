// fio's VTRIGGER and DU payloads field by field, the verify state file fio's client writes, and when the trigger
// fires (TriggerClock).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "fionet/bytes.h"
#include "fionet/client.h"
#include "fionet/disk_util_pdu.h"
#include "fionet/iolog_pdu.h"
#include "fionet/pdu.h"
#include "fionet/trigger.h"
#include "run/trigger_watch.h"
#include "support/temp_dir.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;

TEST(VerifyTrigger, CommandIsALengthThenTheBytes) {
  const auto payload = encode_vtrigger("echo b > /proc/sysrq-trigger");
  ASSERT_EQ(payload.size(), 2u + 28u);
  EXPECT_EQ(get_u16(payload.data(), 0), 28u);
  EXPECT_EQ(decode_vtrigger(payload), "echo b > /proc/sysrq-trigger");
  EXPECT_EQ(decode_vtrigger(encode_vtrigger("")), "");
  EXPECT_FALSE(decode_vtrigger({5, 0, 'a'}));  // says 5 bytes, has 1
}

// One thread_io_list as fio 3.33 lays it out: depth 2, one file, so two file_comp entries.
std::vector<std::uint8_t> one_thread_list(const std::string& name, std::uint64_t index) {
  std::vector<std::uint8_t> p(8 + 152 + 2 * 16, 0);
  put_u64(p.data(), 0, 1);  // threads
  std::uint8_t* s = p.data() + 8;
  put_u64(s, 0, 2);       // no_comps
  put_u32(s, 8, 2);       // depth
  put_u32(s, 12, 1);      // nofiles
  put_u64(s, 16, 1234);   // numberio
  put_u64(s, 24, index);  // index
  put_text(s, 88, 64, name);
  put_u64(s, 152, 0);     // comps[0].fileno
  put_u64(s, 160, 4096);  // comps[0].offset
  return p;
}

TEST(VerifyTrigger, ServersAnswerIsSplitIntoThreadsAndSavedInFiosFormat) {
  const auto payload = one_thread_list("w/j", 3);
  const auto threads = decode_io_list(payload);
  ASSERT_TRUE(threads);
  ASSERT_EQ(threads->size(), 1u);
  EXPECT_EQ((*threads)[0].name, "w/j");
  EXPECT_EQ((*threads)[0].index, 3u);
  EXPECT_EQ((*threads)[0].bytes.size(), 152u + 32u);
  EXPECT_EQ(fio_verify_state_name("10.0.0.2", "w/j", 3), "10.0.0.2-w.j-3-verify.state");
  const auto file = fio_verify_state_file((*threads)[0]);
  ASSERT_EQ(file.size(), 24u + 184u);
  EXPECT_EQ(get_u64(file.data(), 0), 3u);    // fio 3.33's VSTATE_HDR_VERSION
  EXPECT_EQ(get_u64(file.data(), 8), 184u);  // the state's size
  EXPECT_EQ(get_u64(file.data(), 16), fio_crc32c(file.data() + 24, 184));
  // Cut short, or claiming more threads than it holds: refused.
  EXPECT_FALSE(decode_io_list(std::vector<std::uint8_t>(payload.begin(), payload.end() - 1)));
  auto two = payload;
  put_u64(two.data(), 0, 2);
  EXPECT_FALSE(decode_io_list(two));
  const auto none = decode_io_list(encode_empty_io_list());
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(VerifyTrigger, FiosCrc32cHasNoFinalInversion) {
  const std::string check = "123456789";
  // CRC-32C's check value is 0xE3069283 with the final inversion; fio's crc32c_sw leaves it out.
  EXPECT_EQ(fio_crc32c(reinterpret_cast<const std::uint8_t*>(check.data()), check.size()), ~0xE3069283u);
}

TEST(DiskUtil, FieldsAtFiosOffsetsAndUtilFromMsec) {
  DiskUtilization d;
  d.name = "loop7";
  d.read_ios = 100;
  d.write_ios = 200;
  d.read_merges = 3;
  d.write_merges = 4;
  d.read_sectors = 800;
  d.write_sectors = 1600;
  d.read_ticks_ms = 50;
  d.write_ticks_ms = 70;
  d.in_queue_ms = 120;
  d.io_ticks_ms = 900;
  d.util_percent = 45.0;  // 900 ms busy of 2000 ms
  const auto p = encode_disk_util(d);
  ASSERT_EQ(p.size(), 256u);
  EXPECT_EQ(get_text(p.data(), 0, 64), "loop7");
  EXPECT_EQ(get_u64(p.data(), 64), 100u);
  EXPECT_EQ(get_u64(p.data(), 72), 200u);
  EXPECT_EQ(get_u64(p.data(), 112), 50u);
  EXPECT_EQ(get_u64(p.data(), 128), 900u);          // io_ticks
  EXPECT_EQ(get_u64(p.data(), 136), 120u);          // time_in_queue
  EXPECT_EQ(get_u64(p.data(), 144), 2000u);         // msec
  EXPECT_EQ(get_u32(p.data(), 152 + 80 + 16), 0u);  // the aggregate's slavecount
  const auto back = decode_disk_util(p);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->name, "loop7");
  EXPECT_EQ(back->write_sectors, 1600u);
  EXPECT_EQ(back->in_queue_ms, 120u);
  EXPECT_DOUBLE_EQ(back->util_percent, 45.0);
  EXPECT_FALSE(decode_disk_util(std::vector<std::uint8_t>(255, 0)));
}

TEST(IoLog, HeaderAtFiosOffsetsAndSamplesBackToTheSameLines) {
  const std::string text = "0, 9384, 0, 4096, 0\n1, 120, 1, 8192, 1\n";
  std::size_t bad_line = 0;
  std::uint64_t count = 0;
  const auto samples = samples_of_log_text(text, bad_line, count);
  ASSERT_TRUE(samples);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(samples->size(), 64u);  // two struct io_sample
  EXPECT_EQ(get_u64(samples->data(), 32 + 8), 120u);
  EXPECT_EQ(get_u32(samples->data(), 32 + 16), 1u);  // ddir, no flag bits
  EXPECT_EQ(fio_log_text(*samples), text);
  IoLog log{.name = "j_lat.1.log", .thread_number = 1, .type = IoLogType::kLat, .samples = count, .data = *samples};
  const auto payload = encode_iolog(log);
  ASSERT_EQ(payload.size(), 288u + 64u);
  EXPECT_EQ(get_u64(payload.data(), 0), 2u);
  EXPECT_EQ(get_u32(payload.data(), 12), 1u);  // IO_LOG_TYPE_LAT
  EXPECT_EQ(get_text(payload.data(), 32, 256), "j_lat.1.log");
  const auto back = decode_iolog(payload);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->name, "j_lat.1.log");
  EXPECT_EQ(fio_log_text(back->data), text);
}

TEST(IoLog, CompressedForTheTransferInflatesToTheSameSamples) {
  std::vector<std::uint8_t> samples(32 * 1000);
  for (std::size_t i = 0; i < 1000; ++i) put_u64(samples.data(), i * 32, i);  // times 0..999
  const auto deflated = deflate_for_transfer(samples);
  ASSERT_FALSE(deflated.empty());
  EXPECT_LT(deflated.size(), samples.size());
  EXPECT_EQ(inflate_transfer(deflated), samples);
  // Without its end (fio 3.33's server sends them so): what inflated.
  const auto cut = inflate_transfer(std::vector<std::uint8_t>(deflated.begin(), deflated.end() - 4));
  ASSERT_TRUE(cut);
  EXPECT_TRUE(std::equal(cut->begin(), cut->end(), samples.begin()));
  EXPECT_FALSE(inflate_transfer({1, 2, 3, 4}));        // not a zlib stream
  EXPECT_FALSE(probe_offers_zlib(encode_probe("h")));  // plain logs from fio's servers, but for histogram logs
}

TEST(IoLog, OffsetsAndPriorityValuesKeepTheirColumns) {
  const std::string text = "5, 77, 1, 4096, 8192, 0x2004\n";
  std::size_t bad_line = 0;
  std::uint64_t count = 0;
  const auto samples = samples_of_log_text(text, bad_line, count);
  ASSERT_TRUE(samples);
  EXPECT_EQ(samples->size(), 40u);  // struct io_sample_offset
  EXPECT_EQ(fio_log_text(*samples), text);
  EXPECT_FALSE(samples_of_log_text("1, 2, 3\n", bad_line, count));
  EXPECT_EQ(bad_line, 1u);
  EXPECT_FALSE(samples_of_log_text("1, 2, 0, 4096, 0\n1, x, 0, 4096, 0\n", bad_line, count));
  EXPECT_EQ(bad_line, 2u);
}

TEST(TriggerClock, FiresOnceWhenTheFileAppearsAndRemovesIt) {
  testing::TempDir dir;
  const std::string file = dir.file("trigger");
  const auto start = std::chrono::steady_clock::now();
  TriggerClock clock({file, std::nullopt, "", ""}, start);
  EXPECT_FALSE(clock.due(start));
  std::ofstream(file) << "now";
  EXPECT_TRUE(clock.due(start));
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(clock.due(start));
}

TEST(TriggerClock, FiresOnceAtTheTimeout) {
  const auto start = std::chrono::steady_clock::now();
  TriggerClock clock({"", 2s, "", ""}, start);
  EXPECT_FALSE(clock.due(start + 1999ms));
  EXPECT_TRUE(clock.due(start + 2s));
  EXPECT_FALSE(clock.due(start + 3s));
}

TEST(ClientArguments, TriggersAreTheClientsOwn) {
  const ClientOptions o = parse_client_arguments({"--client=127.0.0.1", "--trigger-timeout=90", "--trigger=a",
                                                  "--trigger-remote=b", "--trigger-file=/tmp/f", "job.fio"});
  EXPECT_EQ(o.trigger.timeout, std::chrono::nanoseconds(90s));
  EXPECT_EQ(o.trigger.command, "a");
  EXPECT_EQ(o.trigger.remote_command, "b");
  EXPECT_EQ(o.trigger.file, "/tmp/f");
  ASSERT_EQ(o.servers.size(), 1u);
  EXPECT_TRUE(o.servers[0].arguments.empty());  // not sent to the server
  EXPECT_THROW(parse_client_arguments({"--client=127.0.0.1", "--trigger-timeout=x"}), UserError);
}

}  // namespace
}  // namespace sluice::fionet
