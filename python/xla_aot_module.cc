// The Python module xla_aot (its native part, _xla_aot): compile HLO text to
// a serialized executable, load one, and call it on numpy arrays.
//
//   import numpy as np, xla_aot
//   exe = xla_aot.load(xla_aot.compile(hlo_text))
//   y = exe(np.ones((4, 8), np.float32), np.ones((4, 8), np.float32))
//
// Arguments are passed without a copy when they are C-contiguous and the
// parameter has the default (row-major) layout; results become numpy arrays
// over the runtime's own result memory (no copy), viewed in logical order
// when the layout is not row-major. bf16 travels as uint16 bit patterns
// (numpy has no bfloat16), the 8-bit and 4-bit floats as uint8 bit
// patterns, s4/s2/s1 and u4/u2/u1 as int8/uint8 (one element per byte),
// c64/c128 as complex64/complex128. Errors raise xla_aot.Error with .code (the
// status code's name, "FAILED_PRECONDITION") and .message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/backend/compiler.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/target/target_config.h"
#include "compiler/target/target_selection.h"
#include "runtime/executable/client.h"
#include "runtime/shape_util.h"

namespace py = pybind11;

namespace aot {
namespace {

PyObject* error_type = nullptr;

// Raises xla_aot.Error carrying the status's code and message.
[[noreturn]] void Raise(const absl::Status& status) {
  std::string code = absl::StatusCodeToString(status.code());
  for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (char& c : code) {
    if (c == ' ') c = '_';
  }
  py::object type = py::reinterpret_borrow<py::object>(error_type);
  py::object error = type(absl::StrCat(code, ": ", status.message()));
  error.attr("code") = code;
  error.attr("code_number") = static_cast<int>(status.code());
  error.attr("message") = std::string(status.message());
  PyErr_SetObject(error_type, error.ptr());
  throw py::error_already_set();
}

template <typename T>
T ValueOrRaise(absl::StatusOr<T> value) {
  if (!value.ok()) Raise(value.status());
  return *std::move(value);
}

py::dtype DtypeOf(PrimitiveType type) {
  switch (type) {
    case PRED:
      return py::dtype::of<bool>();
    case S8:
      return py::dtype::of<int8_t>();
    case S16:
      return py::dtype::of<int16_t>();
    case S32:
      return py::dtype::of<int32_t>();
    case S64:
      return py::dtype::of<int64_t>();
    case U8:
      return py::dtype::of<uint8_t>();
    case U16:
      return py::dtype::of<uint16_t>();
    case U32:
      return py::dtype::of<uint32_t>();
    case U64:
      return py::dtype::of<uint64_t>();
    case F16:
      return py::dtype("float16");
    case BF16:
      return py::dtype::of<uint16_t>();  // bit patterns
    case F32:
      return py::dtype::of<float>();
    case F64:
      return py::dtype::of<double>();
    case C64:
      return py::dtype("complex64");
    case C128:
      return py::dtype("complex128");
    default:
      break;
  }
  // Narrower than a byte, one element per byte: the value itself; the 8-bit
  // and 4-bit floats as bit patterns, as bf16 (numpy has none of them).
  if (runtime_shape::IsNarrowInteger(type)) {
    return type == S4 || type == S2 || type == S1 ? py::dtype::of<int8_t>()
                                                  : py::dtype::of<uint8_t>();
  }
  if (runtime_shape::IsNarrowFloat(type)) return py::dtype::of<uint8_t>();
  Raise(absl::UnimplementedError(
      absl::StrCat("element type ", PrimitiveType_Name(type), " has no numpy dtype")));
}

std::vector<py::ssize_t> Dims(const ShapeProto& shape) {
  return std::vector<py::ssize_t>(shape.dimensions().begin(), shape.dimensions().end());
}

// Physical axis j holds logical dimension major_to_minor[j].
std::vector<py::ssize_t> MajorToMinor(const ShapeProto& shape) {
  std::vector<int64_t> m2m = runtime_shape::MinorToMajor(shape);
  return std::vector<py::ssize_t>(m2m.rbegin(), m2m.rend());
}

// A loaded executable and the client that must outlive it.
class PyExecutable {
 public:
  PyExecutable(std::shared_ptr<Client> client, std::unique_ptr<Executable> executable)
      : client_(std::move(client)), executable_(std::move(executable)) {}

