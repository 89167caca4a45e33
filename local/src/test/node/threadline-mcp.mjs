// A client we did not write, the MCP TypeScript SDK, drives Threadline's MCP server (the local
// mode's /mcp) with a user's key: lists the tools, runs a computer task to its end with progress,
// reads its diff, and checks that another user's key sees nothing of it and that bad calls fail
// in MCP's shapes. Prints what it saw as one JSON object; run by McpClientNodeE2ETest.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [apiUrl, ownerKey, otherKey] = process.argv.slice(2);

async function connect(key) {
  const client = new Client({ name: "threadline-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", apiUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** The tool's result: its JSON body, and whether it is an error result. */
async function call(client, name, args, options) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  return { isError: result.isError === true, body: JSON.parse(result.content[0].text) };
}

const seen = {};
const owner = await connect(ownerKey);
seen.tools = (await owner.listTools()).tools.map((tool) => tool.name);

const progress = [];
const task = await call(
  owner,
  "start_task",
  { task: "Run `echo hello > a.txt` and `cat a.txt`" },
  {
    onprogress: (p) => progress.push({ progress: p.progress, message: p.message }),
    timeout: 120_000,
    resetTimeoutOnProgress: true,
  },
);
seen.task = {
  isError: task.isError,
  threadId: task.body.thread?.id,
  threadStatus: task.body.thread?.status,
  success: task.body.execution?.success,
  response: task.body.execution?.response,
};
seen.progress = progress;

const threadId = task.body.thread?.id;
const diffs = await call(owner, "read_diffs", { threadId });
seen.diffs = diffs.body.diffs?.map((diff) => ({ path: diff.path, type: diff.type, content: diff.content }));

const other = await connect(otherKey);
const foreign = await call(other, "get_thread", { threadId });
const foreignDiffs = await call(other, "read_diffs", { threadId });
const otherList = await call(other, "list_threads", {});
seen.other = {
  thread: { isError: foreign.isError, status: foreign.body.status, error: foreign.body.error },
  diffs: { isError: foreignDiffs.isError, status: foreignDiffs.body.status },
  listed: otherList.body.data.length,
};

const missing = await call(owner, "start_task", {});
seen.badCall = { isError: missing.isError, status: missing.body.status, message: missing.body.message };
try {
  await owner.callTool({ name: "no_such_tool", arguments: {} });
  seen.unknownTool = { thrown: false };
} catch (error) {
  seen.unknownTool = { thrown: true, code: error.code };
}

await owner.close();
await other.close();
console.log(JSON.stringify(seen));
