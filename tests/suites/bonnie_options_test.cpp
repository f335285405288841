// bonnie++'s options as sluice bonnie reads them: short options, units, -s and -n forms, the RAM rules.
#include "suites/bonnie_options.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace sluice {
namespace {

using Args = std::vector<std::string>;

TEST(BonnieOptions, ShortOptionsBecomeLongOnes) {
  EXPECT_EQ(bonnie_long_arguments({"-d", "/tmp/x", "-s64", "-n", "1:4k:1k:2", "-qb", "-f", "-r", "32"}),
            (Args{"--dir=/tmp/x", "--size=64", "--files=1:4k:1k:2", "--quiet", "--no-write-buffering", "--byte-io=0",
                  "--ram=32"}));
  EXPECT_EQ(bonnie_long_arguments({"-f5", "-x", "3", "-m", "box", "-u", "root", "--output-format=json"}),
            (Args{"--byte-io=5", "--runs=3", "--machine=box", "--user=root", "--output-format=json"}));
}

TEST(BonnieOptions, UnimplementedOptionsAreRefusedByName) {
  for (const char* option : {"-p", "-y", "-Z", "-D", "-g"}) {
    try {
      bonnie_long_arguments({option, "x"});
      FAIL() << option << " was accepted";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(option) + ":"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(bonnie_long_arguments({"-k"}), UserError);
  EXPECT_THROW(bonnie_long_arguments({"-d"}), UserError);
}

TEST(BonnieOptions, NumbersUseBonnieSuffixes) {
  EXPECT_EQ(bonnie_number("64", "gt", "-s"), 64);
  EXPECT_EQ(bonnie_number("2g", "gt", "-s"), 2048);
  EXPECT_EQ(bonnie_number("1t", "gt", "-s"), 1024 * 1024);
  EXPECT_EQ(bonnie_number("4k", "kmg", "-n"), 4096);
  EXPECT_EQ(bonnie_number("1m", "kmg", "-n"), 1 << 20);
  EXPECT_EQ(bonnie_number("-1", "kmg", "-n"), -1);
  EXPECT_THROW(bonnie_number("4x", "kmg", "-n"), UserError);
  EXPECT_THROW(bonnie_number("k", "kmg", "-n"), UserError);
}

TEST(BonnieOptions, RamAndSizeTakeMegabytesWithUnits) {
  std::string note;
  EXPECT_EQ(bonnie_ram_mib("512", note), 512);
  EXPECT_EQ(note, "");
  EXPECT_EQ(bonnie_ram_mib("512m", note), 512);
  EXPECT_EQ(note, "");
  EXPECT_EQ(bonnie_ram_mib("1g", note), 1024);
  // bonnie++ 2.00a reads -r with atoi: the unit is dropped there, and sluice says so.
  EXPECT_EQ(note,
            "-r 1g: 1024 MiB of RAM for the size rules (bonnie++ 2.00a reads only the number, 1 MiB: give "
            "-r 1024 there)");
  EXPECT_EQ(bonnie_ram_mib("2T", note), 2 << 20);
  EXPECT_THROW(bonnie_ram_mib("2.5g", note), UserError);
  EXPECT_THROW(bonnie_ram_mib("1k", note), UserError);
  EXPECT_EQ(bonnie_mib("64M", "-s"), 64);
  EXPECT_EQ(bonnie_mib("2g", "-s"), 2048);
  try {
    bonnie_mib("1.5g", "-s 1.5g");
    ADD_FAILURE() << "a fraction was taken";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "bonnie: -s 1.5g: '1.5g': a whole number (bonnie++ takes no fractions)");
  }
}

TEST(BonnieOptions, SizeFormsSetChunkSeeksAndSeekers) {
  BonnieOptions o;
  apply_bonnie_size("1g:4k:100:3", o);
  EXPECT_EQ(o.size_mib, 1024);
  EXPECT_EQ(o.chunk, 4096);
  EXPECT_EQ(o.seeks, 100);
  EXPECT_EQ(o.seekers, 3);
  EXPECT_TRUE(o.size_given);
  EXPECT_EQ(bonnie_size_field(o, true), "1G:4k::100:3");
  EXPECT_EQ(bonnie_size_field(o, false), "1G");
  BonnieOptions d;
  apply_bonnie_size("64", d);
  EXPECT_EQ(bonnie_size_field(d, true), "64M");
  EXPECT_THROW(apply_bonnie_size("64:8k:1:0", d), UserError);
}

TEST(BonnieOptions, FileFormsAndTheirFields) {
  BonnieOptions o;
  apply_bonnie_files("1", o);
  EXPECT_EQ(o.files, 1);
  EXPECT_EQ(bonnie_files_field(o, true), "1");
  EXPECT_EQ(bonnie_files_field(o, false), "1,,,,");
  apply_bonnie_files("1:100:10:2", o);
  EXPECT_EQ(o.max_size, 100);
  EXPECT_EQ(o.min_size, 10);
  EXPECT_EQ(o.dirs, 2);
  EXPECT_EQ(bonnie_files_field(o, true), "1:100:10/2");
  EXPECT_EQ(bonnie_files_field(o, false), "1,100,10,,2");  // 2.00a: the count lands in the chunk-size slot
  BonnieOptions m;
  apply_bonnie_files("2m:4k", m);
  EXPECT_EQ(m.files, 2048);
  EXPECT_EQ(bonnie_files_field(m, false), "2048,4096,,,");
  BonnieOptions l;
  apply_bonnie_files("1:-1", l);
  EXPECT_EQ(l.max_size, kBonnieLinks);
  EXPECT_EQ(bonnie_files_field(l, true), "1:link");
  EXPECT_THROW(apply_bonnie_files("1:10:100", l), UserError);  // min > max
  EXPECT_THROW(apply_bonnie_files("1:10:1:0", l), UserError);
}

TEST(BonnieOptions, FileUnderTwiceTheRamIsRefusedAsBonnieDoes) {
  BonnieOptions o;
  apply_bonnie_size("64", o);
  o.ram_mib = 64;
  try {
    finish_bonnie_options(o);
    FAIL() << "accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("File size should be double RAM for good results, RAM is 64M"),
              std::string::npos);
  }
  o.ram_mib = 32;
  EXPECT_NO_THROW(finish_bonnie_options(o));
  o.ram_mib = 0;
  EXPECT_NO_THROW(finish_bonnie_options(o));
}

TEST(BonnieOptions, DefaultSizeIsTwiceTheRamRoundedToAGigabyte) {
  BonnieOptions o;
  o.ram_mib = 100;
  finish_bonnie_options(o);
  EXPECT_EQ(o.size_mib, 300);  // max(300, 200)
  BonnieOptions big;
  big.ram_mib = 1800;  // 3600 MiB: 528 over 3 GiB, rounded up to 4 GiB
  finish_bonnie_options(big);
  EXPECT_EQ(big.size_mib, 4096);
  BonnieOptions small;
  small.ram_mib = 1300;  // 2600: 552 over 2 GiB -> 3 GiB
  finish_bonnie_options(small);
  EXPECT_EQ(small.size_mib, 3072);
}

TEST(BonnieOptions, RefusalsBeforeAnythingIsWritten) {
  BonnieOptions nothing;
  apply_bonnie_size("0", nothing);
  apply_bonnie_files("0", nothing);
  EXPECT_THROW(finish_bonnie_options(nothing), UserError);
  BonnieOptions chunk;
  apply_bonnie_size("64:1000", chunk);
  EXPECT_THROW(finish_bonnie_options(chunk), UserError);  // not a power of two
  BonnieOptions files;
  apply_bonnie_files("100", files);
  files.ram_mib = 4;  // 100K names x 37 bytes x 2 > 4 MiB
  files.size_mib = 0;
  files.size_given = true;
  EXPECT_THROW(finish_bonnie_options(files), UserError);
  BonnieOptions per_char;
  apply_bonnie_size("2", per_char);
  finish_bonnie_options(per_char);
  EXPECT_EQ(per_char.byte_io_mib, 2);  // -f is capped at the file size
}

}  // namespace
}  // namespace sluice