  py::object Call(py::args args) {
    const auto& params = executable_->parameters();
    if (args.size() != params.size()) {
      Raise(absl::InvalidArgumentError(
          absl::StrCat("the executable takes ", params.size(), " arguments, got ", args.size())));
    }
    std::vector<py::object> keep;  // arrays (or their physical copies) alive during the call
    std::vector<absl::Span<const uint8_t>> spans;
    for (size_t i = 0; i < params.size(); ++i) {
      const ShapeProto& shape = params[i].shape();
      py::dtype dtype = DtypeOf(shape.element_type());
      py::array array = py::array::ensure(args[i]);
      if (!array)
        Raise(absl::InvalidArgumentError(absl::StrCat("argument ", i, " is not an array")));
      if (!array.dtype().is(dtype) &&
          !(array.dtype().kind() == dtype.kind() && array.dtype().itemsize() == dtype.itemsize())) {
        Raise(absl::InvalidArgumentError(
            absl::StrCat("argument ", i, " has dtype ", py::str(array.dtype()).cast<std::string>(),
                         "; parameter ", i, " is ", runtime_shape::ToString(shape))));
      }
      std::vector<py::ssize_t> dims = Dims(shape);
      std::vector<py::ssize_t> got(array.shape(), array.shape() + array.ndim());
      if (got != dims) {
        Raise(absl::InvalidArgumentError(absl::StrCat(
            "argument ", i, " has shape ", py::str(py::tuple(py::cast(got))).cast<std::string>(),
            "; parameter ", i, " is ", runtime_shape::ToString(shape))));
      }
      if (runtime_shape::PackedBits(shape) > 0) {
        // A packed sub-byte layout (E(n)): the values, one per byte in
        // logical order, packed by the runtime's own relayout.
        array = py::array::ensure(array, py::array::c_style | py::array::forcecast);
        auto* packed =
            new std::vector<uint8_t>(static_cast<size_t>(runtime_shape::ByteSize(shape)));
        runtime_shape::LogicalToPhysical(shape, static_cast<const uint8_t*>(array.data()),
                                         packed->data());
        py::capsule owner(packed, [](void* p) { delete static_cast<std::vector<uint8_t>*>(p); });
        keep.push_back(owner);
        spans.emplace_back(packed->data(), packed->size());
        continue;
      }
      if (!runtime_shape::HasDefaultLayout(shape)) {
        // The parameter's physical order: a transposed copy.
        array = py::array(py::module_::import("numpy").attr("ascontiguousarray")(
            array.attr("transpose")(py::cast(MajorToMinor(shape)))));
      } else if (!(array.flags() & py::array::c_style)) {
        array = py::array::ensure(array, py::array::c_style | py::array::forcecast);
      }
      keep.push_back(array);
      spans.emplace_back(static_cast<const uint8_t*>(array.data()),
                         static_cast<size_t>(array.nbytes()));
    }
    absl::StatusOr<std::vector<std::vector<uint8_t>>> results;
    {
      py::gil_scoped_release release;
      results = executable_->Execute(spans);
    }
    if (!results.ok()) Raise(results.status());
    const auto& leaves = executable_->result().leaves();
    py::list out;
    for (int i = 0; i < leaves.size(); ++i) {
      const ShapeProto& shape = leaves[i].shape();
      auto* bytes = new std::vector<uint8_t>(std::move((*results)[i]));
      py::capsule owner(bytes, [](void* p) { delete static_cast<std::vector<uint8_t>*>(p); });
      std::vector<py::ssize_t> dims = Dims(shape);
      if (runtime_shape::PackedBits(shape) > 0) {
        // Unpacked into logical order, one value per byte.
        auto* values =
            new std::vector<uint8_t>(static_cast<size_t>(runtime_shape::ElementCount(shape)));
        runtime_shape::PhysicalToLogical(shape, bytes->data(), values->data());
        py::capsule values_owner(values,
                                 [](void* p) { delete static_cast<std::vector<uint8_t>*>(p); });
        out.append(py::array(DtypeOf(shape.element_type()), dims, values->data(), values_owner));
        continue;
      }
      std::vector<py::ssize_t> m2m = MajorToMinor(shape);
      std::vector<py::ssize_t> physical(dims.size());
      for (size_t j = 0; j < dims.size(); ++j) physical[j] = dims[m2m[j]];
      py::array array(DtypeOf(shape.element_type()), physical, bytes->data(), owner);
      if (!runtime_shape::HasDefaultLayout(shape)) {
        // A view in logical order: logical dimension d is physical axis
        // position_of[d].
        std::vector<py::ssize_t> position_of(dims.size());
        for (size_t j = 0; j < m2m.size(); ++j) position_of[m2m[j]] = static_cast<py::ssize_t>(j);
        array = py::array(array.attr("transpose")(py::cast(position_of)));
      }
      out.append(array);
    }
    if (executable_->result().shape().element_type() == TUPLE) return py::tuple(out);
    return out[0];
  }

  py::list ParameterShapes() const {
    py::list out;
    for (const auto& p : executable_->parameters()) {
      out.append(
          py::make_tuple(py::tuple(py::cast(Dims(p.shape()))), DtypeOf(p.shape().element_type())));
    }
    return out;
  }
  py::list ResultShapes() const {
    py::list out;
    for (const auto& leaf : executable_->result().leaves()) {
      out.append(py::make_tuple(py::tuple(py::cast(Dims(leaf.shape()))),
                                DtypeOf(leaf.shape().element_type())));
    }
    return out;
  }
  std::string Name() const { return executable_->proto().name(); }

