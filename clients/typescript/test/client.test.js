// @ts-check
// The generated client and the streaming helper against a running Threadline (the local mode, as
// TypeScriptClientE2ETest starts it): THREADLINE_URL and THREADLINE_KEY name it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createThreadlineClient, resumeStream, streamMessage } from "../src/index.js";

const baseUrl = process.env.THREADLINE_URL ?? "";
const apiKey = process.env.THREADLINE_KEY ?? "";
const live = baseUrl !== "" && apiKey !== "";
const client = createThreadlineClient({ baseUrl, apiKey });

describe("against the local mode", { skip: live ? false : "THREADLINE_URL and THREADLINE_KEY are not set" }, () => {
  it("runs a direct message, drops the stream after thread.created and resumes it", async () => {
    const cut = cuttingFetch(1);
    const frames = await collect(
      streamMessage({ baseUrl, apiKey, body: { messages: [{ role: "user", content: "Hello!" }] }, fetch: cut.fetch }),
    );

    assert.deepEqual(types(frames), ["thread.created", "direct.response", "response.completed", "stream.completed"]);
    assert.equal(cut.calls(), 2, "one POST, one resumed GET");
    assert.equal(cut.resumedWith(), frames[0].id);
    const threadId = threadOf(frames);
    await matchesTheReplay(threadId, frames);

    const thread = await settled(threadId);
    assert.equal(thread.status, "completed");
    const messages = await client.GET("/v1/threads/{threadId}/messages", { params: { path: { threadId } } });
    assert.deepEqual(messages.data?.data.map((message) => message.role), ["user", "assistant"]);

    // A follow-up streams in the general form, without thread.created.
    const followUp = await collect(streamMessage({ baseUrl, apiKey, threadId, body: { content: "What did I say before?" } }));
    assert.equal(types(followUp).includes("thread.created"), false);
    assert.equal(types(followUp).at(-1), "stream.completed");
  });

  it("runs a computer task, drops the stream mid-run and resumes it without a gap or a repeat", async () => {
    const cut = cuttingFetch(2);
    const task = "Run `echo hello > a.txt` and `cat a.txt`";
    const frames = await collect(streamMessage({ baseUrl, apiKey, body: { task }, fetch: cut.fetch }));

    assert.deepEqual(types(frames).slice(0, 2), ["thread.created", "computer.starting"]);
    assert.deepEqual(types(frames).slice(-2), ["response.completed", "stream.completed"]);
    assert.equal(cut.calls(), 2, "one POST, one resumed GET");
    assert.equal(cut.resumedWith(), frames[1].id);
    const commands = frames
      .map((frame) => frame.event)
      .filter((event) => event.type === "response.item.completed" && event.item.type === "tool_call");
    assert.ok(
      commands.some((event) => event.type === "response.item.completed" && event.item.type === "tool_call" && event.item.tool.output.includes("hello")),
      "cat a.txt printed hello",
    );
    const threadId = threadOf(frames);
    await matchesTheReplay(threadId, frames);

    await settled(threadId);
    const diffs = await client.GET("/v1/threads/{threadId}/diffs", { params: { path: { threadId } } });
    assert.equal(diffs.response.status, 200);
    assert.deepEqual(
      diffs.data?.diffs.map((diff) => [diff.path, diff.type]),
      [["a.txt", "create"]],
    );
  });

  it("gives the API's refusals as typed errors", async () => {
    const missing = await client.GET("/v1/threads/{threadId}", { params: { path: { threadId: "thread_nosuchthread" } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.error?.error, "Not Found");

    const anonymous = createThreadlineClient({ baseUrl, apiKey: "tl_test_nobody_0000000000" });
    const refused = await anonymous.GET("/v1/usage");
    assert.equal(refused.response.status, 401);
    assert.equal(refused.error?.error, "Unauthorized");

    const usage = await client.GET("/v1/usage");
    assert.equal(usage.response.status, 200);
    assert.equal(typeof usage.data?.allowance, "number");
  });
});

/** @param {AsyncIterable<import("../src/index.js").Frame>} frames */
async function collect(frames) {
  const all = [];
  for await (const frame of frames) {
    all.push(frame);
  }
  return all;
}

/** @param {import("../src/index.js").Frame[]} frames */
function types(frames) {
  return frames.map((frame) => frame.event.type);
}

/** @param {import("../src/index.js").Frame[]} frames */
function threadOf(frames) {
  const created = frames[0].event;
  assert.equal(created.type, "thread.created");
  return created.type === "thread.created" ? created.thread.id : "";
}

/**
 * The run's events, read again from its start, are exactly those the resumed stream gave after
 * the POST's thread.created: none lost at the cut, none repeated.
 *
 * @param {string} threadId
 * @param {import("../src/index.js").Frame[]} frames
 */
async function matchesTheReplay(threadId, frames) {
  const replay = await collect(resumeStream({ baseUrl, apiKey, threadId }));
  const runEvents = (/** @type {import("../src/index.js").Frame[]} */ list) =>
    list.filter((frame) => frame.event.type !== "thread.created").map((frame) => `${frame.id} ${frame.event.type}`);
  assert.deepEqual(runEvents(frames), runEvents(replay));
  assert.equal(new Set(frames.map((frame) => frame.id)).size, frames.length, "no event twice");
}

/** The thread once the operator has rolled its run up (bounded: 50 reads). */
async function settled(/** @type {string} */ threadId) {
  for (let read = 0; read < 50; read++) {
    const { data } = await client.GET("/v1/threads/{threadId}", { params: { path: { threadId } } });
    if (data && data.thread.status !== "running") {
      return data.thread;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`thread ${threadId} is still running`);
}

/**
 * A fetch whose first event stream breaks off after `frames` complete frames, as a dropped
 * connection would; every other answer passes through.
 *
 * @param {number} frames
 */
function cuttingFetch(frames) {
  let calls = 0;
  /** @type {string | undefined} */
  let resumedWith;
  /** @type {typeof globalThis.fetch} */
  const cutting = async (input, init) => {
    calls++;
    const lastEventId = new Headers(init?.headers).get("Last-Event-ID");
    if (lastEventId !== null) {
      resumedWith = lastEventId;
    }
    const response = await fetch(input, init);
    if (calls > 1 || !response.body) {
      return response;
    }
    const reader = response.body.getReader();
    let seen = 0;
    let previous = 0;
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        for (let i = 0; i < value.length; i++) {
          if (value[i] === 10 && previous === 10 && ++seen === frames) {
            controller.enqueue(value.slice(0, i + 1));
            await reader.cancel();
            controller.error(new Error("connection dropped (test)"));
            return;
          }
          previous = value[i];
        }
        controller.enqueue(value);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: cutting, calls: () => calls, resumedWith: () => resumedWith };
}
