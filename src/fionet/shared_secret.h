#pragma once
// sluice's shared secret between a sluice client and sluice servers (not part of fio's protocol): each side
// proves it knows the secret by an HMAC-SHA256 over the other side's random challenge; the secret itself never
// crosses the wire. The exchange uses sluice-only opcodes (wire.h, Op::kSluiceHello...), sent only to a peer
// whose probe reply says it is sluice, so fio peers never see them.
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace sluice::fionet {

inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kProofBytes = 32;  // HMAC-SHA256
using Nonce = std::array<std::uint8_t, kNonceBytes>;
using Proof = std::array<std::uint8_t, kProofBytes>;

// Which side computes a proof (the two directions use different labels, so a proof cannot be sent back).
enum class ProofRole { kClient, kServer };

// Reads a secret file for `option` ("--server-secret"): a regular file, not readable or writable by group or
// others (as ssh requires of keys), not empty; a trailing newline is not part of the secret. Throws UserError
// naming the option, the file and what is wrong.
std::string read_secret_file(const std::string& path, const std::string& option);

// kNonceBytes from the kernel's random generator.
Nonce random_nonce();

// HMAC-SHA256(secret, label of role || nonce).
Proof secret_proof(const std::string& secret, ProofRole role, std::span<const std::uint8_t> nonce);

// Constant-time comparison of a received proof (any length) with the expected one.
bool proof_matches(std::span<const std::uint8_t> received, const Proof& expected) noexcept;

}  // namespace sluice::fionet