 private:
  std::shared_ptr<Client> client_;
  std::unique_ptr<Executable> executable_;
};

py::bytes CompileHlo(const std::string& hlo_text, std::optional<std::string> target,
                     std::vector<std::string> emission_flags) {
  // HLO text, or StableHLO as jax.jit(f).lower(...).as_text() prints it.
  const bool mlir = stablehlo::LooksLikeMlirText(hlo_text) && !LooksLikeHloText(hlo_text);
  auto loaded =
      ValueOrRaise(ParseHloModuleBytes(hlo_text, mlir ? "<stablehlo_text>" : "<hlo_text>",
                                       mlir ? InputKind::kStableHloText : InputKind::kHloText));
  TargetConfigProto config;
  if (!target.has_value()) {
    config = ValueOrRaise(SelectTarget(PLATFORM_HOST, ""));
  } else {
    // A shipped name or a .txtpb path; its platform decides.
    auto host = SelectTarget(PLATFORM_HOST, *target);
    config = host.ok() ? *host : ValueOrRaise(SelectTarget(PLATFORM_CUDA, *target));
  }
  CompileOptions options;
  options.emission_flags = std::move(emission_flags);
  absl::StatusOr<std::unique_ptr<CompiledModule>> compiled;
  {
    py::gil_scoped_release release;  // compiling takes a while; other threads run
    compiled = Compile(*loaded.module, config, options);
  }
  if (!compiled.ok()) compiled = AtSource(loaded, compiled.status());
  return py::bytes(ValueOrRaise(std::move(compiled))->SerializeAsString());
}

std::unique_ptr<PyExecutable> LoadExecutable(py::object bytes_or_path,
                                             std::optional<std::string> platform) {
  std::string bytes;
  if (py::isinstance<py::bytes>(bytes_or_path) || py::isinstance<py::bytearray>(bytes_or_path)) {
    bytes = py::bytes(bytes_or_path).cast<std::string>();
  } else {
    std::string path = py::str(py::module_::import("os").attr("fspath")(bytes_or_path));
    std::ifstream in(path, std::ios::binary);
    if (!in) Raise(absl::NotFoundError(absl::StrCat(path, ": cannot read")));
    std::stringstream s;
    s << in.rdbuf();
    bytes = s.str();
  }
  std::string name = platform.value_or("");
  if (name.empty()) {
    // The artifact's own platform.
    auto proto = ValueOrRaise(ParseExecutableProto(bytes, GuessArtifactFormat(bytes)));
    name = proto.capability().has_cuda() ? "cuda" : "host";
  }
  std::shared_ptr<Client> client = ValueOrRaise(Client::Create(name));
  absl::StatusOr<std::unique_ptr<Executable>> loaded;
  {
    py::gil_scoped_release release;
    loaded = client->DeserializeExecutable(bytes);
  }
  return std::make_unique<PyExecutable>(std::move(client), ValueOrRaise(std::move(loaded)));
}

}  // namespace
}  // namespace aot

PYBIND11_MODULE(_xla_aot, m) {
  m.doc() = "XLA-style AOT compiler and runtime: compile HLO, load executables, run on numpy";
  aot::error_type = PyErr_NewExceptionWithDoc(
      "xla_aot.Error",
      "An error of the compiler or runtime; .code is the status code's name "
      "(e.g. 'FAILED_PRECONDITION'), .message the reason.",
      PyExc_RuntimeError, nullptr);
  m.attr("Error") = py::reinterpret_borrow<py::object>(aot::error_type);
  m.def("compile", &aot::CompileHlo, py::arg("hlo_text"), py::arg("target") = py::none(),
        py::arg("emission_flags") = std::vector<std::string>{},
        "Compiles HLO text for `target` (a shipped target name such as 'host-x86-64-v3' or "
        "'h100', or a .txtpb path; default: the best host level this CPU runs) and returns "
        "the serialized executable. `emission_flags` turns on emission flags of the staged "
        "rollout by name (as aotc's --emission_flags), e.g. ['emit_extended_element_types'].");
  m.def("load", &aot::LoadExecutable, py::arg("bytes_or_path"), py::arg("platform") = py::none(),
        "Loads a serialized executable (bytes, or a path to a .pb / .pbtxt file) on "
        "`platform` ('host' or 'cuda'; default: the artifact's).");
  py::class_<aot::PyExecutable>(m, "Executable")
      .def("__call__", &aot::PyExecutable::Call,
           "Runs on numpy arrays (one per parameter); returns an array, or a tuple of arrays "
           "for a tuple result.")
      .def_property_readonly("name", &aot::PyExecutable::Name)
      .def_property_readonly("parameter_shapes", &aot::PyExecutable::ParameterShapes,
                             "[(dims, dtype)] per parameter")
      .def_property_readonly("result_shapes", &aot::PyExecutable::ResultShapes,
                             "[(dims, dtype)] per result leaf");
}
