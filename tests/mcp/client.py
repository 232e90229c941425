"""Drives `agent-memory mcp` through the official MCP Python SDK and prints one JSON report.

Usage: client.py <agent-memory binary> <scenario JSON>

The scenario names a note to write and a seeded note and session to explain. The server inherits
this process's environment (AGENT_MEMORY_HOME, AGENT_MEMORY_CONFIG, HOME), so it opens the store
the calling test prepared. Every step's outcome goes into the report; the Rust test asserts on it.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def outcome(result):
    """A tool result as plain data: error flag, structured content, and the text content."""
    text = "".join(getattr(block, "text", "") for block in result.content)
    return {
        "is_error": bool(result.is_error),
        "structured": result.structured_content,
        "text": text,
    }


async def run(binary, scenario):
    params = StdioServerParameters(command=binary, args=["mcp"], env=dict(os.environ))
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["server"] = {
                "name": init.server_info.name,
                "protocol_version": init.protocol_version,
                "has_instructions": bool(init.instructions),
            }
            tools = await session.list_tools()
            report["tools"] = {
                tool.name: {
                    "description": tool.description,
                    "properties": sorted((tool.input_schema or {}).get("properties", {}).keys()),
                    "required": sorted((tool.input_schema or {}).get("required", [])),
                }
                for tool in tools.tools
            }

            async def call(name, arguments):
                return outcome(await session.call_tool(name, arguments))

            note = scenario["note"]
            ref = {"scope": note["scope"], "path": note["path"]}
            report["write"] = await call("write_note", note)
            report["read"] = await call("read_note", ref)
            report["search"] = await call("search_notes", {"query": scenario["query"], "limit": 5})
            report["search_other_scope"] = await call(
                "search_notes", {"query": scenario["query"], "scopes": [scenario["other_scope"]]}
            )
            report["unknown_project"] = await call(
                "search_notes", {"query": scenario["query"], "scopes": ["project:nowhere"]}
            )
            report["list"] = await call("list_notes", {"scope": note["scope"]})
            report["explain"] = await call("explain_note", scenario["explained"])
            report["timeline"] = await call(
                "session_timeline", {"session": scenario["session"], "limit": 10}
            )
            report["sessions"] = await call("list_sessions", {})
            report["invalid_path"] = await call(
                "write_note", dict(note, path="../outside/Notes.txt")
            )
            report["bad_scope"] = await call("read_note", {"scope": "team", "path": note["path"]})
            report["delete"] = await call("delete_note", ref)
            report["read_after_delete"] = await call("read_note", ref)
            report["delete_again"] = await call("delete_note", ref)
    return report


def main():
    binary, scenario = sys.argv[1], json.loads(sys.argv[2])
    report = asyncio.run(run(binary, scenario))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
