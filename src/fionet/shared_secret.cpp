// The shared secret of sluice's client and servers: the file, the challenges and the proofs.
#include "fionet/shared_secret.h"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.h"

namespace sluice::fionet {

std::string read_secret_file(const std::string& path, const std::string& option) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw UserError(fmt::format("{}={}: cannot read the secret file: {}", option, path, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) throw UserError(fmt::format("{}={}: not a regular file", option, path));
  if ((st.st_mode & 077) != 0) {
    throw UserError(
        fmt::format("{}={}: the secret file is accessible by group or others (mode {:04o}); make it "
                    "private: chmod 600 {}",
                    option, path, st.st_mode & 07777, path));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw UserError(fmt::format("{}={}: cannot read the secret file", option, path));
  std::string secret = text.str();
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.empty()) throw UserError(fmt::format("{}={}: the secret file is empty", option, path));
  return secret;
}

Nonce random_nonce() {
  Nonce nonce{};
  std::size_t filled = 0;
  while (filled < nonce.size()) {
    const ssize_t n = ::getrandom(nonce.data() + filled, nonce.size() - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IoError(fmt::format("getrandom: {}", std::strerror(errno)), errno);
    }
    filled += static_cast<std::size_t>(n);
  }
  return nonce;
}

Proof secret_proof(const std::string& secret, ProofRole role, std::span<const std::uint8_t> nonce) {
  const std::string label =
      role == ProofRole::kClient ? "sluice fionet client proof v1" : "sluice fionet server proof v1";
  std::string message = label;
  message.push_back('\0');
  message.append(reinterpret_cast<const char*>(nonce.data()), nonce.size());
  Proof proof{};
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), proof.data(), &length);
  return proof;
}

bool proof_matches(std::span<const std::uint8_t> received, const Proof& expected) noexcept {
  return received.size() == expected.size() && CRYPTO_memcmp(received.data(), expected.data(), expected.size()) == 0;
}

}  // namespace sluice::fionet
