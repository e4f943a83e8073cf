#ifndef AOT_HARNESS_GATE_GATE_TYPES_H_
#define AOT_HARNESS_GATE_GATE_TYPES_H_

// The gate's findings: its checks, the blockers that stop a change and the
// notices worth reading. Header only, with no dependencies, so that the gate
// (gate.h) and the release qualification report (harness/report/) share
// them without the report depending on the gate.

#include <string>

namespace aot {

// A finding that blocks the change (or the release), and how to clear it.
struct GateBlocker {
  std::string check;  // schema | backward | forward | ledger | lint | verify | registry
  std::string rule;
  std::string message;
  std::string fix;
};

// A finding worth reading that does not block.
struct GateNotice {
  std::string check;
  std::string message;
};

// One gate check: "schema", "backward", "forward", "ledger", "lint",
// "verify", ...
struct GateCheck {
  std::string name;
  bool ok = true;
  std::string summary;
};

}  // namespace aot

#endif  // AOT_HARNESS_GATE_GATE_TYPES_H_
