#include "compiler/tooling/flags.h"

#include <cstdio>
#include <cstdlib>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "support/status_macros.h"

namespace aot {

FlagSet::FlagSet(std::string program, std::string synopsis, std::string description)
    : program_(std::move(program)),
      synopsis_(std::move(synopsis)),
      description_(std::move(description)) {}

void FlagSet::Add(absl::string_view name, Kind kind, void* target, std::string help,
                  std::string default_text) {
  Flag flag;
  std::vector<std::string> parts = absl::StrSplit(name, ',');
  flag.name = parts[0];
  if (parts.size() > 1) flag.alias = parts[1];
  flag.kind = kind;
  flag.target = target;
  flag.help = std::move(help);
  flag.default_text = std::move(default_text);
  flags_.push_back(std::move(flag));
}

void FlagSet::AddString(absl::string_view name, std::string* value, std::string help) {
  Add(name, Kind::kString, value, std::move(help),
      value->empty() ? "" : absl::StrCat("\"", *value, "\""));
}
void FlagSet::AddInt(absl::string_view name, int64_t* value, std::string help) {
  Add(name, Kind::kInt, value, std::move(help), absl::StrCat(*value));
}
void FlagSet::AddDouble(absl::string_view name, double* value, std::string help) {
  Add(name, Kind::kDouble, value, std::move(help), absl::StrCat(*value));
}
void FlagSet::AddBool(absl::string_view name, bool* value, std::string help) {
  Add(name, Kind::kBool, value, std::move(help), *value ? "true" : "false");
}
void FlagSet::AddList(absl::string_view name, std::vector<std::string>* values, std::string help) {
  Add(name, Kind::kList, values, std::move(help), "");
}

void FlagSet::AddListToggle(absl::string_view name, std::vector<std::string>* values,
                            std::string item, std::string help) {
  Add(name, Kind::kToggle, values, std::move(help), "false");
  flags_.back().item = std::move(item);
}

void FlagSet::SetBool(Flag& flag, bool value) {
  flag.set = true;
  if (flag.kind == Kind::kBool) {
    *static_cast<bool*>(flag.target) = value;
    return;
  }
  auto* list = static_cast<std::vector<std::string>*>(flag.target);
  std::erase(*list, flag.item);
  if (value) list->push_back(flag.item);
  if (!absl::c_linear_search(toggled_lists_, flag.target)) toggled_lists_.push_back(flag.target);
}

FlagSet::Flag* FlagSet::Find(absl::string_view name) {
  for (Flag& f : flags_) {
    if (f.name == name || (!f.alias.empty() && f.alias == name)) return &f;
  }
  return nullptr;
}

bool FlagSet::IsSet(absl::string_view name) const {
  for (const Flag& f : flags_) {
    if (f.name == name) return f.set;
  }
  return false;
}

absl::Status FlagSet::Assign(Flag& flag, absl::string_view value) {
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag.name, "=", value, ": not ", what));
  };
  switch (flag.kind) {
    case Kind::kString:
      *static_cast<std::string*>(flag.target) = std::string(value);
      break;
    case Kind::kInt: {
      int64_t v;
      if (!absl::SimpleAtoi(value, &v)) return bad("an integer");
      *static_cast<int64_t*>(flag.target) = v;
      break;
    }
    case Kind::kDouble: {
      double v;
      if (!absl::SimpleAtod(value, &v)) return bad("a number");
      *static_cast<double*>(flag.target) = v;
      break;
    }
    case Kind::kBool:
    case Kind::kToggle: {
      auto v = ParseBool(value);
      if (!v.ok()) return bad("a boolean (use true/false)");
      SetBool(flag, *v);
      break;
    }
    case Kind::kList: {
      auto* list = static_cast<std::vector<std::string>*>(flag.target);
      // The first occurrence replaces defaults (not what a toggle added).
      if (!flag.set && !absl::c_linear_search(toggled_lists_, flag.target)) list->clear();
      for (absl::string_view item : absl::StrSplit(value, ',')) {
        if (!item.empty()) list->emplace_back(item);
      }
      break;
    }
  }
  flag.set = true;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> FlagSet::Parse(int argc, char** argv, int first) {
  std::vector<std::string> args;
  for (int i = first; i < argc; ++i) args.emplace_back(argv[i]);
  return Parse(args);
}

