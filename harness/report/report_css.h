#ifndef AOT_HARNESS_REPORT_REPORT_CSS_H_
#define AOT_HARNESS_REPORT_REPORT_CSS_H_

// The qualification report's stylesheet, inlined into its HTML page
// (report_html.cc) so the page needs nothing from the network.

namespace aot {

inline constexpr char kReportCss[] = R"css(
:root { --pass: #2e7d32; --fail: #c62828; --skipped: #9e9e9e;
  --expired: #ef6c00; --other: #6a1b9a; --ink: #1f2328; --muted: #59636e;
  --line: #d1d9e0; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); margin: 24px auto; max-width: 1240px; padding: 0 16px; }
h1 { font-size: 24px; margin: 0 0 12px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
.verdict { padding: 14px 18px; border-radius: 6px; color: #fff;
  font-size: 20px; font-weight: 700; }
.verdict-pass { background: var(--pass); }
.verdict-blocked { background: var(--fail); }
.verdict-unknown { background: var(--other); }
.meta { color: var(--muted); margin: 8px 0 0; }
.meta span { margin-right: 18px; white-space: nowrap; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left;
  vertical-align: top; }
th { background: #f6f8fa; }
.check-ok { color: var(--pass); font-weight: 600; }
.check-failed { color: var(--fail); font-weight: 600; }
.matrix-wrap { overflow-x: auto; }
.matrix th.col { font-weight: 600; font-size: 12px; text-align: center; }
.matrix th.col small { font-weight: 400; color: var(--muted); }
.matrix td.cell { text-align: center; color: #fff; font-size: 12px;
  min-width: 64px; }
.status-pass { background: var(--pass); }
.status-fail { background: var(--fail); }
.status-skipped { background: var(--skipped); }
.status-expired { background: var(--expired); }
.status-other { background: var(--other); }
.status-none { background: #fff; color: var(--muted) !important; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px;
  border-radius: 3px; color: #fff; font-size: 12px; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg .axis { stroke: var(--ink); stroke-width: 1; }
svg .tick { stroke: var(--line); }
svg .boundary { stroke-width: 2; stroke-dasharray: 5 3; }
svg .b-backward { stroke: var(--expired); }
svg .b-forward { stroke: #1565c0; }
svg .b-now { stroke: var(--ink); stroke-dasharray: none; }
svg .tl-version { fill: #1565c0; }
svg .tl-version-old { fill: var(--skipped); }
svg .tl-release { fill: var(--pass); }
svg .bar-load { fill: #1565c0; }
svg .bar-run { fill: var(--expired); }
.blockers li { margin-bottom: 8px; }
.blockers .fix { color: var(--pass); }
.tag { display: inline-block; background: #f6f8fa; border: 1px solid var(--line);
  border-radius: 3px; padding: 0 5px; font-size: 12px; margin-right: 4px; }
.empty { color: var(--muted); font-style: italic; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
)css";

}  // namespace aot

#endif  // AOT_HARNESS_REPORT_REPORT_CSS_H_
