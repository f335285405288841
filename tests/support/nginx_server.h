#pragma once
// Debian's nginx for tests: a config written into a temp directory, listening on a free port on 127.0.0.1,
// serving files the test creates under root(); pid, error log and temp paths stay in the directory. It runs
// in the foreground as this process's child and is stopped (SIGTERM, then SIGKILL) on destruction.
// available() is false when nginx is not installed or did not start; tests then skip.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "support/temp_dir.h"

namespace sluice::testing {

// A port that was free a moment ago on 127.0.0.1 (the kernel's choice for port 0).
inline std::uint16_t free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  std::uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  ::close(fd);
  return port;
}

// True once something accepts TCP connections on 127.0.0.1:port.
inline bool loopback_accepts(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

class NginxServer {
 public:
  explicit NginxServer(int workers = 1) {
    const std::string program = find_nginx();
    if (program.empty() || dir_.path().empty()) return;
    std::filesystem::create_directories(root());
    for (int attempt = 0; attempt < 3 && pid_ <= 0; ++attempt) start(program, workers);
  }
  ~NginxServer() { stop(); }
  NginxServer(const NginxServer&) = delete;
  NginxServer& operator=(const NginxServer&) = delete;

  bool available() const { return pid_ > 0; }
  std::uint16_t port() const { return port_; }
  std::string root() const { return dir_.file("www"); }
  // http://127.0.0.1:PORT/NAME
  std::string url(const std::string& name) const { return "http://127.0.0.1:" + std::to_string(port_) + "/" + name; }
  // Creates root()/name with `bytes` bytes; returns its URL.
  std::string serve_file(const std::string& name, std::size_t bytes) const {
    std::ofstream(root() + "/" + name, std::ios::binary) << std::string(bytes, 'x');
    return url(name);
  }

 private:
  static std::string find_nginx() {
    for (const char* p : {"/usr/sbin/nginx", "/usr/bin/nginx"}) {
      if (::access(p, X_OK) == 0) return p;
    }
    return "";
  }

  void start(const std::string& program, int workers) {
    port_ = free_loopback_port();
    const std::string d = dir_.path();
    std::ofstream conf(d + "/nginx.conf");
    conf << (::geteuid() == 0 ? "user root;\n" : "") << "worker_processes " << workers << ";\n"
         << "daemon off;\npid " << d << "/nginx.pid;\nerror_log " << d << "/error.log;\n"
         << "events { worker_connections 4096; }\n"
         << "http {\n  access_log off;\n  keepalive_requests 1000000;\n"
         << "  client_body_temp_path " << d << "/body;\n  proxy_temp_path " << d << "/proxy;\n"
         << "  fastcgi_temp_path " << d << "/fastcgi;\n  uwsgi_temp_path " << d << "/uwsgi;\n"
         << "  scgi_temp_path " << d << "/scgi;\n"
         << "  server {\n    listen 127.0.0.1:" << port_ << ";\n    root " << root() << ";\n"
         << "    location / { }\n    location /echo { return 200 \"echo\\n\"; }\n  }\n}\n";
    conf.close();
    const pid_t pid = ::fork();
    if (pid == 0) {
      const std::string conf_path = d + "/nginx.conf";
      ::execl(program.c_str(), program.c_str(), "-p", d.c_str(), "-c", conf_path.c_str(), "-e",
              (d + "/error.log").c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    if (pid < 0) return;
    pid_ = pid;
    for (int i = 0; i < 500; ++i) {  // up to 5 s
      if (loopback_accepts(port_)) return;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // exited: the port was taken, or a bad config
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop();
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 300; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) != 0) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  TempDir dir_;
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace sluice::testing
