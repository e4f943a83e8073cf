#ifndef AOT_SUPPORT_SUBPROCESS_H_
#define AOT_SUPPORT_SUBPROCESS_H_

// Running a shell command and quoting its arguments: the harness drives git,
// protoc and old builds of the project through /bin/sh.

#include <string>

namespace aot {

// What a command printed (stdout and stderr together) and its exit status
// (128 when it did not exit normally, -1 when it could not start).
struct CommandResult {
  int exit_code = -1;
  std::string output;
};

// Runs `command` through /bin/sh, capturing stdout and stderr together.
CommandResult RunShellCommand(const std::string& command);

// Single-quotes `s` for /bin/sh.
std::string ShellQuote(const std::string& s);

}  // namespace aot

#endif  // AOT_SUPPORT_SUBPROCESS_H_
