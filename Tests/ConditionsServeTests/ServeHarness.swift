// The in-process server and the HTTP helpers every serve suite uses, shared with the plugins'
// end-to-end suites (Tests/Support/ServeHarness); re-exported so each file here sees them.
@_exported import ServeHarness
