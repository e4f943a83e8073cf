#ifndef AOT_RUNTIME_TESTING_EXECUTABLE_BUILDER_H_
#define AOT_RUNTIME_TESTING_EXECUTABLE_BUILDER_H_

// Test-only helpers for hand-building small executables and running them on
// the host platform (the thunk tests in runtime/thunks/).

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/executable.pb.h"
#include "runtime/executable/executable.h"
#include "runtime/platform/platform.h"
#include "runtime/shape_util.h"

namespace aot::testing {

// A small builder for executables in tests.
class Builder {
 public:
  int Allocation(int64_t size, BufferAllocationProto::Kind kind, int parameter = -1) {
    BufferAllocationProto* a = proto_.add_buffer_allocations();
    int index = proto_.buffer_allocations_size() - 1;
    a->set_index(index);
    a->set_size(size);
    a->set_kind(kind);
    if (parameter >= 0) a->set_parameter_number(parameter);
    return index;
  }
  int Parameter(const ShapeProto& shape) {
    int number = proto_.parameters_size();
    int64_t bytes = runtime_shape::ByteSize(shape);
    int alloc = Allocation(bytes, BufferAllocationProto::PARAMETER, number);
    EntryParameterProto* p = proto_.add_parameters();
    p->set_parameter_number(number);
    *p->mutable_shape() = shape;
    *p->mutable_slice() = Slice(alloc, 0, bytes);
    return alloc;
  }
  void Result(const std::vector<std::pair<ShapeProto, BufferSliceProto>>& leaves) {
    EntryResultProto* r = proto_.mutable_result();
    if (leaves.size() == 1) {
      *r->mutable_shape() = leaves[0].first;
    } else {
      r->mutable_shape()->set_element_type(TUPLE);
      for (const auto& [shape, slice] : leaves) *r->mutable_shape()->add_tuple_shapes() = shape;
    }
    for (const auto& [shape, slice] : leaves) {
      OutputLeafProto* leaf = r->add_leaves();
      *leaf->mutable_shape() = shape;
      *leaf->mutable_slice() = slice;
    }
  }
  ThunkProto* Thunk(absl::string_view name) {
    ThunkProto* t = proto_.add_thunks();
    t->mutable_info()->set_name(std::string(name));
    return t;
  }
  // Participants (replica r, partition p) on device r * partitions + p.
  void DeviceAssignment(int64_t replicas, int64_t partitions = 1) {
    DeviceAssignmentProto* d = proto_.mutable_device_assignment();
    d->set_replica_count(replicas);
    d->set_partition_count(partitions);
    d->clear_device_ids();
    for (int64_t i = 0; i < replicas * partitions; ++i) d->add_device_ids(i);
  }
  static BufferSliceProto Slice(int64_t alloc, int64_t offset, int64_t size) {
    BufferSliceProto s;
    s.set_allocation_index(alloc);
    s.set_offset(offset);
    s.set_size(size);
    return s;
  }
  ExecutableProto Build() {
    proto_.mutable_capability()->mutable_host()->set_isa_level(X86_64_V2);
    proto_.mutable_abi_version()->set_runtime_abi_version(1);
    return proto_;
  }
  // For a CUDA device of compute capability major.minor (the recording
  // double is 9.0).
  ExecutableProto BuildForCuda(int major = 9, int minor = 0) {
    proto_.mutable_capability()->mutable_cuda()->set_major(major);
    proto_.mutable_capability()->mutable_cuda()->set_minor(minor);
    proto_.mutable_abi_version()->set_runtime_abi_version(1);
    return proto_;
  }

 private:
  ExecutableProto proto_;
};

ShapeProto Shape(PrimitiveType type, std::vector<int64_t> dims);

// An f32 convolution for thunk tests: input [N=1, C=2, 4, 4] stored NHWC,
// filter [O=3, C=2, 3, 3] stored (O, S, C), stride 2, padding 1 -> output
// [1, 3, 2, 2] stored NCHW (128, 216 and 48 bytes).
inline ConvolutionParams StridedConvolution() {
  ConvolutionParams p;
  p.element_type = F32;
  p.input_dims = {1, 2, 4, 4};
  p.input_strides = {32, 1, 8, 2};
  p.filter_dims = {3, 2, 3, 3};
  p.filter_strides = {18, 1, 6, 2};
  p.output_dims = {1, 3, 2, 2};
  p.output_strides = {12, 4, 2, 1};
  p.window_strides = {2, 2};
  p.padding = {1, 1};
  p.dilations = {1, 1};
  p.feature_group_count = 1;
  return p;
}

template <typename T>
absl::Span<const uint8_t> Bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Loads `proto` with a host client; fails the current test (and returns
// null) when it does not load, and checks that every thunk round-trips
// through ToProto unchanged.
std::unique_ptr<Executable> Load(const ExecutableProto& proto);

}  // namespace aot::testing

#endif  // AOT_RUNTIME_TESTING_EXECUTABLE_BUILDER_H_
