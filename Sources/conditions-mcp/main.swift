import ConditionsCore
import ConditionsMCP
import ConditionsProcess
import Foundation

// `conditions mcp` execs this program: the MCP SDK links FoundationNetworking, and with it
// libcurl and the TLS stack at start-up, which `conditions` itself only opens on a first
// request (LinkingTests). Arguments: the ones `conditions mcp` validated, in its syntax.
StandardStreams.prepare()
// A client stopping the server with a signal (or Ctrl-C in its terminal) does not reach the
// Exec programs and page renders in their own process groups: they are ended first.
InterruptSignals.endChildren(then: .dieOfTheSignal)
exit(await MCPMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
