#include "compiler/passes/sub_byte_packing.h"

#include <vector>

#include "compiler/passes/test_util.h"
#include "compiler/tooling/random_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/shape_util.h"

namespace aot {
namespace {

using ::testing::HasSubstr;
using testing_util::EvaluateModule;
using testing_util::ExpectWellFormed;
using testing_util::Parse;

// `value` as the packed bytes of `abi` (the runtime's relayout), a u8 array.
Literal PackedLiteral(const Literal& value, const Shape& abi) {
  const ShapeProto proto = abi.ToProto();
  const int64_t bytes = runtime_shape::ByteSize(proto);
  Literal out(Shape(U8, {bytes}));
  runtime_shape::LogicalToPhysical(proto, value.raw().data(), out.raw_data());
  return out;
}

// `value` with each leaf `abi` packs replaced by its packed bytes.
Literal PackedArgument(const Literal& value, const Shape& abi) {
  if (abi.IsArray()) return abi.element_size_in_bits() != 0 ? PackedLiteral(value, abi) : value;
  std::vector<Literal> elements;
  for (size_t i = 0; i < abi.tuple_shapes().size(); ++i) {
    elements.push_back(PackedArgument(value.tuple_element(i), abi.tuple_shapes(i)));
  }
  return Literal::Tuple(std::move(elements));
}

Literal UnpackedLiteral(const Literal& packed, const Shape& abi) {
  Shape logical = abi;
  logical.ClearLayout();
  Literal out(logical);
  runtime_shape::PhysicalToLogical(abi.ToProto(), packed.raw().data(), out.raw_data());
  return out;
}

// Lowers `text`, then runs the original module on seeded values and the
// lowered one on their packed bytes: the lowered result, unpacked, is the
// original's, bit for bit.
void ExpectLowersKeepingValues(absl::string_view text) {
  SCOPED_TRACE(text);
  std::unique_ptr<HloModule> original = Parse(text);
  ASSERT_NE(original, nullptr);
  std::unique_ptr<HloModule> lowered = Parse(text);
  const ProgramShape abi = original->EntryProgramShape();
  absl::StatusOr<bool> changed = LowerSubBytePacking(lowered.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  ExpectWellFormed(*lowered);
  const ProgramShape buffers = *lowered->config().entry_computation_layout;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    std::vector<Literal> args, packed_args;
    for (size_t i = 0; i < abi.parameters.size(); ++i) {
      Shape logical = abi.parameters[i];
      logical.ClearLayout();
      args.push_back(RandomLiteral(logical, seed * 31 + i));
      packed_args.push_back(PackedArgument(args.back(), abi.parameters[i]));
      EXPECT_TRUE(packed_args.back().shape().Compatible(buffers.parameters[i]))
          << packed_args.back().shape().ToString() << " vs " << buffers.parameters[i].ToString();
    }
    absl::StatusOr<Literal> want = EvaluateModule(*original, args);
    ASSERT_TRUE(want.ok()) << want.status();
    absl::StatusOr<Literal> got = EvaluateModule(*lowered, packed_args);
    ASSERT_TRUE(got.ok()) << got.status();
    std::vector<const Literal*> want_leaves = want->Leaves(), got_leaves = got->Leaves();
    std::vector<Shape> abi_leaves = abi.result.FlattenLeaves();
    ASSERT_EQ(want_leaves.size(), got_leaves.size());
    for (size_t i = 0; i < want_leaves.size(); ++i) {
      if (abi_leaves[i].element_size_in_bits() == 0) {
        EXPECT_EQ(got_leaves[i]->raw(), want_leaves[i]->raw()) << "leaf " << i;
        continue;
      }
      EXPECT_EQ(got_leaves[i]->shape().ToString(), buffers.result.FlattenLeaves()[i].ToString());
      EXPECT_EQ(UnpackedLiteral(*got_leaves[i], abi_leaves[i]).raw(), want_leaves[i]->raw())
          << "leaf " << i;
    }
  }
}

TEST(SubBytePackingTest, PackedParametersAndResultsKeepTheirValues) {
  // s4, two per byte, an odd count: the last byte's low bits are padding.
  ExpectLowersKeepingValues(R"(
HloModule int4
ENTRY e {
  w = s4[3,5]{1,0:E(4)} parameter(0)
  x = s8[3,5] parameter(1)
  c = s8[3,5] convert(w)
  ROOT r = s4[3,5]{1,0:E(4)} add(w, w)
})");
  // A column-major u2 (packed in physical order), an s1 and a tuple result
  // mixing packed and unpacked leaves.
  ExpectLowersKeepingValues(R"(
HloModule mixed
ENTRY e {
  a = u2[3,7]{0,1:E(2)} parameter(0)
  b = s1[9]{0:E(1)} parameter(1)
  wide = u8[3,7] convert(a)
  m = u2[3,7] maximum(a, a)
  inner = (u2[3,7], s1[9]) tuple(m, b)
  ROOT t = (u8[3,7], (u2[3,7]{0,1:E(2)}, s1[9]{0:E(1)})) tuple(wide, inner)
})");
  // Packed leaves of nested tuple parameters.
  ExpectLowersKeepingValues(R"(
HloModule tuples
ENTRY e {
  p = (s4[5]{0:E(4)}, (f32[3], u2[6]{0:E(2)})) parameter(0)
  a = s4[5] get-tuple-element(p), index=0
  inner = (f32[3], u2[6]) get-tuple-element(p), index=1
  f = f32[3] get-tuple-element(inner), index=0
  b = u2[6] get-tuple-element(inner), index=1
  wide = s8[5] convert(a)
  ROOT t = (s8[5], f32[3], u2[6]{0:E(2)}, (s4[5]{0:E(4)}, (f32[3], u2[6]{0:E(2)}))) tuple(wide, f, b, p)
})");
  // A parameter that is the result.
  ExpectLowersKeepingValues(R"(
HloModule identity
ENTRY e {
  ROOT p = u4[5]{0:E(4)} parameter(0)
})");
  // f4e2m1fn: every code decodes to its value and encodes back (-0 and
  // the subnormal 0.5 included), in and out.
  ExpectLowersKeepingValues(R"(
HloModule fp4
ENTRY e {
  a = f4e2m1fn[2,9]{1,0:E(4)} parameter(0)
  f = f32[2,9] convert(a)
  n = f4e2m1fn[2,9] negate(a)
  ROOT t = (f32[2,9], f4e2m1fn[2,9]{0,1:E(4)}, f4e2m1fn[2,9]{1,0:E(4)}) tuple(f, n, a)
})");
}

// All sixteen codes of f4e2m1fn through an unpacked and repacked identity:
// the bytes come back unchanged.
TEST(SubBytePackingTest, EveryFp4CodeRoundTrips) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule codes
ENTRY e {
  ROOT p = f4e2m1fn[16]{0:E(4)} parameter(0)
})");
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(LowerSubBytePacking(m.get()).ok());
  Literal bytes(Shape(U8, {8}));
  for (int i = 0; i < 8; ++i) bytes.raw_data()[i] = static_cast<uint8_t>(i * 0x22 + 0x01);
  std::vector<Literal> args;
  args.push_back(bytes);
  absl::StatusOr<Literal> out = EvaluateModule(*m, args);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->raw(), bytes.raw());
}

TEST(SubBytePackingTest, UnpackedModulesAreLeftAlone) {
  std::unique_ptr<HloModule> m = Parse(R"(
HloModule plain
ENTRY e {
  p = s4[4] parameter(0)
  ROOT n = s4[4] negate(p)
})");
  ASSERT_NE(m, nullptr);
  const std::string before = m->ToString();
  absl::StatusOr<bool> changed = LowerSubBytePacking(m.get());
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(m->ToString(), before);
}

}  // namespace
}  // namespace aot
