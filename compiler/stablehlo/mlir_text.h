#ifndef AOT_COMPILER_STABLEHLO_MLIR_TEXT_H_
#define AOT_COMPILER_STABLEHLO_MLIR_TEXT_H_

// The MLIR text form of a StableHLO program, read into a small syntax tree:
// a module of functions, each a region of blocks of operations, with the
// types, attributes and positions as written. This layer knows MLIR's
// syntax (generic operations, the custom "pretty" forms the stablehlo, chlo,
// func and check dialects print) but not what any operation means; the
// conversion to HLO (stablehlo_to_hlo.h) gives it meaning.
//
// Hand-written rather than linked from MLIR: Debian ships libmlir-19 but not
// the StableHLO or CHLO dialects, and MLIR's parser refuses any operation of
// an unregistered dialect's custom form, which is how JAX prints programs.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace aot::stablehlo {

// 1-based position in the source text.
struct Location {
  int line = 0;
  int column = 0;
};

// A type as written: tensor<2x?x4xf32, #stablehlo.bounds<?, 8, ?>>,
// tuple<...>, !stablehlo.token, or a bare element type (i32) in attributes.
struct MlirType {
  enum Kind { kTensor, kTuple, kToken, kElement };
  Kind kind = kTensor;
  std::string element;              // "f32", "i1", "ui8", "complex<f32>", "bf16", ...
  std::vector<int64_t> dimensions;  // -1 where the text has '?'
  std::vector<int64_t> bounds;      // per dimension; -1 where none ('?')
  std::vector<MlirType> tuple;      // kTuple
  std::string text;                 // the type as written, for messages
  // A function argument's or result's mhlo.sharding attribute (XLA's
  // sharding text), when it has one.
  std::string sharding;
  bool is_ranked = true;  // false for tensor<*xf32>
};

// An attribute value. Structured attributes (#stablehlo.gather<...>,
// {dict}) keep their fields by name; enums keep their word.
struct MlirAttr {
  enum Kind {
    kUnit,    // a name with no value (in a dictionary)
    kInt,     // 3, -1, 0x10, 3 : i64
    kFloat,   // 1.5, 1.0e-4
    kBool,    // true / false
    kString,  // "text"
    kSymbol,  // @name
    kWord,    // a bare word or enum: GT, FLOAT, DEFAULT, b01f label...
    kList,    // [a, b, ...] (also array<i64: 1, 2> and the i x j pair form)
    kDense,   // dense<...> : tensor<...>; raw holds the text between < >
    kDict,    // {name = value, ...} and #dialect.name<name = value, ...>
    kType,    // a type used as an attribute
  };
  Kind kind = kUnit;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;                         // string/symbol/word text, dense raw text
  std::string dict_name;                 // "stablehlo.gather" for #stablehlo.gather<...>
  std::vector<MlirAttr> list;            // kList
  std::map<std::string, MlirAttr> dict;  // kDict
  std::shared_ptr<MlirType> type;        // kDense (the literal's type), kType, typed ints
  Location loc;
};

struct MlirOperation;

struct MlirBlock {
  std::vector<std::pair<std::string, MlirType>> arguments;  // (%name, type)
  std::vector<MlirOperation> operations;
};

struct MlirRegion {
  std::vector<MlirBlock> blocks;
};

// A value operand: %name, or %name#k for result k of a multi-result op.
struct MlirValueRef {
  std::string name;  // without '%'
  int index = -1;    // #k, or -1
  Location loc;
};

struct MlirOperation {
  std::string name;  // "stablehlo.add", "func.return", "check.expect_eq", ...
  // Result names (without '%') and how many values each names (%r:2).
  std::vector<std::pair<std::string, int>> results;
  std::vector<MlirValueRef> operands;
  // Named attributes from every place they may be written: properties
  // <{...}>, the attribute dictionary {...}, and the pretty form's
  // `name = value` items.
  std::map<std::string, MlirAttr> attributes;
  // Positional items of the pretty form, in order: bare words (GT, FLOAT),
  // dense literals, symbols (@callee), strings, bracketed lists.
  std::vector<MlirAttr> positional;
  std::vector<MlirRegion> regions;
  // The trailing type signature. For a function type "(a, b) -> c" both
  // lists are filled; for a plain list "a, b" only `types`.
  bool has_function_type = false;
  std::vector<MlirType> operand_types;
  std::vector<MlirType> result_types;
  std::vector<MlirType> types;
  Location loc;
  // Pretty forms with bound names: while's (%iterArg = %init) pairs and
  // reduce's "init:" operands are stored as operands; these say which.
  std::vector<std::string> bound_names;  // while: region argument names
  int num_inputs = -1;                   // reduce: operands before the inits
  std::string applies;                   // reduce ... applies stablehlo.add
};

struct MlirFunction {
  std::string name;  // without '@'
  bool is_public = true;
  std::vector<std::pair<std::string, MlirType>> arguments;
  std::vector<MlirType> results;
  MlirRegion body;
  Location loc;
};

struct MlirModule {
  std::string name;  // module @name, or empty
  std::map<std::string, MlirAttr> attributes;
  std::vector<MlirFunction> functions;
  Location loc;
};

// Parses one module (a `module @name attributes {...} { ... }`, or bare
// functions at the top level as stablehlo-opt tests write them). `path`
// prefixes messages: "path:line:col: message". Trailing location aliases
// (#loc = loc(...)) and loc(...) annotations are accepted and ignored.
// `first_line` numbers the first line of `text` (a piece of a split file).
absl::StatusOr<MlirModule> ParseMlirModule(absl::string_view text, absl::string_view path,
                                           int first_line = 1);

// Splits a file at lines that are exactly "// -----" (mlir's
// -split-input-file); each piece keeps its first line number.
struct MlirChunk {
  absl::string_view text;
  int first_line = 1;
};
std::vector<MlirChunk> SplitMlirInput(absl::string_view text);

// True when `bytes` looks like MLIR text: its first line that is neither
// blank nor a comment starts with "module", "func.func" or "#loc".
bool LooksLikeMlirText(absl::string_view bytes);

}  // namespace aot::stablehlo

#endif  // AOT_COMPILER_STABLEHLO_MLIR_TEXT_H_
