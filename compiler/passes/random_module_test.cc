// Randomized differential test: random DAGs of elementwise, broadcast,
// transpose, reduce, dot and slice ops go through the whole pipeline; the
// result must verify, print/parse back, compute bitwise the same values as
// the original, and be the same text on a second run.
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/passes/hlo_pass.h"
#include "compiler/passes/test_util.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gtest/gtest.h"

namespace aot {
namespace {

struct Value {
  std::string name;
  std::string shape;  // "f32[4,6]"
};

class RandomModuleBuilder {
 public:
  explicit RandomModuleBuilder(uint64_t seed) : rng_(seed) {}

  std::string Build(int num_ops) {
    body_.clear();
    values_.clear();
    AddParam("p0", "f32[4,6]");
    AddParam("p1", "f32[4,6]");
    AddParam("p2", "f32[4]");
    AddParam("p3", "f32[6]");
    for (int i = 0; i < num_ops; ++i) AddRandomOp();
    // Root: every value nothing else reads (so that nothing is dead), as
    // a tuple, or that value alone.
    std::vector<std::string> names;
    std::vector<std::string> shapes;
    for (const Value& v : values_) {
      if (body_.find("%" + v.name + ")") != std::string::npos ||
          body_.find("%" + v.name + ",") != std::string::npos) {
        continue;
      }
      names.push_back("%" + v.name);
      shapes.push_back(v.shape);
    }
    std::string root;
    if (names.size() == 1) {
      root = absl::StrCat("  ROOT %out = ", shapes[0], " copy(", names[0], ")\n");
      result_ = shapes[0];
    } else {
      result_ = absl::StrCat("(", absl::StrJoin(shapes, ", "), ")");
      root = absl::StrCat("  ROOT %out = ", result_, " tuple(", absl::StrJoin(names, ", "), ")\n");
    }
    return absl::StrCat(R"(HloModule random

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

%max (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %m = f32[] maximum(%x, %y)
}

ENTRY %main (p0: f32[4,6], p1: f32[4,6], p2: f32[4], p3: f32[6]) -> )",
                        result_, " {\n", body_, root, "}\n");
  }

 private:
  int Pick(size_t n) { return static_cast<int>(rng_() % n); }

  void AddParam(const std::string& name, const std::string& shape) {
    absl::StrAppend(&body_, "  %", name, " = ", shape, " parameter(", values_.size(), ")\n");
    values_.push_back({name, shape});
  }

  // A random existing value of `shape`, or "" if none.
  std::string Find(const std::string& shape) {
    std::vector<const Value*> matches;
    for (const Value& v : values_) {
      if (v.shape == shape) matches.push_back(&v);
    }
    if (matches.empty()) return "";
    // Prefer recent values: more chains, more reuse.
    size_t n = matches.size();
    size_t i = n - 1 - std::min<size_t>(n - 1, Pick(std::min<size_t>(n, 5)));
    return "%" + matches[i]->name;
  }

  void Emit(const std::string& shape, const std::string& text) {
    const std::string name = absl::StrCat("v", counter_++);
    absl::StrAppend(&body_, "  %", name, " = ", shape, " ", text, "\n");
    values_.push_back({name, shape});
  }

  // An existing value of `shape` (one exists for every shape but
  // f32[6,4], which is made by a transpose when missing).
  std::string Need(const std::string& shape) {
    std::string v = Find(shape);
    if (!v.empty()) return v;
    Emit("f32[6,4]", absl::StrCat("transpose(", Need("f32[4,6]"), "), dimensions={1,0}"));
    return "%" + values_.back().name;
  }

  std::string ShapeOf(const std::string& ref) const {
    for (const Value& v : values_) {
      if ("%" + v.name == ref) return v.shape;
    }
    return "";
  }

  std::string NewScalar(const std::string& literal) {
    const std::string c = absl::StrCat("c", counter_++);
    absl::StrAppend(&body_, "  %", c, " = f32[] constant(", literal, ")\n");
    return "%" + c;
  }

