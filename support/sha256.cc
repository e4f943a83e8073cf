#include "support/sha256.h"

#include "absl/strings/escaping.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA256.h"

namespace aot {

Sha256::Sha256() : impl_(std::make_unique<llvm::SHA256>()) {}
Sha256::~Sha256() = default;

void Sha256::Update(absl::string_view data) {
  impl_->update(llvm::StringRef(data.data(), data.size()));
}

std::array<uint8_t, 32> Sha256::Digest() { return impl_->final(); }

std::string Sha256::HexDigest() {
  std::array<uint8_t, 32> digest = Digest();
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

std::string Sha256Hex(absl::string_view data) {
  Sha256 hash;
  hash.Update(data);
  return hash.HexDigest();
}

}  // namespace aot
