// fio's SENDFILE: the verify state a server fetches from its client before the jobs run.
#include "fionet/verify_state_transfer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/error.h"
#include "fionet/bytes.h"
#include "fionet/trigger.h"
#include "run/verify_state.h"

namespace sluice::fionet {

std::vector<std::uint8_t> encode_sendfile_request(const std::string& path) {
  std::vector<std::uint8_t> out(kSendFileNameBytes, 0);
  put_text(out.data(), 0, kSendFileNameBytes, path);
  return out;
}

std::optional<std::string> decode_sendfile_request(const std::vector<std::uint8_t>& payload) {
  if (payload.empty()) return std::nullopt;
  const std::size_t size = std::min(payload.size(), kSendFileNameBytes);
  return std::string(get_text(payload.data(), 0, size));
}

std::vector<std::uint8_t> encode_sendfile_reply(const SendFileReply& reply) {
  std::vector<std::uint8_t> out(8 + (reply.error == 0 ? reply.data.size() : 0), 0);
  put_u32(out.data(), 0, reply.error == 0 ? static_cast<std::uint32_t>(reply.data.size()) : 0);
  put_u32(out.data(), 4, reply.error);
  if (reply.error == 0) std::copy(reply.data.begin(), reply.data.end(), out.begin() + 8);
  return out;
}

std::optional<SendFileReply> decode_sendfile_reply(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < 8) return std::nullopt;
  SendFileReply reply;
  const std::uint32_t size = get_u32(payload.data(), 0);
  reply.error = get_u32(payload.data(), 4);
  if (reply.error != 0) return reply;
  if (payload.size() - 8 < size) return std::nullopt;  // fewer bytes than the size says
  reply.data.assign(payload.begin() + 8, payload.begin() + 8 + size);
  return reply;
}

std::string refuse_requested_file(const std::string& path) {
  constexpr std::string_view kSuffix = "-verify.state";
  if (path.find('/') != std::string::npos || path.size() <= kSuffix.size() || !path.ends_with(kSuffix) ||
      path.starts_with(".")) {
    return "not a verify state file in the client's working directory (sluice's client sends only "
           "NAME-verify.state files from there; fio's sends any file a server names)";
  }
  return {};
}

SendFileReply read_requested_file(const std::string& path) {
  SendFileReply reply;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    reply.error = static_cast<std::uint32_t>(errno);
    if (fd >= 0) ::close(fd);
    return reply;
  }
  if (!S_ISREG(st.st_mode) || st.st_size > static_cast<off_t>(kMaxMessage - 8)) {
    reply.error = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
    ::close(fd);
    return reply;
  }
  reply.data.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < reply.data.size()) {
    const ssize_t n = ::read(fd, reply.data.data() + done, reply.data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      reply.error = n < 0 ? static_cast<std::uint32_t>(errno) : EIO;
      reply.data.clear();
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return reply;
}

bool loads_verify_state(const std::vector<JobSpec>& jobs) {
  for (const JobSpec& job : jobs) {
    if (job.verification.verify_state_load) return true;
  }
  return false;
}

namespace {

// Waits for the reply tagged `tag`; other messages go to io.other. The errno of a missing reply.
int await_reply(const SendFileIo& io, std::uint64_t tag, SendFileReply& reply) {
  const auto deadline = std::chrono::steady_clock::now() + kSendFileWait;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return ETIMEDOUT;
    const ReadResult r = io.read(left);
    if (r.status == ReadStatus::kTimeout) return ETIMEDOUT;
    if (r.status != ReadStatus::kOk) return ECONNRESET;
    if (r.message.op != static_cast<std::uint16_t>(Op::kSendFile) || r.message.tag != tag) {
      if (io.other) io.other(r.message);
      continue;
    }
    const auto decoded = decode_sendfile_reply(r.message.payload);
    if (!decoded) return EPROTO;
    reply = *decoded;
    return static_cast<int>(reply.error);
  }
}

}  // namespace

int fetch_verify_states(std::vector<JobSpec>& jobs, const std::string& server_name, const std::string& directory,
                        const SendFileIo& io, std::string& failure) {
  int index = 0;  // the clone's number in the run, as the runner's plan gives it (fio: thread_number - 1)
  std::uint64_t tag = 0x5e4df11e0000;
  for (JobSpec& job : jobs) {
    for (std::uint32_t clone = 0; clone < job.control.numjobs; ++clone, ++index) {
      if (!job.verification.verify_state_load) continue;
      const std::string asked = fio_verify_state_name(server_name, job.name, static_cast<std::uint64_t>(index));
      ++tag;
      SendFileReply reply;
      int error = io.send(Op::kSendFile, encode_sendfile_request(asked), tag) ? await_reply(io, tag, reply) : EPIPE;
      const std::string kept = verify_state_path(directory, job.name, index);
      if (error == 0) {
        std::ofstream out(kept, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(reply.data.data()), static_cast<std::streamsize>(reply.data.size()));
        out.close();
        if (!out) error = EIO;
      }
      if (error == 0) {  // checked now, as fio's server checks the header and checksum before the jobs start
        try {
          (void)load_verify_state(kept, job.name);
        } catch (const UserError& e) {
          std::string why = e.what();
          for (std::size_t at = why.find(kept); at != std::string::npos; at = why.find(kept))
            why.replace(at, kept.size(), asked);  // the client's name of the file, not this server's copy
          failure = "verify_state_load: the state the client sent is not usable: " + why;
          return EILSEQ;
        }
      }
      if (error != 0) {
        failure = fmt::format(
            "verify_state_load: failure on receiving state file {} from the client: {} (fio's client sends it from "
            "its working directory; it saves one there when a trigger stops a job)",
            asked, std::strerror(error));
        return error;
      }
      job.verification.verify_state_load_dir = directory;
    }
  }
  return 0;
}

}  // namespace sluice::fionet
