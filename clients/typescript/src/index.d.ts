import type { Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** The data of one stream frame, by its `type`. */
export type StreamEvent = components["schemas"]["StreamEvent"];

/** One frame of a stream: its cursor (absent on stream-level notices) and its event. */
export interface Frame {
  id?: string;
  event: StreamEvent;
}

/** A typed client of every REST operation: `client.GET("/v1/threads/{threadId}", ...)`. */
export function createThreadlineClient(options: {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
}): Client<paths>;

/**
 * Sends a message — a new thread's (`body` of POST /v1/threads) or, with `threadId`, a follow-up
 * (`body` of POST /v1/threads/{threadId}/messages) — and yields its stream's frames to the end
 * (stream.completed or stream.error). A connection that drops is resumed with `Last-Event-ID`
 * on GET /v1/threads/{threadId}/stream, up to `maxReconnects` times; the POST carries an
 * Idempotency-Key, so repeating it before any event arrived starts no second run.
 */
export function streamMessage(options: {
  baseUrl: string;
  apiKey: string;
  threadId?: string;
  body: components["schemas"]["ThreadCreate"] | components["schemas"]["MessageCreate"];
  fetch?: typeof globalThis.fetch;
  maxReconnects?: number;
  signal?: AbortSignal;
}): AsyncGenerator<Frame, void, undefined>;

/** The stream of a thread's latest run, from its start or after `lastEventId`. */
export function resumeStream(options: {
  baseUrl: string;
  apiKey: string;
  threadId: string;
  lastEventId?: string;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}): AsyncGenerator<Frame, void, undefined>;

/** Reads Server-Sent Events frames off a response body; throws if it ends before a final event. */
export function readFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<Frame, void, undefined>;

/** A refusal of the API: its status and its `{error, message}` body. */
export class ThreadlineError extends Error {
  readonly status: number;
  readonly body: components["schemas"]["Error"];
  static of(response: Response): Promise<ThreadlineError>;
}
