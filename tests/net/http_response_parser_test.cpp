// HttpResponseParser: framing by Content-Length, chunked and close; strictness; input split anywhere.
#include "net/http_response_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace sluice {
namespace {

// Feeds `text` in pieces of `step` bytes; returns the bytes consumed in total.
std::size_t feed_in_steps(HttpResponseParser& p, const std::string& text, std::size_t step) {
  std::size_t used = 0;
  for (std::size_t at = 0; at < text.size() && !p.done() && !p.failed(); at += step) {
    used += p.feed(text.data() + at, std::min(step, text.size() - at));
  }
  return used;
}

TEST(HttpResponseParser, ContentLengthBodyEndsTheResponseAtAnySplit) {
  const std::string r = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nServer: x\r\n\r\n0123456789";
  for (std::size_t step : {1u, 2u, 7u, 1000u}) {
    HttpResponseParser p;
    p.reset(false);
    EXPECT_EQ(feed_in_steps(p, r, step), r.size()) << step;
    ASSERT_TRUE(p.done()) << step;
    EXPECT_EQ(p.status(), 200);
    EXPECT_EQ(p.body_bytes(), 10u);
    EXPECT_EQ(p.received_bytes(), r.size());
    EXPECT_TRUE(p.keep_alive());
  }
}

TEST(HttpResponseParser, StopsAtTheEndOfTheResponse) {
  const std::string r = "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabcEXTRA";
  HttpResponseParser p;
  p.reset(false);
  EXPECT_EQ(p.feed(r.data(), r.size()), r.size() - 5);
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.status(), 404);
}

TEST(HttpResponseParser, ChunkedBodyWithExtensionsAndTrailers) {
  const std::string r =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n"
      "0\r\nX-Trailer: 1\r\n\r\n";
  for (std::size_t step : {1u, 3u, 1000u}) {
    HttpResponseParser p;
    p.reset(false);
    EXPECT_EQ(feed_in_steps(p, r, step), r.size());
    ASSERT_TRUE(p.done()) << step << " " << p.error();
    EXPECT_EQ(p.body_bytes(), 31u);
  }
}

TEST(HttpResponseParser, BodyUntilCloseEndsOnlyWhenTheServerCloses) {
  const std::string r = "HTTP/1.0 200 OK\r\n\r\nsome body";
  HttpResponseParser p;
  p.reset(false);
  p.feed(r.data(), r.size());
  EXPECT_FALSE(p.done());
  p.finish_on_close();
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.body_bytes(), 9u);
  EXPECT_FALSE(p.keep_alive());
}

TEST(HttpResponseParser, ConnectionCloseAndHttp10KeepAlive) {
  HttpResponseParser p;
  p.reset(false);
  const std::string close = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
  p.feed(close.data(), close.size());
  EXPECT_TRUE(p.done());
  EXPECT_FALSE(p.keep_alive());
  p.reset(false);
  const std::string keep = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n";
  p.feed(keep.data(), keep.size());
  EXPECT_TRUE(p.done());
  EXPECT_TRUE(p.keep_alive());
}

TEST(HttpResponseParser, HeadAnd204And304HaveNoBody) {
  for (const auto& [head, text] :
       std::vector<std::pair<bool, std::string>>{{true, "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"},
                                                 {false, "HTTP/1.1 204 No Content\r\n\r\n"},
                                                 {false, "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n"}}) {
    HttpResponseParser p;
    p.reset(head);
    EXPECT_EQ(p.feed(text.data(), text.size()), text.size());
    EXPECT_TRUE(p.done()) << text;
    EXPECT_EQ(p.body_bytes(), 0u);
  }
}

TEST(HttpResponseParser, SkipsInterimResponses) {
  const std::string r = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";
  HttpResponseParser p;
  p.reset(false);
  EXPECT_EQ(p.feed(r.data(), r.size()), r.size());
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.status(), 201);
  EXPECT_EQ(p.received_bytes(), r.size());
}

TEST(HttpResponseParser, RefusesGarbage) {
  const std::vector<std::string> bad = {
      "garbage\r\n\r\n",
      "HTTP/2 200 OK\r\n\r\n",
      "HTTP/1.1 2x0 OK\r\n\r\n",
      "HTTP/1.1 099 Low\r\n\r\n",
      "HTTP/1.1 200OK\r\n\r\n",
      "HTTP/1.1 200 OK\n\n",
      "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
      "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
  };
  for (const std::string& text : bad) {
    HttpResponseParser p;
    p.reset(false);
    p.feed(text.data(), text.size());
    EXPECT_TRUE(p.failed()) << text;
    EXPECT_FALSE(p.error().empty()) << text;
    EXPECT_FALSE(p.keep_alive()) << text;
  }
}

TEST(HttpResponseParser, RefusesAnEndlessLine) {
  HttpResponseParser p;
  p.reset(false);
  const std::string chunk(4096, 'a');
  for (int i = 0; i < 8 && !p.failed(); ++i) p.feed(chunk.data(), chunk.size());
  EXPECT_TRUE(p.failed());
}

TEST(HttpResponseParser, CloseMidResponseIsAnError) {
  for (const std::string& text : {std::string(""), std::string("HTTP/1.1 200 OK\r\nContent-"),
                                  std::string("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"),
                                  std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")}) {
    HttpResponseParser p;
    p.reset(false);
    p.feed(text.data(), text.size());
    p.finish_on_close();
    EXPECT_TRUE(p.failed()) << text;
  }
}

}  // namespace
}  // namespace sluice
