import ConditionsCore
import ConditionsMCP
import Foundation

// `conditions mcp` execs this program: the MCP SDK links FoundationNetworking, and with it
// libcurl and the TLS stack at start-up, which `conditions` itself only opens on a first
// request (LinkingTests). Arguments: the ones `conditions mcp` validated, in its syntax.
StandardStreams.prepare()
exit(await MCPMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
