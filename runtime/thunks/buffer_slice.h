#ifndef AOT_RUNTIME_THUNKS_BUFFER_SLICE_H_
#define AOT_RUNTIME_THUNKS_BUFFER_SLICE_H_

#include <cstdint>

#include "proto/executable.pb.h"

namespace aot {

// In-memory form of BufferSliceProto.
struct BufferSlice {
  int64_t allocation_index = 0;
  int64_t offset = 0;
  int64_t size = 0;

  static BufferSlice FromProto(const BufferSliceProto& proto) {
    return BufferSlice{proto.allocation_index(), proto.offset(), proto.size()};
  }
  BufferSliceProto ToProto() const {
    BufferSliceProto proto;
    proto.set_allocation_index(allocation_index);
    proto.set_offset(offset);
    proto.set_size(size);
    return proto;
  }
  bool operator==(const BufferSlice&) const = default;
};

}  // namespace aot

#endif  // AOT_RUNTIME_THUNKS_BUFFER_SLICE_H_
