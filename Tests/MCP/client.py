"""Drives `conditions mcp` with the official Python MCP client over stdio.

Usage: client.py BINARY CONFIG PROFILE
Prints one JSON object summarising every exchange; MCPClientTests asserts on its content.
Each step records its outcome, so one failing step never hides the others.
"""
import asyncio
import json
import sys
from datetime import timedelta

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError

# Bounded waits: a server that stops answering fails the step instead of hanging the test.
TIMEOUT = timedelta(seconds=20)


def texts(result):
    return [c.text for c in result.content if getattr(c, "type", None) == "text"]


async def tool(session, name, arguments):
    try:
        result = await session.call_tool(name, arguments, read_timeout_seconds=TIMEOUT)
        return {"isError": bool(result.isError), "texts": texts(result), "structured": result.structuredContent}
    except McpError as error:
        return {"protocolError": {"code": error.error.code, "message": error.error.message}}


async def main(binary, config, profile):
    summary = {}
    params = StdioServerParameters(command=binary, args=["mcp", "--config", config, "--profile", profile],
                                   env={"PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": "/tmp"})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=TIMEOUT) as session:
            init = await session.initialize()
            summary["server"] = {"name": init.serverInfo.name, "protocolVersion": init.protocolVersion,
                                 "instructions": init.instructions or ""}
            tools = await session.list_tools()
            summary["tools"] = {t.name: {"description": t.description, "inputSchema": t.inputSchema} for t in tools.tools}
            summary["resolve"] = await tool(session, "resolve",
                                            {"urns": ["pass:snoqualmie", "moon:now", "phases:3", "pass:snoqualmy"]})
            summary["routes"] = await tool(session, "routes", {})
            summary["sources"] = await tool(session, "sources", {})
            resources = await session.list_resources()
            summary["resources"] = [str(r.uri) for r in resources.resources]
            report = await session.read_resource("conditions://report")
            summary["report"] = [{"mimeType": c.mimeType, "text": c.text} for c in report.contents]
            example = next((str(r.uri) for r in resources.resources if str(r.uri).startswith("conditions://urn/moon")), None)
            if example:
                read_example = await session.read_resource(example)
                summary["example"] = {"uri": example, "text": read_example.contents[0].text}
            try:
                await session.read_resource("conditions://nothing")
                summary["unknownResource"] = {}
            except McpError as error:
                summary["unknownResource"] = {"code": error.error.code, "message": error.error.message}
            summary["malformed"] = {
                "stringNotArray": await tool(session, "resolve", {"urns": "pass:snoqualmie"}),
                "numbers": await tool(session, "resolve", {"urns": [1, 2]}),
                "missing": await tool(session, "resolve", {}),
                "empty": await tool(session, "resolve", {"urns": []}),
                "tooMany": await tool(session, "resolve", {"urns": ["moon:now"] * 10000}),
                "hugeURN": await tool(session, "resolve", {"urns": ["pass:" + "x" * 1_000_000]}),
                "extraArgument": await tool(session, "routes", {"verbose": True}),
                "unknownTool": await tool(session, "weather", {}),
            }
            # Still answering after all of that.
            summary["after"] = await tool(session, "resolve", {"urns": ["moon:now"]})
    print(json.dumps(summary))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