  void AddRandomOp() {
    static const char* const kShapes[] = {"f32[4,6]", "f32[6,4]", "f32[4]", "f32[6]"};
    static const char* const kUnary[] = {"negate", "exponential", "abs", "tanh", "copy"};
    static const char* const kBinary[] = {"add", "multiply", "maximum", "subtract"};
    const std::string shape = kShapes[Pick(4)];
    switch (Pick(9)) {
      case 0:
      case 1:
        Emit(shape, absl::StrCat(kUnary[Pick(5)], "(", Need(shape), ")"));
        return;
      case 2:
      case 3: {
        std::string x = Need(shape);
        std::string y = Need(shape);
        Emit(shape, absl::StrCat(kBinary[Pick(4)], "(", x, ", ", y, ")"));
        return;
      }
      case 4: {
        std::string c = NewScalar(absl::StrCat(Pick(5) - 2));
        Emit(shape, absl::StrCat("broadcast(", c, "), dimensions={}"));
        return;
      }
      case 5:
        if (shape == "f32[4,6]") {
          if (Pick(2) == 0) {
            Emit(shape, absl::StrCat("broadcast(", Need("f32[4]"), "), dimensions={0}"));
          } else {
            Emit(shape, absl::StrCat("broadcast(", Need("f32[6]"), "), dimensions={1}"));
          }
        } else if (shape == "f32[6,4]") {
          Emit(shape, absl::StrCat("transpose(", Need("f32[4,6]"), "), dimensions={1,0}"));
        } else {
          const bool sum = Pick(2) == 0;
          std::string init = NewScalar(sum ? "0" : "-inf");
          const std::string m = Need(Pick(2) == 0 ? "f32[4,6]" : "f32[6,4]");
          const bool rows = shape == "f32[4]";
          const bool m46 = ShapeOf(m) == "f32[4,6]";
          const char* dims = (rows == m46) ? "1" : "0";
          Emit(shape, absl::StrCat("reduce(", m, ", ", init, "), dimensions={", dims,
                                   "}, to_apply=", sum ? "%add" : "%max"));
        }
        return;
      case 6:
        if (shape == "f32[4]") {
          // Not fusible: a matrix-vector dot.
          std::string a = Need("f32[4,6]");
          std::string b = Need("f32[6]");
          Emit(shape, absl::StrCat("dot(", a, ", ", b,
                                   "), lhs_contracting_dims={1}, rhs_contracting_dims={0}"));
        } else if (shape == "f32[6]") {
          // A column of a [6,4] matrix, reshaped.
          std::string m = Need("f32[6,4]");
          Emit("f32[6,1]", absl::StrCat("slice(", m, "), slice={[0:6], [1:2]}"));
          Emit(shape, absl::StrCat("reshape(%", values_.back().name, ")"));
        } else {
          Emit(shape, absl::StrCat("reverse(", Need(shape), "), dimensions={0}"));
        }
        return;
      case 7: {
        std::string x = Need(shape);
        std::string y = Need(shape);
        Emit(absl::StrCat("pred", shape.substr(3)),
             absl::StrCat("compare(", x, ", ", y, "), direction=GT"));
        const std::string p = "%" + values_.back().name;
        Emit(shape, absl::StrCat("select(", p, ", ", x, ", ", y, ")"));
        return;
      }
      default: {
        // A concatenate of two [2,6] slices, or a pad of a vector.
        if (shape == "f32[4,6]" && Pick(2) == 0) {
          // Softmax-like: x - broadcast(reduce(x)) (a row epilogue).
          std::string m = Need("f32[4,6]");
          std::string init = NewScalar("0");
          Emit("f32[4]",
               absl::StrCat("reduce(", m, ", ", init, "), dimensions={1}, to_apply=%add"));
          std::string r = "%" + values_.back().name;
          Emit(shape, absl::StrCat("broadcast(", r, "), dimensions={0}"));
          std::string b = "%" + values_.back().name;
          Emit(shape, absl::StrCat(kBinary[Pick(4)], "(", m, ", ", b, ")"));
        } else if (shape == "f32[4,6]") {
          std::string m = Need("f32[4,6]");
          Emit("f32[2,6]", absl::StrCat("slice(", m, "), slice={[0:2], [0:6]}"));
          std::string top = "%" + values_.back().name;
          Emit("f32[2,6]", absl::StrCat("slice(", m, "), slice={[1:4:2], [0:6]}"));
          std::string odd = "%" + values_.back().name;
          Emit(shape, absl::StrCat("concatenate(", odd, ", ", top, "), dimensions={0}"));
        } else if (shape == "f32[6]") {
          std::string v = Need("f32[4]");
          std::string z = NewScalar("0.5");
          Emit(shape, absl::StrCat("pad(", v, ", ", z, "), padding=1_1"));
        } else {
          Emit(shape, absl::StrCat("negate(", Need(shape), ")"));
        }
        return;
      }
    }
  }

  std::mt19937_64 rng_;
  std::string body_;
  std::string result_;
  std::vector<Value> values_;
  int counter_ = 0;
};

TEST(RandomModuleTest, PipelineKeepsValuesOnRandomDags) {
  int loop_fusions = 0;
  int input_fusions = 0;
  int row_epilogues = 0;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    RandomModuleBuilder builder(seed);
    const std::string text = builder.Build(8 + static_cast<int>(seed % 25));
    SCOPED_TRACE(absl::StrCat("seed ", seed, "\n", text));
    auto original = testing_util::Parse(text);
    ASSERT_NE(original, nullptr);
    ASSERT_TRUE(VerifyHloModule(*original).ok()) << VerifyHloModule(*original);
    auto m = testing_util::Parse(text);
    HloPassPipeline pipeline = DefaultPipeline();
    pipeline.set_verifier(VerifyHloModule);
    absl::StatusOr<bool> changed = pipeline.Run(m.get());
    ASSERT_TRUE(changed.ok()) << changed.status();
    testing_util::ExpectWellFormed(*m);
    testing_util::ExpectSameResults(*original, *m, seed);
    auto again = testing_util::Parse(text);
    ASSERT_TRUE(DefaultPipeline().Run(again.get()).ok());
    EXPECT_EQ(again->ToString(), m->ToString());
    if (HasFailure()) return;
    for (const HloInstruction* h : m->entry_computation()->instructions()) {
      if (h->opcode() != HloOpcode::kFusion) continue;
      if (h->attrs().fusion_kind == "kLoop") ++loop_fusions;
      if (h->attrs().fusion_kind == "kInput") {
        ++input_fusions;
        // The root has the reduce operand's rank: a row epilogue.
        row_epilogues += h->shape().rank() == 2;
      }
    }
  }
  // The generator exercises every kind of fusion.
  EXPECT_GT(loop_fusions, 1000);
  EXPECT_GT(input_fusions, 100);
  EXPECT_GT(row_epilogues, 10);
}

}  // namespace
}  // namespace aot
