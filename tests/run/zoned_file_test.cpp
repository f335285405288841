// ZonedFile / ZoneCursor: fio 3.33's zonemode=zbd rules on emulated zones, one rule per test.
#include "run/zoned_file.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "job/job_spec.h"
#include "run/zoned_targets.h"

namespace sluice {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;
constexpr std::uint32_t kBlock = 64 * 1024;

ZoneJobSettings writer(bool random = true) {
  ZoneJobSettings s;
  s.min_bs = {kBlock, kBlock, kBlock};
  s.random = random;
  s.writes = true;
  return s;
}

struct Zones {
  explicit Zones(ZoneJobSettings settings = writer(), std::uint32_t max_open = 0, std::uint64_t capacity = 0,
                 std::uint64_t range_start = 0, std::uint64_t range_length = 16 * kMiB)
      : file(std::make_shared<ZonedFile>(16 * kMiB, kMiB, capacity, max_open)),
        cursor(file, settings, range_start, range_length) {}
  // A write drawn at `offset`: where it went (asserts it was accepted).
  std::uint64_t write(std::uint64_t offset, std::uint32_t length = kBlock) {
    std::string error;
    EXPECT_EQ(cursor.fit_write(offset, length, resets, error), ZoneFit::kAccept) << error;
    return offset;
  }
  std::shared_ptr<ZonedFile> file;
  ZoneCursor cursor;
  std::uint64_t resets = 0;
};

TEST(ZonedFile, CutsTheFileInZonesAllEmpty) {
  ZonedFile file(16 * kMiB + 1, kMiB, 0, 0);
  EXPECT_EQ(file.zones(), 17u);  // a partial last zone counts, as fio's ceil(size / zonesize)
  for (std::size_t i = 0; i < file.zones(); ++i) EXPECT_EQ(file.write_pointer(i), i * kMiB);
  EXPECT_FALSE(file.has_data());
}

TEST(ZonedFile, AWriteGoesToItsZonesWritePointer) {
  Zones z;
  EXPECT_EQ(z.write(3 * kMiB + 512 * 1024), 3 * kMiB);  // drawn in the middle of zone 3
  EXPECT_EQ(z.write(3 * kMiB + 64 * 1024), 3 * kMiB + kBlock);
  EXPECT_EQ(z.file->write_pointer(3), 3 * kMiB + 2 * kBlock);
  EXPECT_TRUE(z.file->has_data());
  EXPECT_EQ(z.resets, 0u);
}

TEST(ZonedFile, AFullZoneIsResetBeforeItIsWrittenAgain) {
  Zones z;
  for (int i = 0; i < 16; ++i) z.write(0);
  EXPECT_EQ(z.file->write_pointer(0), kMiB);
  EXPECT_EQ(z.write(0), 0u);
  EXPECT_EQ(z.resets, 1u);
  EXPECT_EQ(z.file->write_pointer(0), static_cast<std::uint64_t>(kBlock));
}

TEST(ZonedFile, MaxOpenZonesSendsWritesToOpenZones) {
  Zones z(writer(), 2);
  z.write(0);
  z.write(kMiB);
  // Zone 9 cannot be opened: the write goes to an open zone, chosen by where it was drawn in the range.
  const std::uint64_t went = z.write(9 * kMiB);
  EXPECT_TRUE(went == kBlock || went == kMiB + kBlock) << went;
  EXPECT_EQ(z.file->write_pointer(9), 9 * kMiB);
  // Once zone 0 is full it is closed, and a zone that is not open may be opened again.
  while (z.file->write_pointer(0) < kMiB) z.write(0);
  EXPECT_EQ(z.write(9 * kMiB), 9 * kMiB);
}

TEST(ZonedFile, JobMaxOpenZonesLimitsOneJob) {
  ZoneJobSettings settings = writer();
  settings.job_max_open_zones = 1;
  Zones z(settings, 8);
  z.write(0);
  EXPECT_EQ(z.write(5 * kMiB), static_cast<std::uint64_t>(kBlock));  // its one open zone
}

TEST(ZonedFile, ReadsStayBelowTheWritePointer) {
  ZoneJobSettings settings = writer(false);
  Zones z(settings);
  for (int i = 0; i < 3; ++i) z.write(2 * kMiB);
  ZoneJobSettings reads = settings;
  reads.writes = false;
  ZoneCursor reader(z.file, reads, 0, 16 * kMiB);
  std::uint64_t offset = 0;
  std::uint32_t length = kBlock;
  ASSERT_EQ(reader.fit_read(offset, length), ZoneFit::kAccept);  // zone 0 is empty: on to zone 2
  EXPECT_EQ(offset, 2 * kMiB);
  offset = 2 * kMiB + 2 * kBlock;
  length = 2 * kBlock;  // longer than what is written from there: shortened
  ASSERT_EQ(reader.fit_read(offset, length), ZoneFit::kAccept);
  EXPECT_EQ(offset, 2 * kMiB + 2 * kBlock);
  EXPECT_EQ(length, kBlock);
  offset = 2 * kMiB;
  length = 4 * kBlock;  // as long as the zone's data or longer: from the zone's start (fio)
  ASSERT_EQ(reader.fit_read(offset, length), ZoneFit::kAccept);
  EXPECT_EQ(length, 3 * kBlock);
  offset = 2 * kMiB + 3 * kBlock;  // at the write pointer, and no later zone has data
  length = kBlock;
  EXPECT_EQ(reader.fit_read(offset, length), ZoneFit::kEnd);
}

TEST(ZonedFile, RandomReadsLandInWrittenData) {
  Zones z;
  for (int i = 0; i < 4; ++i) z.write(7 * kMiB);
  ZoneJobSettings reads = writer(true);
  reads.writes = false;
  ZoneCursor reader(z.file, reads, 0, 16 * kMiB);
  for (std::uint64_t drawn = 0; drawn < 16 * kMiB; drawn += 192 * 1024) {
    std::uint64_t offset = drawn;
    std::uint32_t length = kBlock;
    ASSERT_EQ(reader.fit_read(offset, length), ZoneFit::kAccept) << drawn;
    EXPECT_GE(offset, 7 * kMiB);
    EXPECT_LE(offset + length, 7 * kMiB + 4 * kBlock);
    EXPECT_EQ(offset % kBlock, 0u);
  }
}

TEST(ZonedFile, NothingWrittenMeansNothingToRead) {
  auto file = std::make_shared<ZonedFile>(16 * kMiB, kMiB, 0, 0);
  ZoneJobSettings reads = writer(true);
  reads.writes = false;
  ZoneCursor reader(file, reads, 0, 16 * kMiB);
  std::uint64_t offset = 5 * kMiB;
  std::uint32_t length = kBlock;
  EXPECT_EQ(reader.fit_read(offset, length), ZoneFit::kEnd);
}

TEST(ZonedFile, AMixedJobWritesFirst) {
  ZoneJobSettings settings = writer();
  settings.mixed = true;
  Zones z(settings);
  EXPECT_TRUE(z.cursor.read_becomes_write());
  z.write(0);
  EXPECT_FALSE(z.cursor.read_becomes_write());
}

TEST(ZonedFile, ATrimResetsItsZone) {
  Zones z;
  z.write(4 * kMiB);
  std::string error;
  std::uint64_t offset = 4 * kMiB;
  ASSERT_EQ(z.cursor.fit_trim(offset, z.resets, error), ZoneFit::kAccept) << error;
  EXPECT_EQ(z.resets, 1u);
  EXPECT_EQ(z.file->write_pointer(4), 4 * kMiB);
  offset = 4 * kMiB + kBlock;  // fio: "Trim offset not at zone start"
  ZoneJobSettings sequential = writer(false);
  ZoneCursor seq(z.file, sequential, 0, 16 * kMiB);
  EXPECT_EQ(seq.fit_trim(offset, z.resets, error), ZoneFit::kError);
  EXPECT_NE(error.find("not at a zone start"), std::string::npos);
}

TEST(ZonedFile, SequentialWritesSkipPastTheZoneCapacity) {
  Zones z(writer(false), 0, 768 * 1024);
  std::uint64_t offset = 0;
  for (int i = 0; i < 12; ++i) offset = z.write(offset) + kBlock;
  EXPECT_EQ(z.file->write_pointer(0), 768u * 1024);
  EXPECT_EQ(z.cursor.resume_after(Direction::kWrite, 704 * 1024, kBlock), kMiB);  // to the next zone
  EXPECT_EQ(z.cursor.resume_after(Direction::kWrite, 0, kBlock), static_cast<std::uint64_t>(kBlock));
}

TEST(ZonedFile, ZoneskipMovesSequentialJobsOnByWholeZones) {
  ZoneJobSettings settings = writer(false);
  settings.zone_skip = 2 * kMiB;
  Zones z(settings);
  EXPECT_EQ(z.cursor.resume_after(Direction::kWrite, kMiB - kBlock, kBlock), 3 * kMiB);
  EXPECT_EQ(z.cursor.resume_after(Direction::kWrite, 15 * kMiB - kBlock, kBlock), 0u);  // past the end: the start
}

TEST(ZonedFile, ResetFrequencyResetsZonesBeforeTheyAreFull) {
  ZoneJobSettings settings = writer();
  settings.reset_frequency = 1.0;  // every write, once the threshold (0) is passed
  Zones z(settings);
  z.write(0);
  z.write(0);
  z.write(0);
  EXPECT_EQ(z.resets, 2u);  // the first write found an empty zone: no reset counted
  EXPECT_EQ(z.file->write_pointer(0), static_cast<std::uint64_t>(kBlock));
}

TEST(ZonedFile, WithVerifyFullZonesAreNotResetAndWritesEnd) {
  ZoneJobSettings settings = writer(false);
  settings.verify = true;
  auto file = std::make_shared<ZonedFile>(2 * kMiB, kMiB, 0, 0);
  ZoneCursor cursor(file, settings, 0, 2 * kMiB);
  std::uint64_t resets = 0;
  std::string error;
  int accepted = 0;
  for (int i = 0; i < 40; ++i) {
    std::uint64_t offset = 0;
    std::uint32_t length = kBlock;
    if (cursor.fit_write(offset, length, resets, error) != ZoneFit::kAccept) break;
    ++accepted;
  }
  EXPECT_EQ(accepted, 32);  // both zones filled once, then the end
  EXPECT_EQ(resets, 0u);
}

TEST(ZonedFile, ARemainderSmallerThanTheBlockIsAnError) {
  ZoneJobSettings settings = writer();
  settings.min_bs = {kBlock, 3 * kBlock, kBlock};
  auto file = std::make_shared<ZonedFile>(16 * kMiB, kMiB, 0, 0);
  ZoneCursor cursor(file, settings, 0, 16 * kMiB);
  std::uint64_t resets = 0;
  std::string error;
  for (int i = 0; i < 5; ++i) {  // 5 x 192 KiB = 960 KiB: 64 KiB left, less than a write: a full zone
    std::uint64_t offset = 0;
    std::uint32_t length = 3 * kBlock;
    ASSERT_EQ(cursor.fit_write(offset, length, resets, error), ZoneFit::kAccept) << error;
  }
  std::uint64_t offset = 0;
  std::uint32_t length = 3 * kBlock;
  ASSERT_EQ(cursor.fit_write(offset, length, resets, error), ZoneFit::kAccept);
  EXPECT_EQ(resets, 1u);  // fio 3.33: reset and written again from its start
  EXPECT_EQ(offset, 0u);
}

TEST(ZonedFiles, JobsOnOneFileShareItsZonesAndItsLimit) {
  ZonedFiles files;
  JobSpec job;
  job.name = "a";
  job.zones.zone_zbd = true;
  job.zones.zone_size = kMiB;
  job.zones.max_open_zones = 4;
  auto first = files.get("/tmp/f", 16 * kMiB, job.zones, job.name);
  EXPECT_EQ(files.get("/tmp/f", 16 * kMiB, job.zones, job.name), first);
  JobSpec other = job;
  other.zones.max_open_zones = 8;
  EXPECT_THROW(files.get("/tmp/f", 16 * kMiB, other.zones, other.name), UserError);
  other.zones.max_open_zones = 0;  // takes the file's limit
  EXPECT_EQ(files.get("/tmp/f", 16 * kMiB, other.zones, other.name), first);
  other.zones.zone_size = 2 * kMiB;
  EXPECT_THROW(files.get("/tmp/f", 16 * kMiB, other.zones, other.name), UserError);
  JobSpec lone = job;
  lone.zones.max_open_zones = 0;
  lone.zones.job_max_open_zones = 2;
  EXPECT_THROW(files.get("/tmp/g", 16 * kMiB, lone.zones, lone.name), UserError);  // needs a file limit
}

TEST(ZonedTargets, AWritingJobsRegionIsRoundedToZones) {
  JobSpec job;
  job.name = "w";
  job.workload.rw = RwMode::kWrite;
  job.zones.zone_zbd = true;
  job.zones.zone_size = kMiB;
  TargetFile t;
  t.path = "/nonexistent/zoned";
  t.size = 16 * kMiB;
  t.region_start = 100 * 1024;
  t.region_length = 3 * kMiB;
  std::vector<TargetFile> targets{t};
  std::vector<std::string> notes;
  prepare_zoned_targets(job.zones, job.name, job.does_writes() || job.does_trims(), targets, notes);
  EXPECT_EQ(targets[0].region_start, kMiB);
  EXPECT_EQ(targets[0].region_length, 2 * kMiB);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], "/nonexistent/zoned: rounded up offset from 102400 to 1048576");
  EXPECT_EQ(notes[1], "/nonexistent/zoned: rounded down io_size from 2199552 to 2097152");

  targets = {t};
  targets[0].region_length = 512 * 1024;
  EXPECT_THROW(prepare_zoned_targets(job.zones, job.name, job.does_writes() || job.does_trims(), targets, notes),
               UserError);  // no whole zone

  job.workload.rw = RwMode::kRead;  // reads keep their region
  targets = {t};
  notes.clear();
  prepare_zoned_targets(job.zones, job.name, job.does_writes() || job.does_trims(), targets, notes);
  EXPECT_EQ(targets[0].region_start, 100u * 1024);
  EXPECT_TRUE(notes.empty());

  targets = {t};
  targets[0].size = kMiB / 2;  // smaller than a zone
  EXPECT_THROW(prepare_zoned_targets(job.zones, job.name, job.does_writes() || job.does_trims(), targets, notes),
               UserError);
}

}  // namespace
}  // namespace sluice
