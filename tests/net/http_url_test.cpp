// parse_http_url and read_url_file: what is accepted, and that errors name the option and the fix.
#include "net/http_url.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_http_url(text, "--url");
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(HttpUrl, ParsesHostPortAndTarget) {
  const HttpUrl u = parse_http_url("http://127.0.0.1:8080/a/b.html?x=1#frag", "--url");
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 8080);
  EXPECT_EQ(u.target, "/a/b.html?x=1");
  EXPECT_EQ(u.host_header, "127.0.0.1:8080");
  const HttpUrl d = parse_http_url("HTTP://localhost", "--url");
  EXPECT_EQ(d.port, 80);
  EXPECT_EQ(d.target, "/");
  const HttpUrl v6 = parse_http_url("http://[::1]:81?q", "--url");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 81);
  EXPECT_EQ(v6.target, "/?q");
}

TEST(HttpUrl, RefusesHttpsWithTheReason) {
  const std::string e = error_of("https://127.0.0.1/");
  EXPECT_NE(e.find("--url=https://127.0.0.1/"), std::string::npos) << e;
  EXPECT_NE(e.find("no TLS"), std::string::npos) << e;
}

TEST(HttpUrl, RefusesMalformedUrls) {
  for (const char* bad : {"127.0.0.1/", "ftp://x/", "http://", "http://:80/", "http://h:0/", "http://h:70000/",
                          "http://h:/", "http://h:8x/", "http://a b/", "http://user@h/", "http://[::1/"}) {
    EXPECT_NE(error_of(bad).find("--url="), std::string::npos) << bad;
  }
}

TEST(HttpUrl, ReadsAnHttpLoadUrlFile) {
  testing::TempDir dir;
  std::ofstream(dir.file("urls")) << "# comment\nhttp://127.0.0.1:1/a\n\n  http://127.0.0.1:1/b\r\n";
  const std::vector<HttpUrl> urls = read_url_file(dir.file("urls"));
  ASSERT_EQ(urls.size(), 2u);
  EXPECT_EQ(urls[1].target, "/b");
  std::ofstream(dir.file("bad")) << "http://127.0.0.1:1/a\nhttps://x/\n";
  try {
    read_url_file(dir.file("bad"));
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(":2"), std::string::npos) << e.what();
  }
  std::ofstream(dir.file("empty")) << "# nothing\n";
  EXPECT_THROW(read_url_file(dir.file("empty")), UserError);
  EXPECT_THROW(read_url_file(dir.file("missing")), UserError);
}

}  // namespace
}  // namespace sluice
