#ifndef AOT_COMPILER_STABLEHLO_STABLEHLO_TEST_UTIL_H_
#define AOT_COMPILER_STABLEHLO_STABLEHLO_TEST_UTIL_H_

// What the StableHLO front end's tests share: conversion of a program's
// text, and its HLO text parsed back by the HLO parser. Each family's tests
// sit beside its file (stablehlo_<family>_test.cc).

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/hlo/hlo_module_loader.h"
#include "compiler/hlo/hlo_parser.h"
#include "compiler/stablehlo/dense_literal.h"
#include "compiler/stablehlo/mlir_text.h"
#include "compiler/stablehlo/stablehlo_to_hlo.h"
#include "compiler/verifier/hlo_verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"

namespace aot::stablehlo::test_util {

inline absl::StatusOr<ConvertedProgram> Convert(const std::string& text) {
  return ConvertStableHloText(text, "t.mlir");
}

// Converts and parses the HLO; returns the HLO text or the error.
inline std::string HloOf(const std::string& text) {
  auto converted = Convert(text);
  AOT_RETURN_IF_ERROR_AND(converted, std::string(_.message()));
  auto parsed = ParseHloModule(converted->hlo_text);
  if (!parsed.ok()) {
    return absl::StrCat("HLO does not parse: ", parsed.status().message(), "\n",
                        converted->hlo_text);
  }
  return converted->hlo_text;
}

}  // namespace aot::stablehlo::test_util

#endif  // AOT_COMPILER_STABLEHLO_STABLEHLO_TEST_UTIL_H_
