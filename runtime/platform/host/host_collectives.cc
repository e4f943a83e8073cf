#include "runtime/platform/host/host_collectives.h"

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "runtime/shape_util.h"
#include "support/float16.h"
#include "support/rendezvous.h"
#include "support/status_macros.h"

namespace aot {
namespace {

// What a member brings to a meeting: its buffers' addresses.
struct Buffers {
  std::vector<const char*> sources;
  std::vector<char*> destinations;
};

template <typename T>
T Combine(ReductionOp kind, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (kind) {
      case ReductionOp::kSum:
        return a + b;
      case ReductionOp::kProduct:
        return a * b;
      case ReductionOp::kMin:
        return std::isnan(a) ? a : std::isnan(b) ? b : (b < a ? b : a);
      case ReductionOp::kMax:
        return std::isnan(a) ? a : std::isnan(b) ? b : (b > a ? b : a);
    }
  } else {
    using U = std::make_unsigned_t<T>;  // wrapping arithmetic
    switch (kind) {
      case ReductionOp::kSum:
        return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      case ReductionOp::kProduct:
        return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      case ReductionOp::kMin:
        return b < a ? b : a;
      case ReductionOp::kMax:
        return b > a ? b : a;
    }
  }
  return a;
}

// acc[i] = acc[i] (op) in[i] for `count` elements of `type`.
absl::Status CombineInto(PrimitiveType type, ReductionOp kind, char* acc, const char* in,
                         int64_t count) {
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    for (int64_t i = 0; i < count; ++i) {
      T a, b;
      std::memcpy(&a, acc + i * sizeof(T), sizeof(T));
      std::memcpy(&b, in + i * sizeof(T), sizeof(T));
      a = Combine<T>(kind, a, b);
      std::memcpy(acc + i * sizeof(T), &a, sizeof(T));
    }
    return absl::OkStatus();
  };
  auto half = [&](float (*to_float)(uint16_t), uint16_t (*from_float)(float)) {
    for (int64_t i = 0; i < count; ++i) {
      uint16_t a, b;
      std::memcpy(&a, acc + 2 * i, 2);
      std::memcpy(&b, in + 2 * i, 2);
      a = from_float(Combine<float>(kind, to_float(a), to_float(b)));
      std::memcpy(acc + 2 * i, &a, 2);
    }
    return absl::OkStatus();
  };
  switch (type) {
    case PRED:
      for (int64_t i = 0; i < count; ++i) {
        const bool a = acc[i] != 0, b = in[i] != 0;
        const bool any = kind == ReductionOp::kSum || kind == ReductionOp::kMax;
        acc[i] = any ? (a || b) : (a && b);
      }
      return absl::OkStatus();
    case S8:
      return typed(int8_t{});
    case S16:
      return typed(int16_t{});
    case S32:
      return typed(int32_t{});
    case S64:
      return typed(int64_t{});
    case U8:
      return typed(uint8_t{});
    case U16:
      return typed(uint16_t{});
    case U32:
      return typed(uint32_t{});
    case U64:
      return typed(uint64_t{});
    case F32:
      return typed(float{});
    case F64:
      return typed(double{});
    case F16:
      return half(HalfBitsToFloat, FloatToHalfBits);
    case BF16:
      return half(Bf16BitsToFloat, FloatToBf16Bits);
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("no reduction for element type ", PrimitiveType_Name(type)));
  }
}

class HostCollectiveBackend : public CollectiveBackend {
 public:
  explicit HostCollectiveBackend(absl::Duration timeout) : rendezvous_(timeout), done_(timeout) {}

  absl::Status AllReduce(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t count, ReductionOp reduction) override {
    return Meet(call, Of(src, dst), [&](const std::vector<Buffers>& all, int64_t) {
      return Reduce(call, all, 0, dst, count, reduction);
    });
  }

  absl::Status AllGather(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t bytes) override {
    return Meet(call, Of(src, dst), [&](const std::vector<Buffers>& all, int64_t) {
      for (size_t j = 0; j < all.size(); ++j) {
        std::memcpy(static_cast<char*>(dst.ptr) + j * bytes, all[j].sources[0], bytes);
      }
      return absl::OkStatus();
    });
  }

  absl::Status ReduceScatter(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                             int64_t count, ReductionOp reduction) override {
    return Meet(call, Of(src, dst), [&](const std::vector<Buffers>& all, int64_t rank) {
      return Reduce(call, all, rank * count * runtime_shape::ElementBytes(call.element_type), dst,
                    count, reduction);
    });
  }

