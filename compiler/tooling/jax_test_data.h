#ifndef AOT_COMPILER_TOOLING_JAX_TEST_DATA_H_
#define AOT_COMPILER_TOOLING_JAX_TEST_DATA_H_

// JAX's back-compat test data as an input form: the Python files of
// jax/_src/internal_test_util/export_back_compat_test_data/, each holding
// data sets
//
//   data_2024_05_31 = {}
//   data_2024_05_31["f32"] = dict(
//       testdata_version=1, platform='cpu',
//       custom_call_targets=['lapack_spotrf_ffi'],
//       serialized_date=datetime.date(2024, 5, 31),
//       inputs=(array([[1., 2.], [3., 4.]], dtype=float32),),
//       expected_outputs=(array(...),),
//       mlir_module_text=r"""module @jit_f { ... }""",
//       mlir_module_serialized=b"...",
//       xla_call_module_version=9, nr_devices=1)
//
// The literals are read as data; no Python is run. Read: dict(...) and
// {...}, tuples and lists, ints, floats, complex (`1.5-2j`), nan/inf,
// True/False/None, strings (quoted, raw, triple-quoted), bytes,
// datetime.date(y, m, d), and numpy's repr of arrays, `array(<nested
// list>, dtype=<type>)` (also np.array / numpy.array, `shape=(...)` for
// empty ones; without a dtype as numpy defaults: float64, int64, bool,
// complex128). Module-level `import` lines and aliases (`array =
// np.array`, `float32 = np.float32`) are skipped.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/hlo/literal.h"

namespace aot {

struct JaxTestData {
  std::string name;  // "data_2024_05_31" or "data_2024_05_31[f32]"
  int line = 0;      // where its dict starts
  std::string platform;
  std::vector<std::string> custom_call_targets;
  std::string serialized_date;  // YYYY-MM-DD, or ""
  std::string mlir_module_text;
  std::vector<Literal> inputs;
  std::vector<Literal> expected_outputs;
};

// Whether `bytes` looks like such a file (a .py holding mlir_module_text).
bool LooksLikeJaxTestData(absl::string_view path, absl::string_view bytes);

// Every data set of the file, in order. Errors name the file, line and
// what could not be read.
absl::StatusOr<std::vector<JaxTestData>> ParseJaxTestData(absl::string_view text,
                                                          absl::string_view path);

// The data set's inputs as the program's parameters take them: every
// tuple flattened to its leaves, in order.
std::vector<Literal> FlatInputs(const JaxTestData& set);

// Compares a run's result (a tuple for several outputs) with a data set's
// expected outputs: shapes and types equal; integers and bools exactly;
// floats and complex within JaxTolerance (|a - e| <= tol + tol * |e|, NaN
// equal to NaN, as numpy's assert_allclose with rtol = atol). OK, or
// FailedPrecondition naming the output, the first element that differs
// and how many do.
absl::Status CompareWithJaxExpected(const Literal& result, const std::vector<Literal>& expected);

// JAX's tolerance for comparing a result of this type with its expected
// value (jax._src.test_util's default tolerances for the dtype, the ones
// its back-compat tests use unless a test says otherwise).
double JaxTolerance(PrimitiveType type);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_JAX_TEST_DATA_H_
