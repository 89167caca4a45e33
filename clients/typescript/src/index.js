// A typed client of the Threadline REST API (openapi-fetch over the types openapi-typescript
// generates from the API server's OpenAPI document) and a streaming helper that follows a run's
// Server-Sent Events and, when the connection drops, reconnects with Last-Event-ID.
import createClient from "openapi-fetch";

/** The events that end a stream: nothing follows them. */
const FINAL = new Set(["stream.completed", "stream.error"]);

/** An event's data is bounded: a frame bigger than this is refused rather than buffered. */
const MAX_FRAME_CHARS = 4 * 1024 * 1024;

export function createThreadlineClient({ baseUrl, apiKey, fetch = globalThis.fetch }) {
  return createClient({
    baseUrl: trimSlash(baseUrl),
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch,
  });
}

export async function* streamMessage({
  baseUrl,
  apiKey,
  threadId,
  body,
  fetch = globalThis.fetch,
  maxReconnects = 5,
  signal,
}) {
  const base = trimSlash(baseUrl);
  // A repeat of the POST before any event arrived must not start a second run.
  const idempotencyKey = crypto.randomUUID();
  let thread = threadId;
  let lastEventId;
  for (let attempt = 0; ; attempt++) {
    const resuming = attempt > 0 && thread !== undefined && lastEventId !== undefined;
    const response = resuming
      ? await fetch(`${base}/v1/threads/${encodeURIComponent(thread)}/stream`, {
          headers: headers(apiKey, { "Last-Event-ID": lastEventId }),
          signal,
        })
      : await fetch(thread === undefined ? `${base}/v1/threads` : `${base}/v1/threads/${encodeURIComponent(thread)}/messages`, {
          method: "POST",
          headers: headers(apiKey, {
            "Content-Type": "application/json",
            "Idempotency-Key": idempotencyKey,
          }),
          body: JSON.stringify(body),
          signal,
        });
    if (!response.ok || !isEventStream(response)) {
      throw await ThreadlineError.of(response);
    }
    let ended = false;
    try {
      for await (const frame of readFrames(response.body)) {
        if (frame.id !== undefined) {
          lastEventId = frame.id;
        }
        if (frame.event.type === "thread.created") {
          thread = frame.event.thread.id;
        }
        yield frame;
        if (FINAL.has(frame.event.type)) {
          ended = true;
          break;
        }
      }
    } catch (error) {
      if (signal?.aborted || attempt >= maxReconnects) {
        throw error;
      }
    }
    if (ended) {
      return;
    }
    if (attempt >= maxReconnects) {
      throw new Error(`the stream broke off ${attempt + 1} times; giving up`);
    }
  }
}

export async function* resumeStream({ baseUrl, apiKey, threadId, lastEventId, fetch = globalThis.fetch, signal }) {
  const extra = lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId };
  const response = await fetch(`${trimSlash(baseUrl)}/v1/threads/${encodeURIComponent(threadId)}/stream`, {
    headers: headers(apiKey, extra),
    signal,
  });
  if (!response.ok || !isEventStream(response)) {
    throw await ThreadlineError.of(response);
  }
  for await (const frame of readFrames(response.body)) {
    yield frame;
    if (FINAL.has(frame.event.type)) {
      return;
    }
  }
}

export async function* readFrames(body) {
  const decoder = new TextDecoder();
  let buffer = "";
  let id;
  let data;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (data !== undefined) {
          yield { id, event: JSON.parse(data) };
        }
        id = undefined;
        data = undefined;
      } else if (line.startsWith(":")) {
        // A keepalive.
      } else if (line.startsWith("id:")) {
        id = field(line, 3);
      } else if (line.startsWith("data:")) {
        data = data === undefined ? field(line, 5) : `${data}\n${field(line, 5)}`;
      }
      if ((data?.length ?? 0) > MAX_FRAME_CHARS) {
        throw new Error(`an event's data exceeds ${MAX_FRAME_CHARS} characters`);
      }
    }
    if (buffer.length > MAX_FRAME_CHARS) {
      throw new Error(`a line exceeds ${MAX_FRAME_CHARS} characters`);
    }
  }
  throw new Error("the stream ended before its final event");
}

export class ThreadlineError extends Error {
  constructor(status, body) {
    super(`${status} ${body?.error ?? ""}: ${body?.message ?? ""}`.trim());
    this.name = "ThreadlineError";
    this.status = status;
    this.body = body;
  }

  static async of(response) {
    const text = await response.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = { error: String(response.status), message: text };
    }
    return new ThreadlineError(response.status, body);
  }
}

function headers(apiKey, extra) {
  return { Authorization: `Bearer ${apiKey}`, Accept: "text/event-stream", ...extra };
}

function isEventStream(response) {
  return (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
}

function field(line, colon) {
  const value = line.slice(colon);
  return value.startsWith(" ") ? value.slice(1) : value;
}

function trimSlash(url) {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}
