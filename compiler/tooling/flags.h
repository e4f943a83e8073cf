#ifndef AOT_COMPILER_TOOLING_FLAGS_H_
#define AOT_COMPILER_TOOLING_FLAGS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "support/bool_text.h"

namespace aot {

// Command-line flags for the project's tools, in the style of XLA's tools:
// `--name=value`, `--name value`, `--bool`, `--nobool`, `--bool=false`,
// `--` ends flags. Unknown flags and malformed values are errors (never
// ignored). `--help` / `-h` is always accepted.
//
// Hand-written rather than absl::flags because each aot-compat subcommand
// needs its own flag set, parsed from argv[2..], with its own --help and
// with errors returned as a Status (absl::flags registers process-wide
// globals and exits on its own errors).
class FlagSet {
 public:
  // `synopsis`: one usage line per form, e.g. "aotc --module_file=F ...".
  // `description`: a paragraph printed under it.
  FlagSet(std::string program, std::string synopsis, std::string description);

  // `name` may carry a one-letter alias after a comma: "output_file,o".
  void AddString(absl::string_view name, std::string* value, std::string help);
  void AddInt(absl::string_view name, int64_t* value, std::string help);
  void AddDouble(absl::string_view name, double* value, std::string help);
  void AddBool(absl::string_view name, bool* value, std::string help);
  // Repeatable; each occurrence may also hold a comma-separated list.
  void AddList(absl::string_view name, std::vector<std::string>* values, std::string help);

  // A boolean flag that adds `item` to `values` when true and removes it
  // when false (--name, --name=true, --noname, --name=false), for lists
  // that also have a flag of their own.
  void AddListToggle(absl::string_view name, std::vector<std::string>* values, std::string item,
                     std::string help);

  // Parses argv[first..argc). Returns the positional arguments.
  absl::StatusOr<std::vector<std::string>> Parse(int argc, char** argv, int first = 1);
  absl::StatusOr<std::vector<std::string>> Parse(const std::vector<std::string>& args);

  // For tool mains: parses argv[first..) and returns the positional
  // arguments. On --help prints Help() to stdout and exits 0; on a bad flag,
  // or any positional argument when `allow_positional` is false, prints
  // "<program>: error: <why>" and exits 2.
  std::vector<std::string> ParseOrExit(int argc, char** argv, int first = 1,
                                       bool allow_positional = true);

  bool help_requested() const { return help_requested_; }
  // Was the flag given explicitly on the command line?
  bool IsSet(absl::string_view name) const;
  std::string Help() const;
  const std::string& program() const { return program_; }

 private:
  enum class Kind { kString, kInt, kDouble, kBool, kList, kToggle };
  struct Flag {
    std::string name;
    std::string alias;
    Kind kind;
    void* target;
    std::string help;
    std::string default_text;
    bool set = false;
    std::string item;  // kToggle
  };
  void SetBool(Flag& flag, bool value);
  void Add(absl::string_view name, Kind kind, void* target, std::string help,
           std::string default_text);
  Flag* Find(absl::string_view name);
  absl::Status Assign(Flag& flag, absl::string_view value);

  std::string program_;
  std::string synopsis_;
  std::string description_;
  std::vector<Flag> flags_;
  std::vector<void*> toggled_lists_;  // a toggle wrote them: a list flag appends
  bool help_requested_ = false;
};

// ParseBool (support/bool_text.h) reads the booleans of flags.

// Prints "<program>: error: <message>" (one line) to stderr and returns
// `exit_code`, for tool mains.
int ReportToolError(absl::string_view program, const absl::Status& status, int exit_code = 1);

// Prints "<program>: note: <message>" (one line) to stderr: what a tool
// chose or skipped that is not an error.
void ReportToolNote(absl::string_view program, absl::string_view message);

// Tools exit 2 for bad usage or input and 1 when the work itself failed.
// A library function that runs a tool's mode marks the first kind with
// UsageError (a payload on the status, the code unchanged); ToolExitCode
// maps a status to the exit code: 0 ok, 2 marked, 1 otherwise.
absl::Status UsageError(absl::Status status);
int ToolExitCode(const absl::Status& status);
// ReportToolError(program, status, ToolExitCode(status)) for a failure; 0
// for OK (nothing printed).
int ExitWithStatus(absl::string_view program, const absl::Status& status);

}  // namespace aot

#endif  // AOT_COMPILER_TOOLING_FLAGS_H_
