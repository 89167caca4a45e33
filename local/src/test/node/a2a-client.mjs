// A2A client we did not write (@a2a-js/sdk, v1.0 natively, with its v0.3 compat layer: Threadline
// serves A2A 0.3) driving Threadline in local mode; run by A2aClientNodeE2ETest.
// Arguments: the API URL, the owner's key, another user's key, the owner's agent id.
// Prints one JSON object with what the client saw.
import { randomUUID } from "node:crypto";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";

const [apiUrl, ownerKey, otherKey, agentId] = process.argv.slice(2);
const ROLE_USER = 1; // the v1.0 Role enum: ROLE_USER
const STATES = { 1: "submitted", 2: "working", 3: "completed", 4: "failed", 5: "canceled" };

/** A client factory whose every request (card included) carries the key. */
function factory(key) {
  const fetchImpl = (url, init = {}) =>
    fetch(url, { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${key}` } });
  const legacyCompat = { enabled: true };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
    }),
  );
}

const message = (text, contextId) => ({
  message: {
    messageId: randomUUID(),
    role: ROLE_USER,
    parts: [{ content: { $case: "text", value: text } }],
    ...(contextId ? { contextId } : {}),
  },
});
const textOf = (parts = []) =>
  parts.map((part) => (part.content?.$case === "text" ? part.content.value : "")).join("");
const answerOf = (task) => task.artifacts.map((artifact) => textOf(artifact.parts)).join("");
const failure = async (call) => {
  try {
    await call();
    return { failed: false };
  } catch (error) {
    return {
      failed: true,
      name: error.constructor.name,
      code: error.envelopeCode ?? null,
      message: String(error.message),
    };
  }
};

/** Reads a stream to its end: the kinds of events, the states and the answer. */
async function follow(stream, onTask = async () => {}) {
  const seen = { kinds: [], states: [], steps: [], answer: "", taskId: null, contextId: null };
  for await (const event of stream) {
    const { $case, value } = event.payload;
    seen.kinds.push($case);
    if ($case === "task") {
      seen.taskId = value.id;
      seen.contextId = value.contextId;
      seen.states.push(STATES[value.status.state]);
      await onTask(value);
    } else if ($case === "statusUpdate") {
      seen.states.push(STATES[value.status.state]);
      if (value.status.message) seen.steps.push(textOf(value.status.message.parts));
    } else if ($case === "artifactUpdate") {
      seen.answer += textOf(value.artifact.parts);
    }
  }
  return seen;
}

const out = {};
const owner = factory(ownerKey);

// The agent's card at its own URL, through the client's card resolver.
const agentClient = await owner.createFromUrl(
  apiUrl,
  `/a2a/agents/${agentId}/.well-known/agent-card.json`,
);
const card = await agentClient.getAgentCard();
out.card = {
  name: card.name,
  description: card.description,
  skills: card.skills.map((skill) => skill.name),
  streaming: card.capabilities?.streaming ?? false,
  schemes: Object.keys(card.securitySchemes ?? {}),
  interfaces: card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`),
};

// A direct answer: message/send waits for the completed task.
const direct = await agentClient.sendMessage(message("Hello there"));
out.direct = {
  taskId: direct.id,
  contextId: direct.contextId,
  state: STATES[direct.status.state],
  answer: answerOf(direct),
};
const got = await agentClient.getTask({ id: direct.id });
out.got = { state: STATES[got.status.state], history: got.history.map((m) => textOf(m.parts)) };

// A follow-up in the same context, streamed to completion.
out.followUp = await follow(agentClient.sendMessageStream(message("Hello again", direct.contextId)));

// Resubscribing to a finished task: the task once.
out.resubscribed = await follow(agentClient.resubscribeTask({ id: direct.id }));

// A computer run of the scripted model, streamed to completion (threads without an agent: the
// server's public card at the well-known path).
const serverClient = await owner.createFromUrl(apiUrl);
out.serverCard = { name: (await serverClient.getAgentCard()).name };
out.computer = await follow(
  serverClient.sendMessageStream(message("Run `echo a2a > a2a.txt` and `cat a2a.txt`")),
);

// A run cancelled while its stream is open.
out.cancelled = await follow(
  serverClient.sendMessageStream(message("Run `sleep 30`")),
  async (task) => {
    const cancelled = await serverClient.cancelTask({ id: task.id });
    out.cancelAnswer = STATES[cancelled.status.state];
  },
);

// Another user's key sees nothing: not the agent's card, not the tasks, not the context.
const other = factory(otherKey);
out.otherCard = await failure(() =>
  other.createFromUrl(apiUrl, `/a2a/agents/${agentId}/.well-known/agent-card.json`),
);
const otherClient = await other.createFromUrl(apiUrl);
out.otherTask = await failure(() => otherClient.getTask({ id: out.computer.taskId }));
out.otherCancel = await failure(() => otherClient.cancelTask({ id: out.cancelled.taskId }));
out.otherContext = await failure(() =>
  otherClient.sendMessage(message("Hi", out.computer.contextId)),
);

console.log(JSON.stringify(out));