absl::StatusOr<std::vector<std::string>> FlagSet::Parse(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (arg == "--") {
      positional.insert(positional.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg == "--help" || arg == "-h" || arg == "-help" || arg == "--helpfull") {
      help_requested_ = true;
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
      positional.emplace_back(arg);
      continue;
    }
    absl::string_view body = arg.substr(arg[1] == '-' ? 2 : 1);
    absl::string_view name = body;
    absl::string_view value;
    bool has_value = false;
    if (size_t eq = body.find('='); eq != absl::string_view::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    std::string normalized = absl::StrReplaceAll(name, {{"-", "_"}});
    Flag* flag = Find(normalized);
    if (flag == nullptr && !has_value && normalized.rfind("no", 0) == 0) {
      Flag* negated = Find(normalized.substr(2));
      if (negated != nullptr && (negated->kind == Kind::kBool || negated->kind == Kind::kToggle)) {
        SetBool(*negated, false);
        continue;
      }
    }
    if (flag == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", arg, "' (see ", program_, " --help)"));
    }
    if (!has_value) {
      if (flag->kind == Kind::kBool || flag->kind == Kind::kToggle) {
        SetBool(*flag, true);
        continue;
      }
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat("flag '", arg, "' needs a value"));
      }
      value = args[++i];
    }
    AOT_RETURN_IF_ERROR(Assign(*flag, value));
  }
  return positional;
}

std::string FlagSet::Help() const {
  std::string out = absl::StrCat("Usage: ", synopsis_, "\n");
  if (!description_.empty()) absl::StrAppend(&out, "\n", description_, "\n");
  if (!flags_.empty()) absl::StrAppend(&out, "\nFlags:\n");
  for (const Flag& f : flags_) {
    std::string head = absl::StrCat("  --", f.name);
    if (f.kind != Kind::kBool && f.kind != Kind::kToggle) absl::StrAppend(&head, "=VALUE");
    if (!f.alias.empty()) absl::StrAppend(&head, ", -", f.alias);
    absl::StrAppend(&out, head, "\n      ", f.help);
    if (!f.default_text.empty()) {
      absl::StrAppend(&out, " (default: ", f.default_text, ")");
    }
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out, "  --help\n      Print this help and exit.\n");
  return out;
}

std::vector<std::string> FlagSet::ParseOrExit(int argc, char** argv, int first,
                                              bool allow_positional) {
  // Errors name the tool ("aot-compat"), not the subcommand ("aot-compat gate").
  const std::string tool = program_.substr(0, program_.find(' '));
  auto positional = Parse(argc, argv, first);
  if (!positional.ok()) std::exit(ReportToolError(tool, positional.status(), 2));
  if (help_requested_) {
    std::fputs(Help().c_str(), stdout);
    std::fflush(stdout);
    std::exit(0);
  }
  if (!allow_positional && !positional->empty()) {
    std::exit(
        ReportToolError(tool,
                        absl::InvalidArgumentError(absl::StrCat(
                            program_, " takes no arguments, got '", positional->front(), "'")),
                        2));
  }
  return *std::move(positional);
}

namespace {
constexpr absl::string_view kUsageErrorPayload = "type.aot/tool.usage_error";
}  // namespace

absl::Status UsageError(absl::Status status) {
  if (!status.ok()) status.SetPayload(kUsageErrorPayload, absl::Cord("2"));
  return status;
}

int ToolExitCode(const absl::Status& status) {
  if (status.ok()) return 0;
  return status.GetPayload(kUsageErrorPayload).has_value() ? 2 : 1;
}

int ExitWithStatus(absl::string_view program, const absl::Status& status) {
  if (status.ok()) return 0;
  return ReportToolError(program, status, ToolExitCode(status));
}

void ReportToolNote(absl::string_view program, absl::string_view message) {
  std::fprintf(stderr, "%.*s: note: %.*s\n", static_cast<int>(program.size()), program.data(),
               static_cast<int>(message.size()), message.data());
}

int ReportToolError(absl::string_view program, const absl::Status& status, int exit_code) {
  std::string message(status.message());
  // One line: fold embedded newlines.
  for (char& c : message) {
    if (c == '\n') c = ' ';
  }
  std::fprintf(stderr, "%.*s: error: %s\n", static_cast<int>(program.size()), program.data(),
               message.c_str());
  return exit_code;
}

}  // namespace aot