  absl::Status AllToAll(const CollectiveCall& call, absl::Span<const DeviceMemory> src,
                        absl::Span<const DeviceMemory> dst, int64_t bytes) override {
    Buffers mine;
    for (const DeviceMemory& s : src) mine.sources.push_back(static_cast<const char*>(s.ptr));
    for (const DeviceMemory& d : dst) mine.destinations.push_back(static_cast<char*>(d.ptr));
    return Meet(call, std::move(mine), [&](const std::vector<Buffers>& all, int64_t rank) {
      for (size_t i = 0; i < all.size(); ++i) {
        std::memcpy(dst[i].ptr, all[i].sources[rank], bytes);
      }
      return absl::OkStatus();
    });
  }

  absl::Status CollectivePermute(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                                 int64_t bytes, std::optional<int64_t> send_to,
                                 std::optional<int64_t> receive_from) override {
    return Meet(call, Of(src, dst), [&](const std::vector<Buffers>& all, int64_t) {
      if (!receive_from) return absl::OkStatus();
      for (size_t j = 0; j < call.group.size(); ++j) {
        if (call.group[j] == *receive_from) {
          std::memcpy(dst.ptr, all[j].sources[0], bytes);
          return absl::OkStatus();
        }
      }
      return absl::InternalError(absl::StrCat(call.op_name, ": source participant ", *receive_from,
                                              " is not in the group"));
    });
  }

  absl::Status Broadcast(const CollectiveCall& call, DeviceMemory src, DeviceMemory dst,
                         int64_t bytes) override {
    return Meet(call, Of(src, dst), [&](const std::vector<Buffers>& all, int64_t) {
      if (all[0].sources[0] != dst.ptr) std::memcpy(dst.ptr, all[0].sources[0], bytes);
      return absl::OkStatus();
    });
  }

  void Abort(absl::Status status) override {
    rendezvous_.Abort(status);
    done_.Abort(std::move(status));
  }

 private:
  static Buffers Of(DeviceMemory src, DeviceMemory dst) {
    return Buffers{{static_cast<const char*>(src.ptr)}, {static_cast<char*>(dst.ptr)}};
  }

  // dst = the members' sources at byte `offset`, folded in group order.
  static absl::Status Reduce(const CollectiveCall& call, const std::vector<Buffers>& all,
                             int64_t offset, DeviceMemory dst, int64_t count,
                             ReductionOp reduction) {
    const int64_t bytes = count * runtime_shape::ElementBytes(call.element_type);
    // Fold into a scratch copy: dst may be this member's own source.
    std::vector<char> acc(all[0].sources[0] + offset, all[0].sources[0] + offset + bytes);
    for (size_t j = 1; j < all.size(); ++j) {
      AOT_RETURN_IF_ERROR(
          CombineInto(call.element_type, reduction, acc.data(), all[j].sources[0] + offset, count));
    }
    std::memcpy(dst.ptr, acc.data(), bytes);
    return absl::OkStatus();
  }

  // Meets the group with `mine`, runs `work` (every member's buffers, this
  // member's rank) and meets again before returning, so that no member
  // overwrites a source a peer still reads.
  absl::Status Meet(const CollectiveCall& call, Buffers mine,
                    absl::FunctionRef<absl::Status(const std::vector<Buffers>&, int64_t)> work) {
    if (call.stream != nullptr) AOT_RETURN_IF_ERROR(call.stream->Synchronize());
    const int64_t rank = call.rank();
    const std::string key =
        absl::StrCat(call.sequence, ":", call.group.empty() ? 0 : call.group[0]);
    AOT_ASSIGN_OR_RETURN(
        std::vector<Buffers> all,
        rendezvous_.Exchange(key, call.group, call.participant, std::move(mine), call.op_name));
    absl::Status status = work(all, rank);
    auto done = done_.Exchange(key, call.group, call.participant, status.ok(), call.op_name);
    AOT_RETURN_IF_ERROR(status);
    return done.status();
  }

  Rendezvous<Buffers> rendezvous_;
  Rendezvous<bool> done_;  // the second meeting
};

}  // namespace

std::unique_ptr<CollectiveBackend> CreateHostCollectiveBackend(absl::Duration timeout) {
  return std::make_unique<HostCollectiveBackend>(timeout);
}

}  // namespace aot
