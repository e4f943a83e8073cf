#include "compiler/hlo/hlo_parser.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/hlo/collective_ops.h"
#include "compiler/hlo/shuffle.h"
#include "google/protobuf/reflection.h"
#include "support/status_macros.h"

namespace aot {

namespace {

constexpr int kMaxNesting = 64;
constexpr int64_t kMaxDimension = int64_t{1} << 40;
constexpr int64_t kMaxElidedElements = int64_t{1} << 26;

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
         c == '$';
}

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t HashName(absl::string_view name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : name) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// Where an instruction's called computation is still a name.
struct PendingComputationRef {
  HloInstruction* instruction;
  size_t slot;
  std::string name;
  size_t position;
};

class Parser {
 public:
  Parser(absl::string_view text, const HloParserOptions& options)
      : text_(text), end_(text.size()), options_(options) {}

  absl::StatusOr<HloParseResult> ParseModule();
  absl::StatusOr<Shape> ParseStandaloneShape();
  absl::StatusOr<Literal> ParseStandaloneLiteral();

 private:
  // ---- Lexing ----
  void SkipWs();
  bool AtEnd() {
    SkipWs();
    return pos_ >= end_;
  }
  char Peek() {
    SkipWs();
    return pos_ < end_ ? text_[pos_] : '\0';
  }
  bool TryConsume(char c) {
    if (Peek() == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool TryConsumeWord(absl::string_view word);
  absl::Status Expect(char c, absl::string_view what);
  std::string ReadName();  // strips a leading '%'
  absl::StatusOr<int64_t> ReadInt(absl::string_view what);

  absl::Status ErrorAt(size_t pos, absl::string_view message) const;
  absl::Status Error(absl::string_view message) const { return ErrorAt(pos_, message); }
  // Balanced raw text of an attribute value, ending before a top-level
  // ',' / whitespace / unmatched closer.
  absl::StatusOr<absl::string_view> ScanRawValue();
  // Raw text up to the ')' matching an already consumed '('.
  absl::StatusOr<absl::string_view> ScanUntilMatchingParen();

  // ---- Structure ----
  absl::StatusOr<Shape> ParseShape(int depth = 0);
  // The rest of a signature after its '(': "p0, p1) -> result" (the
  // entry_computation_layout form) or, `named`, "a: p0, b: p1) -> result" (a
  // computation's). `where` completes "expected '->' ...".
  absl::StatusOr<ProgramShape> ParseSignatureAfterParen(bool named, absl::string_view where);
  absl::Status ParseModuleHeader(HloModule& module);
  // "{0,1}" (`what` completes "expected '{' opening ...").
  absl::StatusOr<std::vector<int64_t>> ParseShapeIndex(absl::string_view what);
  absl::StatusOr<std::vector<HloInputOutputAlias>> ParseInputOutputAlias();
  absl::Status ParseComputation(HloModule& module, bool* saw_entry, HloComputation** parsed);
  absl::Status ParseInstruction(HloComputation& computation, bool* is_root);
  absl::Status ParseAttribute(HloInstruction& instr, absl::string_view name,
                              absl::string_view value, size_t value_pos);
  // The attributes only collectives take (replica_groups, channel_id, ...);
  // false when `name` is not one of them for this opcode.
  absl::StatusOr<bool> ParseCollectiveAttribute(HloInstruction& instr, absl::string_view name,
                                                absl::string_view value, size_t value_pos);
  absl::StatusOr<double> ParseFloatToken(absl::string_view tok, PrimitiveType t, size_t text_pos);
  absl::StatusOr<Literal> ParseLiteral(const Shape& shape, absl::string_view text, size_t text_pos,
                                       bool* elided, absl::string_view instr_name);
  // "s32[3]{0} {2, 0, 1}" at the cursor: an array literal with its shape, as
  // shuffle's indices= and multi_shifts= are written. The values may not be
  // elided; the literal takes the shape's layout.
  absl::StatusOr<Literal> ParseShapedLiteral();

  absl::string_view text_;
  size_t pos_ = 0;
  size_t end_;
  HloParserOptions options_;
  std::string current_instruction_;
  // Each computation's instructions by name (HloComputation::FindInstruction
  // is a linear scan: a module of 100k instructions spent most of its parse
  // in it).
  absl::flat_hash_map<const HloComputation*, absl::flat_hash_map<std::string, HloInstruction*>>
      names_;
  HloInstruction* Named(const HloComputation& computation, const std::string& name) const {
    auto c = names_.find(&computation);
    if (c == names_.end()) return nullptr;
    auto i = c->second.find(name);
    return i == c->second.end() ? nullptr : i->second;
  }
  HloParseResult result_;
  std::vector<PendingComputationRef> pending_refs_;
};

// ---------------------------------------------------------------------------
// Value parsers over raw attribute text (a separate cursor on a substring).

class ValueCursor {
 public:
  ValueCursor(absl::string_view text) : text_(text) {}
  void SkipWs() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool TryConsume(char c) {
    SkipWs();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool TryConsume(absl::string_view s) {
    SkipWs();
    if (absl::StartsWith(text_.substr(pos_), s)) {
      pos_ += s.size();
      return true;
    }
    return false;
  }
  bool AtEnd() {
    SkipWs();
    return pos_ >= text_.size();
  }
  char Peek() {
    SkipWs();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  std::optional<int64_t> ReadInt() {
    SkipWs();
    size_t start = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    int64_t v;
    if (!absl::SimpleAtoi(text_.substr(start, pos_ - start), &v)) {
      pos_ = start;
      return std::nullopt;
    }
    return v;
  }
  std::string ReadWord() {
    SkipWs();
    size_t start = pos_;
    while (pos_ < text_.size() && (IsNameChar(text_[pos_]) || text_[pos_] == '%')) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::optional<std::string> ReadQuoted() {
    SkipWs();
    if (pos_ >= text_.size() || text_[pos_] != '"') return std::nullopt;
    ++pos_;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\' && pos_ < text_.size()) {
        char e = text_[pos_++];
        switch (e) {
          case 'n':
            out.push_back('\n');
            break;
          case 't':
            out.push_back('\t');
            break;
          default:
            out.push_back(e);
        }
      } else {
        out.push_back(c);
      }
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    return out;
  }
  size_t pos() const { return pos_; }

 private:
  absl::string_view text_;
  size_t pos_ = 0;
};

std::optional<std::vector<int64_t>> ParseIntList(absl::string_view raw) {
  ValueCursor c(raw);
  if (!c.TryConsume('{')) return std::nullopt;
  std::vector<int64_t> values;
  if (c.TryConsume('}')) return c.AtEnd() ? std::optional(values) : std::nullopt;
  while (true) {
    auto v = c.ReadInt();
    if (!v) return std::nullopt;
    values.push_back(*v);
    if (c.TryConsume('}')) break;
    if (!c.TryConsume(',')) return std::nullopt;
  }
  if (!c.AtEnd()) return std::nullopt;
  return values;
}

std::optional<std::vector<int64_t>> SplitInts(absl::string_view s, char sep) {
  std::vector<int64_t> out;
  for (absl::string_view part : absl::StrSplit(s, sep)) {
    int64_t v;
    if (!absl::SimpleAtoi(part, &v)) return std::nullopt;
    out.push_back(v);
  }
  return out;
}

std::optional<WindowProto> ParseWindow(absl::string_view raw) {
  ValueCursor c(raw);
  if (!c.TryConsume('{')) return std::nullopt;
  WindowProto window;
  std::vector<int64_t> size, stride, lhs_dilate, rhs_dilate, reversal;
  std::vector<std::pair<int64_t, int64_t>> pad;
  while (!c.TryConsume('}')) {
    if (c.AtEnd()) return std::nullopt;
    std::string key = c.ReadWord();
    if (key.empty() || !c.TryConsume('=')) return std::nullopt;
    c.SkipWs();
    std::string value = c.ReadWord();  // e.g. 3x3, 1_1x-1_0
    if (value.empty()) return std::nullopt;
    if (key == "pad") {
      for (absl::string_view dim : absl::StrSplit(value, 'x')) {
        auto lh = SplitInts(dim, '_');
        if (!lh || lh->size() != 2) return std::nullopt;
        pad.emplace_back((*lh)[0], (*lh)[1]);
      }
      continue;
    }
    auto ints = SplitInts(value, 'x');
    if (!ints) return std::nullopt;
    if (key == "size")
      size = *ints;
    else if (key == "stride")
      stride = *ints;
    else if (key == "lhs_dilate")
      lhs_dilate = *ints;
    else if (key == "rhs_dilate")
      rhs_dilate = *ints;
    else if (key == "rhs_reversal")
      reversal = *ints;
    else
      return std::nullopt;
  }
  if (!c.AtEnd()) return std::nullopt;
  size_t rank = size.size();
  auto check = [&](size_t n) { return n == 0 || n == rank; };
  if (!check(stride.size()) || !check(pad.size()) || !check(lhs_dilate.size()) ||
      !check(rhs_dilate.size()) || !check(reversal.size())) {
    return std::nullopt;
  }
  for (size_t i = 0; i < rank; ++i) {
    WindowDimensionProto* d = window.add_dimensions();
    d->set_size(size[i]);
    d->set_stride(stride.empty() ? 1 : stride[i]);
    d->set_padding_low(pad.empty() ? 0 : pad[i].first);
    d->set_padding_high(pad.empty() ? 0 : pad[i].second);
    d->set_base_dilation(lhs_dilate.empty() ? 1 : lhs_dilate[i]);
    d->set_window_dilation(rhs_dilate.empty() ? 1 : rhs_dilate[i]);
    d->set_window_reversal(!reversal.empty() && reversal[i] != 0);
  }
  return window;
}

std::optional<PaddingConfigProto> ParsePadding(absl::string_view raw) {
  PaddingConfigProto config;
  if (raw.empty()) return std::nullopt;
  for (absl::string_view dim : absl::StrSplit(raw, 'x')) {
    auto parts = SplitInts(dim, '_');
    if (!parts || (parts->size() != 2 && parts->size() != 3)) return std::nullopt;
    auto* d = config.add_dimensions();
    d->set_edge_padding_low((*parts)[0]);
    d->set_edge_padding_high((*parts)[1]);
    d->set_interior_padding(parts->size() == 3 ? (*parts)[2] : 0);
  }
  return config;
}

std::optional<ConvolutionDimensionNumbersProto> ParseDimLabels(absl::string_view raw) {
  std::vector<std::string> io = absl::StrSplit(raw, "->");
  if (io.size() != 2) return std::nullopt;
  std::vector<std::string> lk = absl::StrSplit(io[0], '_');
  if (lk.size() != 2) return std::nullopt;
  const std::string& lhs = lk[0];
  const std::string& rhs = lk[1];
  const std::string& out = io[1];
  if (lhs.size() != rhs.size() || lhs.size() != out.size() || lhs.size() < 2 || lhs.size() > 12) {
    return std::nullopt;
  }
  size_t spatial = lhs.size() - 2;
  ConvolutionDimensionNumbersProto d;
  std::vector<int64_t> in_sp(spatial, -1), k_sp(spatial, -1), out_sp(spatial, -1);
  int64_t in_b = -1, in_f = -1, k_i = -1, k_o = -1, out_b = -1, out_f = -1;
  auto assign = [&](const std::string& s, char a, int64_t& a_dim, char b, int64_t& b_dim,
                    std::vector<int64_t>& sp) {
    for (size_t i = 0; i < s.size(); ++i) {
      char ch = s[i];
      if (ch == a) {
        if (a_dim >= 0) return false;
        a_dim = static_cast<int64_t>(i);
      } else if (ch == b) {
        if (b_dim >= 0) return false;
        b_dim = static_cast<int64_t>(i);
      } else if (ch >= '0' && ch <= '9' && static_cast<size_t>(ch - '0') < spatial) {
        if (sp[ch - '0'] >= 0) return false;
        sp[ch - '0'] = static_cast<int64_t>(i);
      } else {
        return false;
      }
    }
    return a_dim >= 0 && b_dim >= 0;
  };
  if (!assign(lhs, 'b', in_b, 'f', in_f, in_sp) || !assign(rhs, 'i', k_i, 'o', k_o, k_sp) ||
      !assign(out, 'b', out_b, 'f', out_f, out_sp)) {
    return std::nullopt;
  }
  d.set_input_batch_dimension(in_b);
  d.set_input_feature_dimension(in_f);
  d.set_kernel_input_feature_dimension(k_i);
  d.set_kernel_output_feature_dimension(k_o);
  d.set_output_batch_dimension(out_b);
  d.set_output_feature_dimension(out_f);
  for (size_t i = 0; i < spatial; ++i) {
    d.add_input_spatial_dimensions(in_sp[i]);
    d.add_kernel_spatial_dimensions(k_sp[i]);
    d.add_output_spatial_dimensions(out_sp[i]);
  }
  return d;
}

std::optional<std::vector<SliceSpec>> ParseSlice(absl::string_view raw) {
  ValueCursor c(raw);
  if (!c.TryConsume('{')) return std::nullopt;
  std::vector<SliceSpec> out;
  if (c.TryConsume('}')) return out;
  while (true) {
    if (!c.TryConsume('[')) return std::nullopt;
    SliceSpec s;
    auto start = c.ReadInt();
    if (!start || !c.TryConsume(':')) return std::nullopt;
    auto limit = c.ReadInt();
    if (!limit) return std::nullopt;
    s.start = *start;
    s.limit = *limit;
    if (c.TryConsume(':')) {
      auto stride = c.ReadInt();
      if (!stride) return std::nullopt;
      s.stride = *stride;
    }
    if (!c.TryConsume(']')) return std::nullopt;
    out.push_back(s);
    if (c.TryConsume('}')) break;
    if (!c.TryConsume(',')) return std::nullopt;
  }
  if (!c.AtEnd()) return std::nullopt;
  return out;
}

std::optional<OpMetadataProto> ParseMetadata(absl::string_view raw) {
  ValueCursor c(raw);
  if (!c.TryConsume('{')) return std::nullopt;
  OpMetadataProto m;
  while (!c.TryConsume('}')) {
    if (c.AtEnd()) return std::nullopt;
    std::string key = c.ReadWord();
    if (key.empty() || !c.TryConsume('=')) return std::nullopt;
    if (c.Peek() == '"') {
      auto value = c.ReadQuoted();
      if (!value) return std::nullopt;
      if (key == "op_type")
        m.set_op_type(*value);
      else if (key == "op_name")
        m.set_op_name(*value);
      else if (key == "source_file")
        m.set_source_file(*value);
      // Other string keys (deduplicated_name, scheduling_name, ...) skipped.
    } else if (c.Peek() == '{') {
      // Nested value (e.g. profile_type={...}): skip it balanced.
      int depth = 0;
      do {
        char ch = c.Peek();
        if (ch == '\0') return std::nullopt;
        c.TryConsume(ch);
        if (ch == '{') ++depth;
        if (ch == '}') --depth;
      } while (depth > 0);
    } else {
      std::string value = c.ReadWord();
      if (value.empty()) return std::nullopt;
      if (key == "source_line") {
        int32_t line;
        if (!absl::SimpleAtoi(value, &line)) return std::nullopt;
        m.set_source_line(line);
      }
    }
    c.TryConsume(',');
  }
  if (!c.AtEnd()) return std::nullopt;
  return m;
}

std::optional<std::vector<std::pair<std::string, std::string>>> ParseFrontendAttributes(
    absl::string_view raw) {
  ValueCursor c(raw);
  if (!c.TryConsume('{')) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  while (!c.TryConsume('}')) {
    if (c.AtEnd()) return std::nullopt;
    std::string key = c.ReadWord();
    if (key.empty() || !c.TryConsume('=')) return std::nullopt;
    auto value = c.ReadQuoted();
    if (!value) return std::nullopt;
    out.emplace_back(key, *value);
    c.TryConsume(',');
  }
  if (!c.AtEnd()) return std::nullopt;
  return out;
}

std::optional<std::string> ParseComputationName(absl::string_view raw) {
  ValueCursor c(raw);
  std::string name = c.ReadWord();
  if (!c.AtEnd() || name.empty()) return std::nullopt;
  if (name[0] == '%') name.erase(0, 1);
  if (name.empty()) return std::nullopt;
  return name;
}

std::optional<std::vector<std::string>> ParseComputationList(absl::string_view raw) {
  ValueCursor c(raw);
  if (!c.TryConsume('{')) return std::nullopt;
  std::vector<std::string> out;
  if (c.TryConsume('}')) return out;
  while (true) {
    std::string name = c.ReadWord();
    if (!name.empty() && name[0] == '%') name.erase(0, 1);
    if (name.empty()) return std::nullopt;
    out.push_back(name);
    if (c.TryConsume('}')) break;
    if (!c.TryConsume(',')) return std::nullopt;
  }
  if (!c.AtEnd()) return std::nullopt;
  return out;
}

std::optional<bool> ParseBoolValue(absl::string_view raw) {
  if (raw == "true") return true;
  if (raw == "false") return false;
  return std::nullopt;
}

// A failed value parse: what was expected and where (an offset into the
// value's text).
struct ValueError {
  size_t offset = 0;
  std::string expected;
};

// "{i,j,...}" at the cursor (an empty list allowed).
bool ReadIntGroup(ValueCursor& c, std::vector<int64_t>* out, ValueError* error) {
  out->clear();
  c.SkipWs();
  if (!c.TryConsume('{')) {
    *error = {c.pos(), "expected '{' opening a group"};
    return false;
  }
  if (c.TryConsume('}')) return true;
  while (true) {
    c.SkipWs();
    auto v = c.ReadInt();
    if (!v) {
      *error = {c.pos(), "expected an integer"};
      return false;
    }
    out->push_back(*v);
    if (c.TryConsume('}')) return true;
    if (!c.TryConsume(',')) {
      c.SkipWs();
      *error = {c.pos(), "expected ',' or '}' in a group"};
      return false;
    }
  }
}

// "{{0,1},{2,3}}" or "{}".
bool ReadIntGroups(absl::string_view raw, std::vector<std::vector<int64_t>>* out,
                   ValueError* error) {
  ValueCursor c(raw);
  out->clear();
  if (!c.TryConsume('{')) {
    *error = {c.pos(), "expected '{' or '['"};
    return false;
  }
  if (!c.TryConsume('}')) {
    while (true) {
      std::vector<int64_t> group;
      if (!ReadIntGroup(c, &group, error)) return false;
      out->push_back(std::move(group));
      if (c.TryConsume('}')) break;
      if (!c.TryConsume(',')) {
        c.SkipWs();
        *error = {c.pos(), "expected ',' or '}' between groups"};
        return false;
      }
    }
  }
  if (!c.AtEnd()) {
    *error = {c.pos(), "unexpected text after the groups"};
    return false;
  }
  return true;
}

// XLA's iota form "[num_groups,group_size]<=[d0,d1,...]" with an optional
// "T(p0,p1,...)".
bool ReadIotaReplicaGroups(absl::string_view raw, IotaReplicaGroupList* out, ValueError* error) {
  ValueCursor c(raw);
  auto ints = [&](char open, char close, std::vector<int64_t>* values) {
    values->clear();
    c.SkipWs();
    if (!c.TryConsume(open)) {
      *error = {c.pos(), absl::StrCat("expected '", std::string(1, open), "'")};
      return false;
    }
    while (true) {
      c.SkipWs();
      auto v = c.ReadInt();
      if (!v) {
        *error = {c.pos(), "expected an integer"};
        return false;
      }
      values->push_back(*v);
      if (c.TryConsume(close)) return true;
      if (!c.TryConsume(',')) {
        c.SkipWs();
        *error = {c.pos(), absl::StrCat("expected ',' or '", std::string(1, close), "'")};
        return false;
      }
    }
  };
  std::vector<int64_t> sizes;
  if (!ints('[', ']', &sizes)) return false;
  if (sizes.size() != 2) {
    *error = {0, "expected [num_groups,group_size]"};
    return false;
  }
  out->num_groups = sizes[0];
  out->group_size = sizes[1];
  if (!c.TryConsume("<=")) {
    c.SkipWs();
    *error = {c.pos(), "expected '<=' after [num_groups,group_size]"};
    return false;
  }
  if (!ints('[', ']', &out->reshape_dims)) return false;
  out->transpose_perm.clear();
  if (c.TryConsume('T')) {
    if (!ints('(', ')', &out->transpose_perm)) return false;
  }
  if (!c.AtEnd()) {
    *error = {c.pos(), "unexpected text after the iota replica groups"};
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------

void Parser::SkipWs() {
  while (pos_ < end_) {
    char c = text_[pos_];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && text_[pos_ + 1] == '/') {
      while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && text_[pos_ + 1] == '*') {
      size_t close = text_.find("*/", pos_ + 2);
      pos_ = (close == absl::string_view::npos || close + 2 > end_) ? end_ : close + 2;
    } else {
      break;
    }
  }
}

bool Parser::TryConsumeWord(absl::string_view word) {
  SkipWs();
  if (absl::StartsWith(text_.substr(pos_, end_ - pos_), word)) {
    size_t after = pos_ + word.size();
    if (after >= end_ || !IsNameChar(text_[after])) {
      pos_ = after;
      return true;
    }
  }
  return false;
}

absl::Status Parser::Expect(char c, absl::string_view what) {
  if (TryConsume(c)) return absl::OkStatus();
  char got = Peek();
  return Error(absl::StrCat(
      "expected '", std::string(1, c), "' ", what, ", got ",
      got == '\0' ? std::string("end of input") : absl::StrCat("'", std::string(1, got), "'")));
}

std::string Parser::ReadName() {
  SkipWs();
  size_t start = pos_;
  if (pos_ < end_ && text_[pos_] == '%') ++pos_;
  size_t name_start = pos_;
  while (pos_ < end_ && IsNameChar(text_[pos_])) ++pos_;
  if (pos_ == name_start) {
    pos_ = start;
    return "";
  }
  return std::string(text_.substr(name_start, pos_ - name_start));
}

absl::StatusOr<int64_t> Parser::ReadInt(absl::string_view what) {
  SkipWs();
  size_t start = pos_;
  if (pos_ < end_ && text_[pos_] == '-') ++pos_;
  while (pos_ < end_ && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  int64_t v;
  if (!absl::SimpleAtoi(text_.substr(start, pos_ - start), &v)) {
    pos_ = start;
    return Error(absl::StrCat("expected an integer (", what, ")"));
  }
  return v;
}

absl::Status Parser::ErrorAt(size_t pos, absl::string_view message) const {
  int line = 1, col = 1;
  for (size_t i = 0; i < pos && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  std::string where = current_instruction_.empty()
                          ? ""
                          : absl::StrCat("instruction '", current_instruction_, "': ");
  return absl::InvalidArgumentError(absl::StrCat(line, ":", col, ": ", where, message));
}

absl::StatusOr<absl::string_view> Parser::ScanRawValue() {
  SkipWs();
  size_t start = pos_;
  std::vector<char> stack;
  while (pos_ < end_) {
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      while (pos_ < end_ && text_[pos_] != '"') {
        if (text_[pos_] == '\\') ++pos_;
        ++pos_;
      }
      if (pos_ >= end_) return ErrorAt(start, "unterminated string");
      ++pos_;
      continue;
    }
    if (stack.empty() && (c == ',' || std::isspace(static_cast<unsigned char>(c)) || c == ')' ||
                          c == '}' || c == ']')) {
      break;
    }
    if (c == '{' || c == '(' || c == '[') {
      if (stack.size() >= kMaxNesting) return ErrorAt(pos_, "nesting too deep");
      stack.push_back(c == '{' ? '}' : c == '(' ? ')' : ']');
    } else if (c == '}' || c == ')' || c == ']') {
      if (stack.back() != c) {
        return ErrorAt(pos_, absl::StrCat("unbalanced '", std::string(1, c), "'"));
      }
      stack.pop_back();
    }
    ++pos_;
  }
  if (!stack.empty()) return ErrorAt(start, "unterminated attribute value");
  if (pos_ == start) return ErrorAt(start, "expected an attribute value");
  return text_.substr(start, pos_ - start);
}

absl::StatusOr<absl::string_view> Parser::ScanUntilMatchingParen() {
  size_t start = pos_;
  int depth = 0;
  while (pos_ < end_) {
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      while (pos_ < end_ && text_[pos_] != '"') {
        if (text_[pos_] == '\\') ++pos_;
        ++pos_;
      }
      if (pos_ >= end_) break;
    } else if (c == '(' || c == '{' || c == '[') {
      if (++depth > kMaxNesting * 4) return ErrorAt(pos_, "nesting too deep");
    } else if (c == ')' || c == '}' || c == ']') {
      if (depth == 0) {
        if (c != ')') return ErrorAt(pos_, "unbalanced brackets");
        absl::string_view inner = text_.substr(start, pos_ - start);
        ++pos_;
        return inner;
      }
      --depth;
    }
    ++pos_;
  }
  return ErrorAt(start, "missing ')'");
}

absl::StatusOr<ProgramShape> Parser::ParseSignatureAfterParen(bool named, absl::string_view where) {
  ProgramShape ps;
  if (!TryConsume(')')) {
    while (true) {
      if (named) {
        std::string param = ReadName();
        if (param.empty()) return Error("expected a parameter name in the signature");
        AOT_RETURN_IF_ERROR(Expect(':', "after a signature parameter name"));
        ps.parameter_names.push_back(std::move(param));
      }
      AOT_ASSIGN_OR_RETURN(Shape shape, ParseShape());
      ps.parameters.push_back(std::move(shape));
      if (TryConsume(')')) break;
      AOT_RETURN_IF_ERROR(
          Expect(',', named ? "between signature parameters" : "between parameter shapes"));
    }
  }
  SkipWs();
  if (!absl::StartsWith(text_.substr(pos_, end_ - pos_), "->")) {
    return Error(absl::StrCat("expected '->' ", where));
  }
  pos_ += 2;
  AOT_ASSIGN_OR_RETURN(ps.result, ParseShape());
  return ps;
}

absl::StatusOr<Shape> Parser::ParseShape(int depth) {
  if (depth > kMaxNesting) return Error("shape nesting too deep");
  if (TryConsume('(')) {
    std::vector<Shape> elements;
    if (!TryConsume(')')) {
      while (true) {
        AOT_ASSIGN_OR_RETURN(auto s, ParseShape(depth + 1));
        elements.push_back(std::move(s));
        if (TryConsume(')')) break;
        AOT_RETURN_IF_ERROR(Expect(',', "between tuple element shapes"));
      }
    }
    return Shape::Tuple(std::move(elements));
  }
  SkipWs();
  size_t type_pos = pos_;
  std::string type_name;
  while (pos_ < end_ && std::isalnum(static_cast<unsigned char>(text_[pos_]))) {
    type_name.push_back(text_[pos_++]);
  }
  if (type_name.empty()) return Error("expected a shape");
  auto type = ParsePrimitiveTypeName(type_name);
  AOT_RETURN_IF_ERROR_AND(type, ErrorAt(type_pos, _.message()));
  if (pos_ >= end_ || text_[pos_] != '[') {
    return ErrorAt(pos_, absl::StrCat("expected '[' after element type '", type_name, "'"));
  }
  ++pos_;
  std::vector<int64_t> dims;
  if (!TryConsume(']')) {
    while (true) {
      SkipWs();
      if (pos_ + 1 < end_ && text_[pos_] == '<' && text_[pos_ + 1] == '=') {
        pos_ += 2;  // bounded dynamic: the shape keeps the bound (dynamic_dimensions.h)
      }
      AOT_ASSIGN_OR_RETURN(auto d, ReadInt("dimension size"));
      if (d < 0 || d > kMaxDimension) {
        return Error(absl::StrCat("dimension size ", d, " out of range"));
      }
      dims.push_back(d);
      if (TryConsume(']')) break;
      AOT_RETURN_IF_ERROR(Expect(',', "between dimensions"));
    }
  }
  if (*type == TOKEN) return Shape::Token();
  Shape shape(*type, std::move(dims));
  // Layout: '{' directly followed by digits, ':' or '}'.
  size_t save = pos_;
  SkipWs();
  if (pos_ < end_ && text_[pos_] == '{') {
    size_t look = pos_ + 1;
    while (look < end_ && text_[look] == ' ') ++look;
    bool is_layout = look < end_ && (std::isdigit(static_cast<unsigned char>(text_[look])) ||
                                     text_[look] == '}' || text_[look] == ':');
    if (is_layout) {
      ++pos_;
      std::vector<int64_t> m2m;
      while (Peek() != '}' && Peek() != ':') {
        AOT_ASSIGN_OR_RETURN(auto d, ReadInt("layout dimension"));
        m2m.push_back(d);
        if (!TryConsume(',')) break;
      }
      int64_t element_bits = 0;
      if (TryConsume(':')) {
        // The element size E(n) is kept; tiling T(...), memory space S(n)
        // and the rest are skipped to the matching '}'.
        int depth_braces = 0;
        while (pos_ < end_ && !(text_[pos_] == '}' && depth_braces == 0)) {
          if (depth_braces == 0 && text_[pos_] == 'E' && pos_ + 1 < end_ &&
              text_[pos_ + 1] == '(') {
            pos_ += 2;
            AOT_ASSIGN_OR_RETURN(element_bits, ReadInt("element size in bits"));
            AOT_RETURN_IF_ERROR(Expect(')', "closing the element size E(...)"));
            continue;
          }
          if (text_[pos_] == '(' || text_[pos_] == '{') ++depth_braces;
          if (text_[pos_] == ')' || text_[pos_] == '}') --depth_braces;
          ++pos_;
        }
      }
      AOT_RETURN_IF_ERROR(Expect('}', "closing the layout"));
      if (!m2m.empty() || shape.rank() == 0 || element_bits != 0) {
        ShapeProto proto = shape.ToProto();
        for (int64_t d : m2m) proto.mutable_layout()->add_minor_to_major(d);
        if (element_bits != 0) proto.mutable_layout()->set_element_size_in_bits(element_bits);
        auto with_layout = Shape::FromProto(proto);
        AOT_RETURN_IF_ERROR_AND(with_layout, Error(_.message()));
        return with_layout;
      }
      return shape;
    }
  }
  pos_ = save;
  return shape;
}

absl::Status Parser::ParseModuleHeader(HloModule& module) {
  // The header is optional, as in XLA's parser (test files and HLO strings
  // in C++ tests usually omit it): the module then has a default name.
  if (!TryConsumeWord("HloModule")) {
    module.set_name(std::string(kDefaultHloModuleName));
    return absl::OkStatus();
  }
  std::string name = ReadName();
  if (name.empty()) return Error("expected a module name after 'HloModule'");
  module.set_name(name);
  while (TryConsume(',')) {
    std::string key = ReadName();
    if (key.empty()) return Error("expected a module attribute name");
    AOT_RETURN_IF_ERROR(Expect('=', absl::StrCat("after '", key, "'")));
    SkipWs();
    size_t value_pos = pos_;
    if (key == "entry_computation_layout") {
      AOT_RETURN_IF_ERROR(Expect('{', "opening entry_computation_layout"));
      AOT_RETURN_IF_ERROR(Expect('(', "opening the parameter shapes"));
      AOT_ASSIGN_OR_RETURN(ProgramShape ps, ParseSignatureAfterParen(
                                                /*named=*/false, "in entry_computation_layout"));
      AOT_RETURN_IF_ERROR(Expect('}', "closing entry_computation_layout"));
      module.mutable_config()->entry_computation_layout = std::move(ps);
      continue;
    }
    if (key == "input_output_alias") {
      AOT_ASSIGN_OR_RETURN(module.mutable_config()->input_output_aliases, ParseInputOutputAlias());
      continue;
    }
    AOT_ASSIGN_OR_RETURN(auto raw, ScanRawValue());
    if (key == "replica_count" || key == "num_partitions") {
      int64_t v;
      if (!absl::SimpleAtoi(raw, &v) || v < 1) {
        return ErrorAt(value_pos, absl::StrCat("invalid ", key, " '", raw, "'"));
      }
      (key == "replica_count" ? module.mutable_config()->replica_count
                              : module.mutable_config()->num_partitions) = v;
    }
    // Other header attributes (is_scheduled, frontend_attributes, ...) are
    // accepted and ignored.
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> Parser::ParseShapeIndex(absl::string_view what) {
  AOT_RETURN_IF_ERROR(Expect('{', absl::StrCat("opening ", what)));
  std::vector<int64_t> index;
  if (TryConsume('}')) return index;
  do {
    AOT_ASSIGN_OR_RETURN(int64_t i, ReadInt(what));
    if (i < 0) return Error(absl::StrCat("negative element in ", what));
    index.push_back(i);
  } while (TryConsume(','));
  AOT_RETURN_IF_ERROR(Expect('}', absl::StrCat("closing ", what)));
  return index;
}

absl::StatusOr<std::vector<HloInputOutputAlias>> Parser::ParseInputOutputAlias() {
  // XLA's form: { {0}: (0, {}, may-alias), {1}: (1, {0}) }; the kind is
  // optional (may-alias).
  AOT_RETURN_IF_ERROR(Expect('{', "opening input_output_alias"));
  std::vector<HloInputOutputAlias> aliases;
  if (TryConsume('}')) return aliases;
  do {
    HloInputOutputAlias a;
    AOT_ASSIGN_OR_RETURN(a.output_index, ParseShapeIndex("the aliased output index"));
    AOT_RETURN_IF_ERROR(Expect(':', "after the aliased output index"));
    AOT_RETURN_IF_ERROR(Expect('(', "opening the aliased parameter"));
    AOT_ASSIGN_OR_RETURN(a.parameter_number, ReadInt("the aliased parameter number"));
    if (a.parameter_number < 0) return Error("negative aliased parameter number");
    AOT_RETURN_IF_ERROR(Expect(',', "after the aliased parameter number"));
    AOT_ASSIGN_OR_RETURN(a.parameter_index, ParseShapeIndex("the aliased parameter index"));
    if (TryConsume(',')) {
      SkipWs();
      size_t kind_pos = pos_;
      std::string kind = ReadName();
      if (kind == "must-alias") {
        a.must_alias = true;
      } else if (kind != "may-alias") {
        return ErrorAt(kind_pos,
                       absl::StrCat("expected may-alias or must-alias, got '", kind, "'"));
      }
    }
    AOT_RETURN_IF_ERROR(Expect(')', "closing the aliased parameter"));
    aliases.push_back(std::move(a));
  } while (TryConsume(','));
  AOT_RETURN_IF_ERROR(Expect('}', "closing input_output_alias"));
  return aliases;
}

// One floating-point value of a literal: a decimal number, nan, inf.
absl::StatusOr<double> Parser::ParseFloatToken(absl::string_view tok, PrimitiveType t,
                                               size_t text_pos) {
  // The common case, a decimal number, through std::from_chars (exact
  // and several times faster than strtod: constants can have millions
  // of elements); names and anything it rejects take the slow path.
  double v;
  if (tok.empty()) {
    return ErrorAt(text_pos, absl::StrCat("missing ", PrimitiveTypeName(t), " value"));
  }
  const char* first = tok.data() + (tok[0] == '+' ? 1 : 0);
  const char* last = tok.data() + tok.size();
  if (auto [end, error] = std::from_chars(first, last, v);
      error == std::errc() && end == last && first != last && !absl::ascii_isalpha(first[0]) &&
      !absl::ascii_isalpha(first[first[0] == '-' ? 1 : 0])) {
    return v;
  }
  std::string lower = absl::AsciiStrToLower(tok);
  if (absl::string_view payload = lower;
      (absl::ConsumePrefix(&payload, "nan(0x") || absl::ConsumePrefix(&payload, "-nan(0x") ||
       absl::ConsumePrefix(&payload, "+nan(0x")) &&
      absl::ConsumeSuffix(&payload, ")")) {
    // XLA writes a NaN whose payload is not the canonical one as
    // nan(0x<payload>), the payload being the element type's mantissa bits.
    // It travels in the double's mantissa at the type's place (its top
    // bits), which the conversion to the element type keeps for f64, f32,
    // f16 and bf16; the 8-bit and smaller types keep the NaN and its sign.
    uint64_t bits = 0;
    if (payload.empty() || payload.size() > 13 || !absl::SimpleHexAtoi(payload, &bits) ||
        bits == 0) {
      return ErrorAt(text_pos, absl::StrCat("invalid NaN payload in '", tok, "'"));
    }
    const int mantissa_bits = NanPayloadBits(t);
    if (mantissa_bits > 0 && bits >> mantissa_bits != 0) {
      return ErrorAt(text_pos,
                     absl::StrCat("NaN payload in '", tok, "' does not fit the ", mantissa_bits,
                                  " mantissa bits of ", PrimitiveTypeName(t)));
    }
    uint64_t d = (uint64_t{0x7ff} << 52) |
                 (mantissa_bits > 0 ? bits << (52 - mantissa_bits) : uint64_t{1} << 51);
    if (lower[0] == '-') d |= uint64_t{1} << 63;
    std::memcpy(&v, &d, sizeof(v));
    return v;
  }
  if (lower == "nan" || lower == "-nan" || lower == "+nan") {
    v = lower[0] == '-' ? -std::numeric_limits<double>::quiet_NaN()
                        : std::numeric_limits<double>::quiet_NaN();
  } else if (lower == "inf" || lower == "+inf") {
    v = std::numeric_limits<double>::infinity();
  } else if (lower == "-inf") {
    v = -std::numeric_limits<double>::infinity();
  } else if (!absl::SimpleAtod(tok, &v) || std::isnan(v)) {
    return ErrorAt(text_pos, absl::StrCat("invalid ", PrimitiveTypeName(t), " value '", tok, "'"));
  }
  return v;
}

absl::StatusOr<Literal> Parser::ParseLiteral(const Shape& shape, absl::string_view text,
                                             size_t text_pos, bool* elided,
                                             absl::string_view instr_name) {
  *elided = false;
  std::string compact;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) compact.push_back(c);
  }
  if (shape.IsTuple()) {
    // "(v0, v1, ...)": split at top-level commas.
    if (compact.size() < 2 || compact.front() != '(' || compact.back() != ')') {
      return ErrorAt(text_pos, "expected a parenthesized tuple literal");
    }
    std::vector<absl::string_view> parts;
    absl::string_view inner = absl::string_view(text).substr(0);
    // Work on the original text to keep positions roughly right.
    size_t open = inner.find('(');
    size_t close = inner.rfind(')');
    inner = inner.substr(open + 1, close - open - 1);
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < inner.size(); ++i) {
      char c = inner[i];
      if (c == '(' || c == '{') ++depth;
      if (c == ')' || c == '}') --depth;
      if (c == ',' && depth == 0) {
        parts.push_back(inner.substr(start, i - start));
        start = i + 1;
      }
    }
    if (!absl::StripAsciiWhitespace(inner).empty()) {
      parts.push_back(inner.substr(start));
    }
    if (parts.size() != shape.tuple_shapes().size()) {
      return ErrorAt(text_pos, absl::StrCat("tuple literal has ", parts.size(),
                                            " elements, shape has ", shape.tuple_shapes().size()));
    }
    std::vector<Literal> elements;
    for (size_t i = 0; i < parts.size(); ++i) {
      bool sub_elided = false;
      AOT_ASSIGN_OR_RETURN(
          auto e, ParseLiteral(shape.tuple_shapes(i), parts[i], text_pos, &sub_elided, instr_name));
      *elided |= sub_elided;
      elements.push_back(std::move(e));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!shape.IsArray()) return ErrorAt(text_pos, "constant of non-array shape");
  Literal literal(shape);
  int64_t n = shape.ElementCount();
  if (compact == "{...}") {
    if (n > kMaxElidedElements) {
      return ErrorAt(text_pos, "elided constant too large to fill");
    }
    *elided = true;
    uint64_t state = options_.elided_constant_seed ^ HashName(instr_name);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t r = SplitMix64(state);
      PrimitiveType t = shape.element_type();
      if (t == PRED) {
        literal.SetFromInt64(i, static_cast<int64_t>(r & 1));
      } else if (IsFloatingPoint(t)) {
        literal.SetFromDouble(i, static_cast<double>(r >> 11) * 0x1.0p-53 * 2.0 - 1.0);
      } else {
        literal.SetFromInt64(i, static_cast<int64_t>(r % 16));
      }
    }
    return literal;
  }
  // Collect leaf tokens, ignoring braces; check structure by count.
  std::vector<std::string> tokens;
  std::vector<std::complex<double>> complex_values;
  int depth = 0, max_depth = 0;
  std::string current;
  for (char c : compact) {
    if (c == '{') {
      if (++depth > kMaxNesting) return ErrorAt(text_pos, "literal nesting too deep");
      max_depth = std::max(max_depth, depth);
    } else if (c == '}') {
      if (--depth < 0) return ErrorAt(text_pos, "unbalanced '}' in literal");
    }
    if (c == '{' || c == '}' || c == ',') {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
      continue;
    }
    current.push_back(c);
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  if (depth != 0) return ErrorAt(text_pos, "unbalanced '{' in literal");
  if (shape.rank() > 0 && max_depth != shape.rank() && n > 0) {
    return ErrorAt(text_pos,
                   absl::StrCat("literal nesting depth ", max_depth, " does not match rank ",
                                shape.rank(), " of ", shape.ToString()));
  }
  PrimitiveType t = shape.element_type();
  if (IsComplex(t)) {
    // XLA writes each element as "(real, imag)": the split at commas left
    // "(real" and "imag)".
    std::vector<std::string> paired;
    for (size_t k = 0; k < tokens.size(); k += 2) {
      if (k + 1 >= tokens.size() || tokens[k].size() < 2 || tokens[k].front() != '(' ||
          tokens[k + 1].size() < 2 || tokens[k + 1].back() != ')') {
        return ErrorAt(text_pos, absl::StrCat("invalid ", PrimitiveTypeName(t), " value near '",
                                              tokens[k], "': expected (real, imag)"));
      }
      AOT_ASSIGN_OR_RETURN(const double re, ParseFloatToken(tokens[k].substr(1), t, text_pos));
      AOT_ASSIGN_OR_RETURN(
          const double im,
          ParseFloatToken(tokens[k + 1].substr(0, tokens[k + 1].size() - 1), t, text_pos));
      paired.push_back(tokens[k]);
      complex_values.emplace_back(re, im);
    }
    tokens = std::move(paired);
  }
  if (static_cast<int64_t>(tokens.size()) != n) {
    return ErrorAt(text_pos, absl::StrCat("literal has ", tokens.size(), " values, shape ",
                                          shape.ToString(), " needs ", n));
  }
  for (int64_t i = 0; i < n; ++i) {
    const std::string& tok = tokens[i];
    if (IsComplex(t)) {
      literal.SetFromComplex(i, complex_values[i]);
    } else if (t == PRED) {
      if (tok == "true" || tok == "1") {
        literal.SetFromInt64(i, 1);
      } else if (tok == "false" || tok == "0") {
        literal.SetFromInt64(i, 0);
      } else {
        return ErrorAt(text_pos, absl::StrCat("invalid pred value '", tok, "'"));
      }
    } else if (IsFloatingPoint(t)) {
      AOT_ASSIGN_OR_RETURN(const double v, ParseFloatToken(tok, t, text_pos));
      literal.SetFromDouble(i, v);
    } else if (IsUnsignedInteger(t)) {
      uint64_t v;
      if (!absl::SimpleAtoi(tok, &v)) {
        return ErrorAt(text_pos,
                       absl::StrCat("invalid ", PrimitiveTypeName(t), " value '", tok, "'"));
      }
      const int bits =
          IsNarrowInteger(t) ? NarrowIntegerBits(t) : 8 * static_cast<int>(ByteWidth(t));
      if (bits < 64 && v >> bits != 0) {
        return ErrorAt(text_pos,
                       absl::StrCat("value ", tok, " out of range for ", PrimitiveTypeName(t)));
      }
      literal.SetFromUint64(i, v);
    } else {
      int64_t v;
      if (!absl::SimpleAtoi(tok, &v)) {
        return ErrorAt(text_pos,
                       absl::StrCat("invalid ", PrimitiveTypeName(t), " value '", tok, "'"));
      }
      const int bits =
          IsNarrowInteger(t) ? NarrowIntegerBits(t) : 8 * static_cast<int>(ByteWidth(t));
      if (bits < 64 && (v < -(int64_t{1} << (bits - 1)) || v >= (int64_t{1} << (bits - 1)))) {
        return ErrorAt(text_pos,
                       absl::StrCat("value ", tok, " out of range for ", PrimitiveTypeName(t)));
      }
      literal.SetFromInt64(i, v);
    }
  }
  return literal;
}

absl::Status Parser::ParseAttribute(HloInstruction& instr, absl::string_view name,
                                    absl::string_view value, size_t value_pos) {
  HloAttributes& at = *instr.mutable_attrs();
  auto bad = [&](absl::string_view what) {
    return ErrorAt(value_pos, absl::StrCat("invalid ", name, " '", value, "'",
                                           what.empty() ? "" : ": ", what));
  };
  auto int_list = [&](std::vector<int64_t>* out) -> absl::Status {
    auto v = ParseIntList(value);
    if (!v) return bad("expected {i,j,...}");
    *out = *v;
    return absl::OkStatus();
  };
  auto int_value = [&](auto* out) -> absl::Status {
    int64_t v;
    if (!absl::SimpleAtoi(value, &v)) return bad("expected an integer");
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(v);
    return absl::OkStatus();
  };
  auto bool_value = [&](bool* out) -> absl::Status {
    auto v = ParseBoolValue(value);
    if (!v) return bad("expected true or false");
    *out = *v;
    return absl::OkStatus();
  };
  auto computation_ref = [&](size_t slot) -> absl::Status {
    auto n = ParseComputationName(value);
    if (!n) return bad("expected a computation name");
    pending_refs_.push_back({&instr, slot, *n, value_pos});
    return absl::OkStatus();
  };
  auto dot = [&]() -> DotDimensionNumbersProto& {
    if (!at.dot_dimension_numbers) at.dot_dimension_numbers.emplace();
    return *at.dot_dimension_numbers;
  };
  auto gather = [&]() -> GatherDimensionNumbersProto& {
    if (!at.gather_dimension_numbers) at.gather_dimension_numbers.emplace();
    return *at.gather_dimension_numbers;
  };
  auto scatter = [&]() -> ScatterDimensionNumbersProto& {
    if (!at.scatter_dimension_numbers) at.scatter_dimension_numbers.emplace();
    return *at.scatter_dimension_numbers;
  };
  HloOpcode op = instr.opcode();

  // Stores a successfully parsed value into an attribute field, or fails
  // saying what was expected.
  auto assign = [&](auto parsed, auto& field, absl::string_view expected) -> absl::Status {
    if (!parsed) return bad(expected);
    field = *std::move(parsed);
    return absl::OkStatus();
  };

  if (IsCollectiveOpcode(op)) {
    AOT_ASSIGN_OR_RETURN(bool parsed, ParseCollectiveAttribute(instr, name, value, value_pos));
    if (parsed) return absl::OkStatus();
  }
  if (name == "dimensions") return int_list(&at.dimensions);
  if (name == "iota_dimension") {
    int64_t d = 0;
    AOT_RETURN_IF_ERROR(int_value(&d));
    at.dimensions = {d};
    return absl::OkStatus();
  }
  if (name == "index") return int_value(&at.tuple_index);
  if (name == "slice") {
    return assign(ParseSlice(value), at.slice, "expected {[start:limit:stride], ...}");
  }
  if (name == "dynamic_slice_sizes") return int_list(&at.dynamic_slice_sizes);
  if (name == "padding") {
    return assign(ParsePadding(value), at.padding_config, "expected low_high[_interior]x...");
  }
  if (name == "window") {
    return assign(ParseWindow(value), at.window,
                  "expected {size=AxB stride=... pad=l_hx... lhs_dilate=... "
                  "rhs_dilate=...}");
  }
  if (name == "dim_labels") {
    return assign(ParseDimLabels(value), at.convolution_dimension_numbers,
                  "expected labels like b01f_01io->b01f");
  }
  if (name == "feature_group_count") return int_value(&at.feature_group_count);
  if (name == "batch_group_count") return int_value(&at.batch_group_count);
  // Dimension numbers of dot, gather and scatter: an attribute names a
  // field of the opcode's dimension-numbers proto (dot's "*_dims" are its
  // "*_dimensions"); lists are {i,j,...}, index_vector_dim an integer.
  {
    std::string field_name(name);
    const google::protobuf::Descriptor* descriptor = nullptr;
    if (absl::EndsWith(name, "_dims") &&
        DotDimensionNumbersProto::descriptor()->FindFieldByName(
            absl::StrCat(name.substr(0, name.size() - 4), "dimensions")) != nullptr) {
      descriptor = DotDimensionNumbersProto::descriptor();
      field_name = absl::StrCat(name.substr(0, name.size() - 4), "dimensions");
    } else if (op == HloOpcode::kGather) {
      descriptor = GatherDimensionNumbersProto::descriptor();
    } else if (op == HloOpcode::kScatter) {
      descriptor = ScatterDimensionNumbersProto::descriptor();
    }
    const google::protobuf::FieldDescriptor* field =
        descriptor == nullptr ? nullptr : descriptor->FindFieldByName(field_name);
    if (field != nullptr) {
      google::protobuf::Message& dnums = descriptor == DotDimensionNumbersProto::descriptor()
                                             ? static_cast<google::protobuf::Message&>(dot())
                                         : descriptor == GatherDimensionNumbersProto::descriptor()
                                             ? static_cast<google::protobuf::Message&>(gather())
                                             : static_cast<google::protobuf::Message&>(scatter());
      const google::protobuf::Reflection* reflection = dnums.GetReflection();
      if (field->is_repeated()) {
        auto parsed = ParseIntList(value);
        if (!parsed) return bad("expected {i,j,...}");
        auto values = reflection->GetMutableRepeatedFieldRef<int64_t>(&dnums, field);
        values.Clear();
        for (int64_t v : *parsed) values.Add(v);
      } else {
        int64_t v;
        AOT_RETURN_IF_ERROR(int_value(&v));
        reflection->SetInt64(&dnums, field, v);
      }
      return absl::OkStatus();
    }
  }
  if (op == HloOpcode::kGather && name == "slice_sizes") {
    return int_list(&at.gather_slice_sizes);
  }
  if (name == "indices_are_sorted") return bool_value(&at.indices_are_sorted);
  if (name == "unique_indices") return bool_value(&at.unique_indices);
  if (name == "is_stable") return bool_value(&at.is_stable);
  if (name == "direction") {
    auto d = ParseComparisonDirection(value);
    if (!d.ok()) return bad("expected EQ, NE, LT, LE, GT or GE");
    at.comparison_direction = *d;
    return absl::OkStatus();
  }
  if (name == "type" && op == HloOpcode::kCompare) {
    if (value != "FLOAT" && value != "TOTALORDER" && value != "SIGNED" && value != "UNSIGNED" &&
        value != "PARTIALORDER") {
      return bad("expected FLOAT, TOTALORDER, SIGNED or UNSIGNED");
    }
    at.comparison_type = std::string(value);
    return absl::OkStatus();
  }
  if (name == "exponent_bits") return int_value(&at.exponent_bits);
  if (name == "mantissa_bits") return int_value(&at.mantissa_bits);
  if (name == "custom_call_target") {
    ValueCursor c(value);
    auto s = c.ReadQuoted();
    if (!s || !c.AtEnd()) return bad("expected a quoted string");
    at.custom_call_target = *s;
    return absl::OkStatus();
  }
  if (name == "api_version") {
    if (value == "API_VERSION_TYPED_FFI") {
      at.custom_call_api_version = 4;
    } else if (value == "API_VERSION_ORIGINAL") {
      at.custom_call_api_version = 1;
    } else if (value == "API_VERSION_STATUS_RETURNING") {
      at.custom_call_api_version = 2;
    } else if (value == "API_VERSION_STATUS_RETURNING_UNIFIED") {
      at.custom_call_api_version = 3;
    } else {
      return bad("unknown custom-call API version");
    }
    return absl::OkStatus();
  }
  if (name == "backend_config") {
    if (!value.empty() && value[0] == '"') {
      ValueCursor c(value);
      auto s = c.ReadQuoted();
      if (!s || !c.AtEnd()) return bad("expected a quoted string or {...}");
      at.backend_config = *s;
    } else {
      at.backend_config = std::string(value);
    }
    return absl::OkStatus();
  }
  if (name == "operand_precision") {
    ValueCursor c(value);
    if (!c.TryConsume('{')) return bad("expected {p,q}");
    at.operand_precision.clear();
    while (!c.TryConsume('}')) {
      std::string p = c.ReadWord();
      if (p.empty()) return bad("expected {p,q}");
      at.operand_precision.push_back(p);
      c.TryConsume(',');
    }
    return absl::OkStatus();
  }
  if (name == "metadata") {
    return assign(ParseMetadata(value), at.metadata,
                  "expected {op_type=\"...\" op_name=\"...\" ...}");
  }
  if (name == "frontend_attributes") {
    return assign(ParseFrontendAttributes(value), at.frontend_attributes,
                  "expected {key=\"value\",...}");
  }
  if (name == "sharding") {
    at.sharding = std::string(value);
    return absl::OkStatus();
  }
  if (name == "kind" && op == HloOpcode::kFusion) {
    at.fusion_kind = std::string(value);
    return absl::OkStatus();
  }
  // Called computations, by role.
  if (name == "to_apply" || name == "calls") return computation_ref(0);
  if (name == "condition" || name == "true_computation" || name == "select") {
    return computation_ref(0);
  }
  if (name == "body" || name == "false_computation" || name == "scatter") {
    return computation_ref(1);
  }
  if (name == "branch_computations") {
    auto list = ParseComputationList(value);
    if (!list) return bad("expected {%a, %b, ...}");
    for (size_t i = 0; i < list->size(); ++i) {
      pending_refs_.push_back({&instr, i, (*list)[i], value_pos});
    }
    return absl::OkStatus();
  }
  // Anything else is kept verbatim (and printed back), never interpreted.
  at.unknown_attributes.emplace_back(std::string(name), std::string(value));
  return absl::OkStatus();
}

absl::StatusOr<bool> Parser::ParseCollectiveAttribute(HloInstruction& instr, absl::string_view name,
                                                      absl::string_view value, size_t value_pos) {
  HloAttributes& at = *instr.mutable_attrs();
  const HloOpcode op = instr.opcode();
  auto bad = [&](size_t offset, absl::string_view what) {
    return ErrorAt(value_pos + offset, absl::StrCat("invalid ", name, " '", value, "': ", what));
  };
  const bool is_done = IsAsyncCollectiveDone(op);
  const bool is_permute =
      op == HloOpcode::kCollectivePermute || op == HloOpcode::kCollectivePermuteStart;
  const bool takes_global_ids = op == HloOpcode::kAllReduce || op == HloOpcode::kAllReduceStart ||
                                op == HloOpcode::kAllGather || op == HloOpcode::kAllGatherStart ||
                                op == HloOpcode::kReduceScatter;
  if (name == "replica_groups" && HasReplicaGroups(op)) {
    ValueError error;
    if (!value.empty() && value[0] == '[') {
      IotaReplicaGroupList iota;
      if (!ReadIotaReplicaGroups(value, &iota, &error)) return bad(error.offset, error.expected);
      auto groups = ExpandIotaReplicaGroupList(iota);
      AOT_RETURN_IF_ERROR_AND(groups, bad(0, _.message()));
      at.replica_groups = *std::move(groups);
      at.iota_replica_groups = std::move(iota);
      return true;
    }
    if (!ReadIntGroups(value, &at.replica_groups, &error)) {
      return bad(error.offset, error.expected);
    }
    at.iota_replica_groups.reset();
    return true;
  }
  if (name == "channel_id" && !is_done) {
    int64_t v;
    if (!absl::SimpleAtoi(value, &v)) return bad(0, "expected an integer");
    if (v < 1) return bad(0, "channel ids are >= 1");
    at.channel_id = v;
    return true;
  }
  if ((name == "use_global_device_ids" && takes_global_ids) ||
      (name == "constrain_layout" && HasReplicaGroups(op))) {
    auto v = ParseBoolValue(value);
    if (!v) return bad(0, "expected true or false");
    (name == "constrain_layout" ? at.constrain_layout : at.use_global_device_ids) = *v;
    return true;
  }
  if (name == "source_target_pairs" && is_permute) {
    std::vector<std::vector<int64_t>> pairs;
    ValueError error;
    if (!ReadIntGroups(value, &pairs, &error)) return bad(error.offset, error.expected);
    at.source_target_pairs.clear();
    for (const std::vector<int64_t>& pair : pairs) {
      if (pair.size() != 2) return bad(0, "expected {{source,target},...}");
      at.source_target_pairs.emplace_back(pair[0], pair[1]);
    }
    return true;
  }
  return false;
}

absl::Status Parser::ParseInstruction(HloComputation& computation, bool* is_root) {
  *is_root = TryConsumeWord("ROOT");
  SkipWs();
  size_t name_pos = pos_;
  std::string name = ReadName();
  if (name.empty()) return Error("expected an instruction name");
  current_instruction_ = name;
  if (Named(computation, name) != nullptr) {
    return ErrorAt(name_pos, "duplicate instruction name");
  }
  AOT_RETURN_IF_ERROR(Expect('=', "after the instruction name"));
  auto shape = ParseShape();
  AOT_RETURN_IF_ERROR(shape);
  SkipWs();
  size_t opcode_pos = pos_;
  std::string opcode_text;
  while (pos_ < end_ && IsNameChar(text_[pos_])) opcode_text.push_back(text_[pos_++]);
  if (opcode_text.empty()) return Error("expected an opcode");
  auto opcode = StringToHloOpcode(opcode_text);
  AOT_RETURN_IF_ERROR_AND(opcode, ErrorAt(opcode_pos, _.message()));
  AOT_RETURN_IF_ERROR(Expect('(', "after the opcode"));

  std::unique_ptr<HloInstruction> instr;
  if (*opcode == HloOpcode::kConstant) {
    size_t literal_pos = pos_;
    AOT_ASSIGN_OR_RETURN(auto raw, ScanUntilMatchingParen());
    bool elided = false;
    AOT_ASSIGN_OR_RETURN(auto literal, ParseLiteral(*shape, raw, literal_pos, &elided, name));
    literal.set_layout(shape->minor_to_major());
    instr = HloInstruction::CreateConstant(std::move(literal));
    *instr->mutable_shape() = *shape;
    instr->mutable_attrs()->literal_was_elided = elided;
    if (elided) result_.elided_constants.push_back(name);
  } else if (*opcode == HloOpcode::kParameter) {
    auto number = ReadInt("parameter number");
    AOT_RETURN_IF_ERROR(number);
    if (*number < 0 || *number > 100000) {
      return Error(absl::StrCat("parameter number ", *number, " out of range"));
    }
    AOT_RETURN_IF_ERROR(Expect(')', "closing parameter(...)"));
    if (*number < computation.num_parameters() &&
        computation.parameter_instruction(*number) != nullptr) {
      return ErrorAt(name_pos, absl::StrCat("parameter number ", *number, " is used twice"));
    }
    instr = HloInstruction::CreateParameter(*number, *shape, name);
  } else {
    std::vector<HloInstruction*> operands;
    if (!TryConsume(')')) {
      while (true) {
        SkipWs();
        // Optional operand shape: "f32[2]{0} %x" or "(f32[], s32[]) %t".
        size_t save = pos_;
        bool has_shape = false;
        if (Peek() == '(') {
          has_shape = true;
        } else {
          size_t look = pos_;
          while (look < end_ && std::isalnum(static_cast<unsigned char>(text_[look]))) ++look;
          has_shape = look < end_ && text_[look] == '[' &&
                      ParsePrimitiveTypeName(text_.substr(pos_, look - pos_)).ok();
        }
        if (has_shape) {
          auto operand_shape = ParseShape();
          if (!operand_shape.ok()) {
            pos_ = save;
            return operand_shape.status();
          }
        }
        SkipWs();
        size_t operand_pos = pos_;
        std::string operand_name = ReadName();
        if (operand_name.empty()) return Error("expected an operand name");
        HloInstruction* operand = Named(computation, operand_name);
        if (operand == nullptr) {
          return ErrorAt(operand_pos,
                         absl::StrCat("operand '", operand_name, "' is not defined before use"));
        }
        operands.push_back(operand);
        if (TryConsume(')')) break;
        AOT_RETURN_IF_ERROR(Expect(',', "between operands"));
      }
    }
    instr = HloInstruction::Create(*opcode, *shape, operands);
  }
  instr->set_name(name);
  // Attributes: ", name=value" until the next instruction.
  while (true) {
    size_t save = pos_;
    if (!TryConsume(',')) break;
    SkipWs();
    size_t attr_pos = pos_;
    std::string attr = ReadName();
    if (attr.empty() || !TryConsume('=')) {
      pos_ = save;
      return ErrorAt(attr_pos, "expected an attribute 'name=value'");
    }
    SkipWs();
    size_t value_pos = pos_;
    if (IsShuffleLiteralAttribute(instr->opcode(), attr)) {
      // A shape, a space and the values: checked here, where errors can
      // point into the text, and kept verbatim like the other attributes of
      // opcodes the compiler expands.
      AOT_RETURN_IF_ERROR(ParseShapedLiteral().status());
      instr->mutable_attrs()->unknown_attributes.emplace_back(
          attr, std::string(text_.substr(value_pos, pos_ - value_pos)));
      continue;
    }
    AOT_ASSIGN_OR_RETURN(auto value, ScanRawValue());
    AOT_RETURN_IF_ERROR(ParseAttribute(*instr, attr, value, value_pos));
  }
  HloInstruction* raw = computation.AddInstruction(std::move(instr));
  names_[&computation][name] = raw;
  if (*is_root) {
    if (computation.root_instruction() != nullptr) {
      return ErrorAt(name_pos, "a second ROOT in the same computation");
    }
    computation.set_root_instruction(raw);
  }
  current_instruction_.clear();
  return absl::OkStatus();
}

absl::Status Parser::ParseComputation(HloModule& module, bool* saw_entry, HloComputation** parsed) {
  bool is_entry = TryConsumeWord("ENTRY");
  SkipWs();
  size_t name_pos = pos_;
  std::string name = ReadName();
  if (name.empty()) return Error("expected a computation name");
  if (module.FindComputation(name) != nullptr) {
    return ErrorAt(name_pos, absl::StrCat("duplicate computation '", name, "'"));
  }
  // Optional signature: "(p0: f32[2], ...) -> f32[2]".
  if (TryConsume('(')) {
    AOT_RETURN_IF_ERROR(
        ParseSignatureAfterParen(/*named=*/true, "after the computation's parameters").status());
  }
  // Optional computation attributes before the body (execution_thread=...).
  while (Peek() != '{' && !AtEnd()) {
    TryConsume(',');
    std::string key = ReadName();
    if (key.empty() || !TryConsume('=')) return Error("expected '{' opening the computation body");
    AOT_RETURN_IF_ERROR(ScanRawValue());
  }
  AOT_RETURN_IF_ERROR(Expect('{', "opening the computation body"));
  auto computation = std::make_unique<HloComputation>(name);
  HloComputation* raw = computation.get();
  module.AddComputation(std::move(computation), is_entry);
  *parsed = raw;
  while (!TryConsume('}')) {
    if (AtEnd()) {
      return ErrorAt(name_pos, absl::StrCat("computation '", name, "' is not closed with '}'"));
    }
    bool is_root = false;
    AOT_RETURN_IF_ERROR(ParseInstruction(*raw, &is_root));
  }
  // Trailing attributes after the body (", execution_thread=...").
  while (true) {
    size_t save = pos_;
    if (!TryConsume(',')) break;
    std::string key = ReadName();
    if (key.empty() || !TryConsume('=')) {
      pos_ = save;
      break;
    }
    AOT_RETURN_IF_ERROR(ScanRawValue());
  }
  if (raw->instruction_count() == 0) {
    return ErrorAt(name_pos, absl::StrCat("computation '", name, "' is empty"));
  }
  if (raw->root_instruction() == nullptr) {
    // XLA's rule: without ROOT, the last instruction is the root.
    raw->set_root_instruction(raw->instructions().back());
  }
  for (int64_t i = 0; i < raw->num_parameters(); ++i) {
    if (raw->parameter_instruction(i) == nullptr) {
      return ErrorAt(name_pos, absl::StrCat("computation '", name, "' has no parameter ", i,
                                            " but has parameter ", raw->num_parameters() - 1));
    }
  }
  if (is_entry) {
    if (*saw_entry) return ErrorAt(name_pos, "a second ENTRY computation");
    *saw_entry = true;
  }
  return absl::OkStatus();
}

absl::StatusOr<HloParseResult> Parser::ParseModule() {
  auto module = std::make_unique<HloModule>("");
  AOT_RETURN_IF_ERROR(ParseModuleHeader(*module));
  bool saw_entry = false;
  HloComputation* last = nullptr;
  while (!AtEnd()) {
    AOT_RETURN_IF_ERROR(ParseComputation(*module, &saw_entry, &last));
  }
  if (last == nullptr) return Error("module has no computations");
  // XLA's rule: without ENTRY, the last computation is the entry.
  if (!saw_entry) module->set_entry_computation(last);
  // Resolve computation references.
  for (const PendingComputationRef& ref : pending_refs_) {
    HloComputation* callee = module->FindComputation(ref.name);
    if (callee == nullptr) {
      current_instruction_ = ref.instruction->name();
      return ErrorAt(ref.position, absl::StrCat("unknown computation '", ref.name, "'"));
    }
    auto* called = ref.instruction->mutable_called_computations();
    if (called->size() <= ref.slot) called->resize(ref.slot + 1, nullptr);
    (*called)[ref.slot] = callee;
  }
  for (const PendingComputationRef& ref : pending_refs_) {
    for (HloComputation* c : ref.instruction->called_computations()) {
      if (c == nullptr) {
        current_instruction_ = ref.instruction->name();
        return ErrorAt(ref.position, "missing called computation (e.g. condition= without body=)");
      }
    }
  }
  // A computation a fusion calls is a fusion computation (as in XLA): the
  // passes leave its body alone and never fuse inside it.
  for (const PendingComputationRef& ref : pending_refs_) {
    if (ref.instruction->opcode() != HloOpcode::kFusion) continue;
    for (HloComputation* c : ref.instruction->called_computations()) {
      c->set_is_fusion_computation(true);
    }
  }
  current_instruction_.clear();
  module->Renumber();
  result_.module = std::move(module);
  return std::move(result_);
}

absl::StatusOr<Literal> Parser::ParseShapedLiteral() {
  SkipWs();
  const size_t shape_pos = pos_;
  AOT_ASSIGN_OR_RETURN(Shape shape, ParseShape());
  if (!shape.IsArray()) {
    return ErrorAt(shape_pos, absl::StrCat("expected an array shape before the values; got ",
                                           shape.ToString(false)));
  }
  SkipWs();
  const size_t literal_pos = pos_;
  AOT_ASSIGN_OR_RETURN(absl::string_view raw, ScanRawValue());
  bool elided = false;
  AOT_ASSIGN_OR_RETURN(Literal literal,
                       ParseLiteral(shape, raw, literal_pos, &elided, current_instruction_));
  if (elided) return ErrorAt(literal_pos, "the values may not be elided here");
  literal.set_layout(shape.minor_to_major());
  return literal;
}

absl::StatusOr<Literal> Parser::ParseStandaloneLiteral() {
  AOT_ASSIGN_OR_RETURN(Literal literal, ParseShapedLiteral());
  if (!AtEnd()) return Error("unexpected text after the literal");
  return literal;
}

absl::StatusOr<Shape> Parser::ParseStandaloneShape() {
  auto shape = ParseShape();
  AOT_RETURN_IF_ERROR(shape);
  if (!AtEnd()) return Error("unexpected text after the shape");
  return shape;
}

}  // namespace

absl::StatusOr<HloParseResult> ParseHloModuleWithDetails(absl::string_view text,
                                                         const HloParserOptions& options) {
  Parser parser(text, options);
  return parser.ParseModule();
}

absl::StatusOr<std::unique_ptr<HloModule>> ParseHloModule(absl::string_view text,
                                                          const HloParserOptions& options) {
  AOT_ASSIGN_OR_RETURN(auto result, ParseHloModuleWithDetails(text, options));
  return std::move(result.module);
}

absl::StatusOr<Shape> ParseShape(absl::string_view text) {
  Parser parser(text, HloParserOptions());
  return parser.ParseStandaloneShape();
}

absl::StatusOr<Literal> ParseShapedLiteral(absl::string_view text) {
  Parser parser(text, HloParserOptions());
  return parser.ParseStandaloneLiteral();
}

}  // namespace aot
