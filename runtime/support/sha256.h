#ifndef AOT_RUNTIME_SUPPORT_SHA256_H_
#define AOT_RUNTIME_SUPPORT_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

namespace aot {

// SHA-256 (FIPS 180-4), incremental. Used for golden manifests, module and
// schema fingerprints.
class Sha256 {
 public:
  Sha256();
  void Update(absl::string_view data);
  // Finishes the hash; the object must not be updated afterwards.
  std::array<uint8_t, 32> Digest();
  // Lower-case hex of Digest().
  std::string HexDigest();

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_;
  size_t buffer_size_ = 0;
  uint64_t total_bytes_ = 0;
};

// Hex SHA-256 of `data`.
std::string Sha256Hex(absl::string_view data);

}  // namespace aot

#endif  // AOT_RUNTIME_SUPPORT_SHA256_H_
