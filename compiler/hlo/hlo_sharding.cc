#include "compiler/hlo/hlo_sharding.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/status_macros.h"

namespace aot {

std::vector<int64_t> IotaDevices(const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& perm) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<int64_t> out(n);
  if (perm.empty()) {
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  // Element at transposed index t is the source element at the index whose
  // dimension perm[i] is t[i].
  const size_t rank = dims.size();
  std::vector<int64_t> tdims(rank), strides(rank, 1);
  for (size_t i = 0; i < rank; ++i) tdims[i] = dims[perm[i]];
  for (int64_t i = static_cast<int64_t>(rank) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  std::vector<int64_t> t(rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t source = 0;
    for (size_t i = 0; i < rank; ++i) source += t[i] * strides[perm[i]];
    out[k] = source;
    for (int64_t i = static_cast<int64_t>(rank) - 1; i >= 0; --i) {
      if (++t[i] < tdims[i]) break;
      t[i] = 0;
    }
  }
  return out;
}

// Hand-written: XLA's sharding syntax is a small grammar of its own inside
// the HLO text, kept verbatim by the HLO parser.
class ShardingParser {
 public:
  explicit ShardingParser(absl::string_view text) : s_(text) {}

  absl::StatusOr<HloSharding> Parse() {
    HloSharding sharding;
    AOT_RETURN_IF_ERROR(One(&sharding));
    Skip();
    if (pos_ != s_.size()) return Error("unexpected text after the sharding");
    return sharding;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("sharding '", s_, "': ", what, " at offset ", pos_));
  }
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Eat(absl::string_view token) {
    Skip();
    if (s_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  bool Int(int64_t* v) {
    Skip();
    size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return absl::SimpleAtoi(s_.substr(start, pos_ - start), v);
  }
  absl::Status IntList(char open, char close, std::vector<int64_t>* out) {
    if (!Eat(std::string(1, open)))
      return Error(absl::StrCat("expected '", std::string(1, open), "'"));
    if (Eat(std::string(1, close))) return absl::OkStatus();
    do {
      int64_t v;
      if (!Int(&v)) return Error("expected an integer");
      out->push_back(v);
    } while (Eat(","));
    if (!Eat(std::string(1, close))) {
      return Error(absl::StrCat("expected ',' or '", std::string(1, close), "'"));
    }
    return absl::OkStatus();
  }
  // Skips a balanced {...} (metadata).
  absl::Status SkipBraces() {
    Skip();
    if (pos_ >= s_.size() || s_[pos_] != '{') return Error("expected '{'");
    int depth = 0;
    bool in_string = false;
    for (; pos_ < s_.size(); ++pos_) {
      char c = s_[pos_];
      if (in_string) {
        if (c == '\\')
          ++pos_;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"') in_string = true;
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0) {
        ++pos_;
        return absl::OkStatus();
      }
    }
    return Error("unterminated '{'");
  }

  absl::Status One(HloSharding* out) {
    if (++depth_ > 64) return Error("nesting deeper than 64 levels");
    if (!Eat("{")) return Error("expected '{'");
    Skip();
    if (pos_ < s_.size() && s_[pos_] == '{') {
      out->kind_ = HloSharding::Kind::kTuple;
      do {
        HloSharding element;
        AOT_RETURN_IF_ERROR(One(&element));
        out->tuple_elements_.push_back(std::move(element));
      } while (Eat(","));
      if (!Eat("}")) return Error("expected ',' or '}' in a tuple sharding");
      --depth_;
      return absl::OkStatus();
    }
    if (Eat("}")) {
      // {} is the empty tuple's sharding.
      out->kind_ = HloSharding::Kind::kTuple;
      --depth_;
      return absl::OkStatus();
    }
    bool have_kind = false;
    while (!Eat("}")) {
      Skip();
      if (pos_ >= s_.size()) return Error("expected '}'");
      if (Eat("replicated")) {
        out->kind_ = HloSharding::Kind::kReplicated;
        have_kind = true;
      } else if (Eat("manual")) {
        out->kind_ = HloSharding::Kind::kManual;
        have_kind = true;
      } else if (Eat("unknown")) {
        out->kind_ = HloSharding::Kind::kUnknown;
        have_kind = true;
      } else if (Eat("maximal")) {
        if (!Eat("device=") || !Int(&out->device_)) return Error("expected device=N");
        out->kind_ = HloSharding::Kind::kMaximal;
        have_kind = true;
      } else if (Eat("devices=")) {
        out->kind_ = HloSharding::Kind::kTiled;
        have_kind = true;
        absl::Status st = IntList('[', ']', &out->tile_dims_);
        AOT_RETURN_IF_ERROR(st);
        if (Eat("<=")) {
          out->iota_ = true;
          st = IntList('[', ']', &out->iota_dims_);
          AOT_RETURN_IF_ERROR(st);
          if (Eat("T")) {
            st = IntList('(', ')', &out->iota_perm_);
            AOT_RETURN_IF_ERROR(st);
            if (out->iota_perm_.size() != out->iota_dims_.size()) {
              return Error("the transpose names one dimension per iota dimension");
            }
            std::vector<int64_t> sorted = out->iota_perm_;
            std::sort(sorted.begin(), sorted.end());
            for (size_t i = 0; i < sorted.size(); ++i) {
              if (sorted[i] != static_cast<int64_t>(i))
                return Error("the transpose is not a permutation");
            }
          }
          int64_t n = 1;
          for (int64_t d : out->iota_dims_) {
            if (d <= 0 || d > (int64_t{1} << 20)) return Error("iota dimension out of range");
            n *= d;
            if (n > (int64_t{1} << 20)) return Error("more than 2^20 devices");
          }
          out->devices_ = IotaDevices(out->iota_dims_, out->iota_perm_);
        } else {
          do {
            int64_t v;
            if (!Int(&v)) return Error("expected a device id");
            out->devices_.push_back(v);
            if (out->devices_.size() > (size_t{1} << 20)) return Error("more than 2^20 devices");
          } while (Eat(","));
        }
      } else if (Eat("last_tile_dim_replicate")) {
        out->replicate_on_last_tile_dim_ = true;
      } else if (Eat("last_tile_dims=")) {
        if (!Eat("{")) return Error("expected '{' after last_tile_dims=");
        do {
          if (Eat("manual")) {
            out->subgroups_.push_back(HloSharding::Subgroup::kManual);
          } else if (Eat("replicated")) {
            out->subgroups_.push_back(HloSharding::Subgroup::kReplicated);
          } else {
            return Error("expected manual or replicated in last_tile_dims");
          }
        } while (Eat(","));
        if (!Eat("}")) return Error("expected '}' after last_tile_dims");
      } else if (Eat("metadata=")) {
        AOT_RETURN_IF_ERROR(SkipBraces());
      } else if (Eat("shard_as") || Eat("shard_like")) {
        int64_t ignored;
        if (!Int(&ignored)) return Error("expected a group id");
      } else {
        return Error("unknown sharding item");
      }
    }
    if (!have_kind) return Error("no sharding kind (replicated, manual, maximal or devices=)");
    if (out->replicate_on_last_tile_dim_ && !out->subgroups_.empty()) {
      return Error("last_tile_dim_replicate and last_tile_dims together");
    }
    if (out->replicate_on_last_tile_dim_) {
      out->subgroups_ = {HloSharding::Subgroup::kReplicated};
    }
    if ((out->replicate_on_last_tile_dim_ || !out->subgroups_.empty()) &&
        out->kind_ != HloSharding::Kind::kTiled) {
      return Error("subgroup dimensions need a tiled sharding (devices=...)");
    }
    --depth_;
    return absl::OkStatus();
  }

  absl::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
};

absl::StatusOr<HloSharding> HloSharding::Parse(absl::string_view text) {
  return ShardingParser(text).Parse();
}

HloSharding HloSharding::Replicated() { return HloSharding(); }

HloSharding HloSharding::Tiled(std::vector<int64_t> tile_dims, std::vector<int64_t> devices,
                               bool replicate_last) {
  HloSharding s;
  int64_t data_tiles = 1;
  for (size_t i = 0; i + (replicate_last ? 1 : 0) < tile_dims.size(); ++i) {
    data_tiles *= tile_dims[i];
  }
  if (data_tiles == 1) return s;  // replicated
  s.kind_ = Kind::kTiled;
  s.tile_dims_ = std::move(tile_dims);
  s.devices_ = std::move(devices);
  s.replicate_on_last_tile_dim_ = replicate_last;
  if (replicate_last) s.subgroups_ = {Subgroup::kReplicated};
  bool iota = true;
  for (size_t i = 0; i < s.devices_.size(); ++i) iota &= s.devices_[i] == static_cast<int64_t>(i);
  if (iota) {
    s.iota_ = true;
    s.iota_dims_ = {static_cast<int64_t>(s.devices_.size())};
  }
  return s;
}

HloSharding HloSharding::Tuple(std::vector<HloSharding> elements) {
  HloSharding s;
  s.kind_ = Kind::kTuple;
  s.tuple_elements_ = std::move(elements);
  return s;
}

int64_t HloSharding::DataTileCount() const {
  if (kind_ != Kind::kTiled) return 1;
  int64_t n = 1;
  for (int64_t i = 0; i < DataRank(); ++i) n *= tile_dims_[i];
  return n;
}

int64_t HloSharding::DataRank() const {
  return static_cast<int64_t>(tile_dims_.size() - std::min(tile_dims_.size(), subgroups_.size()));
}

int64_t HloSharding::ReplicationFactor() const {
  int64_t r = 1;
  for (size_t i = DataRank(); i < tile_dims_.size(); ++i) r *= tile_dims_[i];
  return r;
}

int64_t HloSharding::DeviceCount() const {
  if (kind_ == Kind::kTiled) return static_cast<int64_t>(devices_.size());
  return kind_ == Kind::kMaximal ? 1 : 0;
}

std::string HloSharding::ToString() const {
  switch (kind_) {
    case Kind::kReplicated:
      return "{replicated}";
    case Kind::kManual:
      return "{manual}";
    case Kind::kUnknown:
      return "{unknown}";
    case Kind::kMaximal:
      return absl::StrCat("{maximal device=", device_, "}");
    case Kind::kTuple: {
      std::vector<std::string> parts;
      for (const HloSharding& e : tuple_elements_) parts.push_back(e.ToString());
      return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
    }
    case Kind::kTiled:
      break;
  }
  std::string out = absl::StrCat("{devices=[", absl::StrJoin(tile_dims_, ","), "]");
  if (iota_) {
    absl::StrAppend(&out, "<=[", absl::StrJoin(iota_dims_, ","), "]");
    if (!iota_perm_.empty()) absl::StrAppend(&out, "T(", absl::StrJoin(iota_perm_, ","), ")");
  } else {
    absl::StrAppend(&out, absl::StrJoin(devices_, ","));
  }
  if (replicate_on_last_tile_dim_) {
    absl::StrAppend(&out, " last_tile_dim_replicate");
  } else if (!subgroups_.empty()) {
    std::vector<std::string> names;
    for (Subgroup g : subgroups_) names.push_back(g == Subgroup::kManual ? "manual" : "replicated");
    absl::StrAppend(&out, " last_tile_dims={", absl::StrJoin(names, ", "), "}");
  }
  out.push_back('}');
  return out;
}

absl::Status HloSharding::Validate(const Shape& shape, int64_t num_devices) const {
  auto invalid = [&](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("sharding ", ToString(), " ", parts...));
  };
  switch (kind_) {
    case Kind::kReplicated:
    case Kind::kManual:
    case Kind::kUnknown:
      return absl::OkStatus();
    case Kind::kMaximal:
      if (device_ < 0 || device_ >= num_devices) {
        return invalid("names device ", device_, ", out of range for ", num_devices,
                       " partition(s)");
      }
      return absl::OkStatus();
    case Kind::kTuple: {
      if (!shape.IsTuple()) {
        return invalid("is a tuple sharding of ", tuple_elements_.size(),
                       " elements for the array ", shape.ToString(false));
      }
      const std::vector<Shape> leaves = shape.FlattenLeaves();
      if (leaves.size() != tuple_elements_.size()) {
        return invalid("has ", tuple_elements_.size(), " elements for ", leaves.size(),
                       " leaves of ", shape.ToString(false));
      }
      for (size_t i = 0; i < leaves.size(); ++i) {
        absl::Status st = tuple_elements_[i].Validate(leaves[i], num_devices);
        if (!st.ok()) {
          return absl::InvalidArgumentError(absl::StrCat("leaf ", i, ": ", st.message()));
        }
      }
      return absl::OkStatus();
    }
    case Kind::kTiled:
      break;
  }
  if (shape.IsTuple()) {
    return invalid("tiles an array, but the value is the tuple ", shape.ToString(false));
  }
  int64_t product = 1;
  for (int64_t d : tile_dims_) {
    if (d <= 0) return invalid("has a tile dimension of ", d);
    product *= d;
  }
  if (product != static_cast<int64_t>(devices_.size())) {
    return invalid("has a tile assignment of ", product, " tiles (", absl::StrJoin(tile_dims_, "x"),
                   ") but lists ", devices_.size(), " devices");
  }
  const int64_t rank = static_cast<int64_t>(shape.dimensions().size());
  const int64_t want = rank + static_cast<int64_t>(subgroups_.size());
  if (static_cast<int64_t>(tile_dims_.size()) != want) {
    return invalid("has ", tile_dims_.size(), " tile dimensions for the rank-", rank, " ",
                   shape.ToString(false),
                   subgroups_.empty()
                       ? std::string()
                       : absl::StrCat(" and ", subgroups_.size(), " subgroup dimension(s)"),
                   " (expected ", want, ")");
  }
  std::set<int64_t> seen;
  for (int64_t d : devices_) {
    if (d < 0 || d >= num_devices) {
      return invalid("names device ", d, ", out of range for ", num_devices, " partition(s)");
    }
    if (!seen.insert(d).second) return invalid("names device ", d, " twice");
  }
  return absl::OkStatus();
}

std::optional<std::vector<int64_t>> HloSharding::TileIndexOf(int64_t device) const {
  auto it = std::find(devices_.begin(), devices_.end(), device);
  if (it == devices_.end()) return std::nullopt;
  int64_t linear = it - devices_.begin();
  std::vector<int64_t> index(tile_dims_.size());
  for (int64_t d = static_cast<int64_t>(tile_dims_.size()) - 1; d >= 0; --d) {
    index[d] = linear % tile_dims_[d];
    linear /= tile_dims_[d];
  }
  return index;
}

bool HloSharding::operator==(const HloSharding& other) const {
  return kind_ == other.kind_ && device_ == other.device_ && tile_dims_ == other.tile_dims_ &&
         devices_ == other.devices_ && subgroups_ == other.subgroups_ &&
         tuple_elements_ == other.tuple_elements_;
}

}  // namespace aot
