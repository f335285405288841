// The pure SMTP pieces: reply lines, --server, --size, address files, message text.
#include "smtp/smtp_protocol.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

TEST(SmtpReplyLine, CodesContinuationAndGarbage) {
  EXPECT_EQ(parse_reply_line("250 OK").code, 250);
  EXPECT_TRUE(parse_reply_line("250 OK").last);
  EXPECT_FALSE(parse_reply_line("250-PIPELINING").last);
  EXPECT_TRUE(parse_reply_line("354").last);
  EXPECT_EQ(parse_reply_line("HTTP/1.1 400").code, 0);
  EXPECT_EQ(parse_reply_line("25").code, 0);
  EXPECT_EQ(parse_reply_line("250xOK").code, 0);
  EXPECT_EQ(parse_reply_line("999 no").code, 0);
}

TEST(SmtpServer, HostPortAndErrors) {
  std::string host;
  std::uint16_t port = 0;
  parse_server("127.0.0.1:2525", host, port);
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 2525);
  parse_server("[::1]:25", host, port);
  EXPECT_EQ(host, "::1");
  for (const char* bad : {"127.0.0.1", "127.0.0.1:", ":25", "h:0", "h:70000", "h:2x"}) {
    EXPECT_THROW(parse_server(bad, host, port), UserError) << bad;
  }
}

TEST(SmtpSize, FixedAndRange) {
  std::uint64_t lo = 1, hi = 1;
  parse_size_range("10k", lo, hi);
  EXPECT_EQ(lo, 10240u);
  EXPECT_EQ(hi, 10240u);
  parse_size_range("0-2k", lo, hi);
  EXPECT_EQ(lo, 0u);
  EXPECT_EQ(hi, 2048u);
  EXPECT_THROW(parse_size_range("2k-1k", lo, hi), UserError);
  EXPECT_THROW(parse_size_range("x", lo, hi), UserError);
}

TEST(SmtpAddresses, FileSkipsBlanksAndComments) {
  testing::TempDir tmp;
  std::ofstream(tmp.file("to")) << "# users\n a@example.com \n\nb@example.com\n";
  EXPECT_EQ(read_address_file(tmp.file("to"), "to-file"), (std::vector<std::string>{"a@example.com", "b@example.com"}));
  std::ofstream(tmp.file("empty")) << "\n# none\n";
  EXPECT_THROW(read_address_file(tmp.file("empty"), "to-file"), UserError);
  EXPECT_THROW(read_address_file(tmp.file("missing"), "to-file"), UserError);
  EXPECT_EQ(generated_addresses(2, "user", "example.com"),
            (std::vector<std::string>{"user0@example.com", "user1@example.com"}));
}

TEST(SmtpMessage, WholeLinesNoDotStuffingNeeded) {
  const std::string pool = make_body_pool(1000, 7);
  ASSERT_GE(pool.size(), 1000u);
  const std::string text = message_text("s@example.org", {"u@example.com"}, 42, pool, 100);
  const std::size_t body = text.find("\r\n\r\n");
  ASSERT_NE(body, std::string::npos);
  EXPECT_NE(text.find("From: <s@example.org>"), std::string::npos);
  const std::string b = text.substr(body + 4);
  EXPECT_EQ(b.size(), 156u);  // 100 bytes rounded up to two 78-byte lines
  EXPECT_EQ(b.substr(b.size() - 2), "\r\n");
  for (std::size_t at = 0; at < b.size(); at = b.find("\r\n", at) + 2) EXPECT_NE(b[at], '.');
  EXPECT_EQ(message_text("s", {"u"}, 1, pool, 0).substr(message_text("s", {"u"}, 1, pool, 0).size() - 4), "\r\n\r\n");
}

}  // namespace
}  // namespace sluice
