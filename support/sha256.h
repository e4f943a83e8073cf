#ifndef AOT_SUPPORT_SHA256_H_
#define AOT_SUPPORT_SHA256_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"

namespace llvm {
class SHA256;
}  // namespace llvm

namespace aot {

// SHA-256 (FIPS 180-4), incremental: LLVM's implementation (llvm::SHA256)
// behind the project's string-view interface, so no caller includes LLVM
// headers. Used for golden manifests, module and schema fingerprints and
// kernel payload digests.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(absl::string_view data);
  // Finishes the hash; the object must not be updated afterwards.
  std::array<uint8_t, 32> Digest();
  // Lower-case hex of Digest().
  std::string HexDigest();

 private:
  std::unique_ptr<llvm::SHA256> impl_;
};

// Hex SHA-256 of `data`.
std::string Sha256Hex(absl::string_view data);

}  // namespace aot

#endif  // AOT_SUPPORT_SHA256_H_
