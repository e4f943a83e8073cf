#include "support/subprocess.h"

#include <sys/wait.h>

#include <cstdio>

#include "absl/strings/str_cat.h"

namespace aot {

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

CommandResult RunShellCommand(const std::string& command) {
  CommandResult result;
  // The group makes 2>&1 cover every command of a list or pipeline, not just
  // the last one; the newline ends a trailing comment or `&`.
  FILE* pipe = popen(absl::StrCat("{ ", command, "\n} 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    result.output = absl::StrCat("cannot start: ", command);
    return result;
  }
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.output.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return result;
}

}  // namespace aot
