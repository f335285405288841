// fio's frames: CRC-16, fragmenting and joining, version and checksum checks, over a socket pair.
#include "fionet/wire.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "fionet/bytes.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;

struct SocketPair {
  int a = -1, b = -1;
  SocketPair() {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0) {
      a = fds[0];
      b = fds[1];
    }
  }
  ~SocketPair() {
    if (a >= 0) ::close(a);
    if (b >= 0) ::close(b);
  }
};

TEST(FioWire, Crc16IsCrc16Arc) {
  const std::string check = "123456789";  // the standard check input; CRC-16/ARC gives 0xBB3D
  EXPECT_EQ(crc16({reinterpret_cast<const std::uint8_t*>(check.data()), check.size()}), 0xBB3D);
  EXPECT_EQ(crc16({}), 0);
}

TEST(FioWire, HeaderFieldsAreLittleEndianAtFiosOffsets) {
  const std::vector<std::uint8_t> payload = {1, 2, 3};
  const std::vector<std::uint8_t> frame =
      encode_message(static_cast<std::uint16_t>(Op::kProbe), 0x1122334455667788ull, payload);
  ASSERT_EQ(frame.size(), kHeaderBytes + 3);
  EXPECT_EQ(get_u16(frame.data(), 0), kProtocolVersion);
  EXPECT_EQ(get_u16(frame.data(), 2), 10);
  EXPECT_EQ(get_u32(frame.data(), 4), 0u);
  EXPECT_EQ(get_u64(frame.data(), 8), 0x1122334455667788ull);
  EXPECT_EQ(get_u32(frame.data(), 16), 3u);
  EXPECT_EQ(get_u16(frame.data(), 20), crc16({frame.data(), 20}));
  EXPECT_EQ(get_u16(frame.data(), 22), crc16(payload));
}

TEST(FioWire, LongMessageGoesInFragmentsAndComesBackWhole) {
  std::vector<std::uint8_t> payload(5000);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 7);
  const std::vector<std::uint8_t> frames = encode_message(static_cast<std::uint16_t>(Op::kThreadStat), 9, payload);
  EXPECT_EQ(frames.size(), 5 * kHeaderBytes + payload.size());  // 4 x 1024 + 904
  EXPECT_EQ(get_u32(frames.data(), 4), 1u);                     // "more" on the first
  SocketPair pair;
  std::thread writer([&] { EXPECT_TRUE(write_all(pair.a, frames, 5s)); });
  const ReadResult r = read_message(pair.b, 5s);
  writer.join();
  ASSERT_EQ(r.status, ReadStatus::kOk);
  EXPECT_EQ(r.message.op, static_cast<std::uint16_t>(Op::kThreadStat));
  EXPECT_EQ(r.message.tag, 9u);
  EXPECT_EQ(r.message.payload, payload);
}

TEST(FioWire, OtherVersionIsNamed) {
  std::vector<std::uint8_t> frame = encode_message(static_cast<std::uint16_t>(Op::kProbe), 0, {});
  put_u16(frame.data(), 0, 120);  // fio 3.42
  put_u16(frame.data(), 20, crc16({frame.data(), 20}));
  SocketPair pair;
  ASSERT_TRUE(write_all(pair.a, frame, 1s));
  const ReadResult r = read_message(pair.b, 1s);
  EXPECT_EQ(r.status, ReadStatus::kVersion);
  EXPECT_EQ(r.peer_version, 120);
  const std::string line = version_mismatch_text("server 10.0.0.2,8765", 120);
  EXPECT_NE(line.find("version 120"), std::string::npos) << line;
  EXPECT_NE(line.find("version 97"), std::string::npos) << line;
}

TEST(FioWire, BadChecksumIsRefused) {
  const std::vector<std::uint8_t> one = {'x'};
  std::vector<std::uint8_t> frame = encode_message(static_cast<std::uint16_t>(Op::kText), 0, one);
  frame.back() ^= 0xff;
  SocketPair pair;
  ASSERT_TRUE(write_all(pair.a, frame, 1s));
  EXPECT_EQ(read_message(pair.b, 1s).status, ReadStatus::kBadCrc);
}

TEST(FioWire, SilentPeerTimesOut) {
  SocketPair pair;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_message(pair.b, 100ms).status, ReadStatus::kTimeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(FioWire, ClosedPeerIsClosed) {
  SocketPair pair;
  ::close(pair.a);
  pair.a = -1;
  EXPECT_EQ(read_message(pair.b, 1s).status, ReadStatus::kClosed);
}

}  // namespace
}  // namespace sluice::fionet
