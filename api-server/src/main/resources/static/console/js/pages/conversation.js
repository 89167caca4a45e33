// A thread: its conversation with the live stream, the calls a run waits on, follow-ups, cancel,
// and its logs and diffs.

import { api, openStream, ApiError } from '../api.js';
import { readEvents } from '../sse.js';
import { h, fill, field, badge, money, when, table, formStatus } from '../dom.js';
import { renderDiffs } from '../diff.js';
import { WaitingCall } from '../approvals.js';

const HISTORY = 100;
const RETRIES = 6;

let pending = null;

/** The first message of a thread the next `#/threads/new` page sends. */
export function begin(content) {
  pending = content;
}

export function fresh() {
  return async ({ signal }) => {
    if (pending === null) {
      location.replace('#/threads');
      return [];
    }
    const content = pending;
    pending = null;
    const view = new Conversation(null, signal);
    view.addUser(content);
    view.follow(() => openStream('POST', '/v1/threads', { messages: [{ role: 'user', content }] }, { signal }));
    return view.root;
  };
}

export function show(id) {
  return async ({ signal }) => {
    const view = new Conversation(id, signal);
    const [{ thread }, messages] = await Promise.all([
      api('GET', path(id), undefined, { signal }),
      api('GET', `${path(id)}/messages?limit=${HISTORY}&order=desc`, undefined, { signal }),
    ]);
    view.header(thread);
    view.history(messages);
    if (thread.status === 'running') {
      // Joins the run in progress from its first event.
      view.follow(() => openStream('GET', `${path(id)}/stream`, undefined, { signal }));
    }
    return view.root;
  };
}

export function logs(id) {
  return async ({ signal }) => {
    const log = await api('GET', `${path(id)}/logs`, undefined, { signal });
    return [
      h('h1', null, 'Thread logs'),
      tabs(id, 'logs'),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Status'), h('dd', null, badge(log.status)),
        h('dt', null, 'Duration'), h('dd', null, `${log.duration} ms`),
        h('dt', null, 'Cost'), h('dd', null, money(log.totalCost)),
        h('dt', null, 'Tokens'), h('dd', null, `${log.inputTokens} in, ${log.outputTokens} out`)
      ),
      table(
        'Log entries, oldest first',
        [
          { label: 'Time', cell: (e) => e.time },
          { label: 'Type', cell: (e) => badge(e.type) },
          { label: 'Event', cell: (e) => e.eventType },
          { label: 'Message', cell: (e) => h('pre', null, e.message) },
        ],
        log.logs
      ),
    ];
  };
}

export function diffs(id) {
  return async ({ signal }) => {
    const { diffs: entries } = await api('GET', `${path(id)}/diffs`, undefined, { signal });
    return [h('h1', null, 'Thread diffs'), tabs(id, 'diffs'), renderDiffs(entries)];
  };
}

function path(id) {
  return `/v1/threads/${encodeURIComponent(id)}`;
}

function tabs(id, active) {
  const base = `#/threads/${encodeURIComponent(id)}`;
  const link = (href, name, label) => h('a', { href, class: 'button secondary', 'aria-current': active === name ? 'page' : null }, label);
  return h(
    'nav',
    { class: 'toolbar', 'aria-label': 'Thread views' },
    link(base, 'conversation', 'Conversation'),
    link(`${base}/logs`, 'logs', 'Logs'),
    link(`${base}/diffs`, 'diffs', 'Diffs')
  );
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

class Conversation {
  constructor(id, signal) {
    this.id = id;
    this.signal = signal;
    this.title = h('h1', null, id ? 'Thread' : 'New thread');
    this.facts = h('dl', { class: 'facts' });
    this.tabs = h('div');
    this.items = h('ol', { class: 'conversation', 'aria-label': 'Conversation', 'aria-live': 'polite' });
    this.live = h('p', { class: 'muted', role: 'status' });
    this.partial = null;
    this.waits = new Map();
    this.root = [
      this.title,
      this.facts,
      this.tabs,
      this.toolbar(),
      this.live,
      this.items,
      this.followUpForm(),
    ];
    if (id) this.setThread(id);
  }

  setThread(id) {
    this.id = id;
    fill(this.tabs, tabs(id, 'conversation'));
    if (location.hash !== `#/threads/${encodeURIComponent(id)}`) {
      history.replaceState(null, '', `#/threads/${encodeURIComponent(id)}`);
    }
  }

  header(thread) {
    this.title.textContent = thread.title || thread.id;
    fill(
      this.facts,
      h('dt', null, 'Status'), h('dd', { id: 'thread-status' }, badge(thread.status)),
      h('dt', null, 'Id'), h('dd', null, h('code', null, thread.id)),
      h('dt', null, 'Messages'), h('dd', null, String(thread.messageCount)),
      h('dt', null, 'Cost'), h('dd', null, money(thread.totalCost)),
      h('dt', null, 'Tokens'), h('dd', null, `${thread.inputTokens} in, ${thread.outputTokens} out`),
      h('dt', null, 'Environment'), h('dd', null, thread.environmentId ? h('a', { href: `#/environments/${encodeURIComponent(thread.environmentId)}` }, thread.environmentId) : '—'),
      h('dt', null, 'Created'), h('dd', null, when(thread.createdAt))
    );
  }

  async refresh() {
    if (!this.id || this.signal.aborted) return;
    try {
      const { thread } = await api('GET', path(this.id), undefined, { signal: this.signal });
      this.header(thread);
    } catch (error) {
      if (!this.signal.aborted) this.live.textContent = error.message;
    }
  }

  toolbar() {
    const cancel = async () => {
      if (!this.id) return;
      try {
        const result = await api('POST', `${path(this.id)}/cancel`, undefined, { signal: this.signal });
        this.live.textContent = result.message;
      } catch (error) {
        this.live.textContent = error.message;
      }
      this.refresh();
    };
    return h('div', { class: 'toolbar' }, h('button', { type: 'button', class: 'danger', id: 'cancel-run', onclick: cancel }, 'Cancel run'));
  }

  followUpForm() {
    const content = h('textarea', { name: 'content', rows: 3, required: true });
    const status = formStatus();
    const submit = (event) => {
      event.preventDefault();
      const text = content.value.trim();
      if (!text || !this.id) return;
      status.textContent = '';
      const sent = this.follow(
        () => openStream('POST', `${path(this.id)}/messages`, { content: text }, { signal: this.signal }),
        () => {
          content.value = '';
          this.addUser(text);
        }
      );
      sent.catch((error) => { status.textContent = error.message; });
    };
    return h('form', { class: 'stack', id: 'follow-up', onsubmit: submit }, h('h2', null, 'Follow-up'), field('Message', content), status, h('div', null, h('button', { type: 'submit' }, 'Send')));
  }

  history(envelope) {
    const messages = [...envelope.data].reverse();
    if (envelope.has_more) this.items.append(h('li', { class: 'muted' }, `Showing the latest ${messages.length} of ${envelope.total_count} messages.`));
    for (const message of messages) {
      if (message.role === 'user') this.addUser(message.content);
      else this.addItem('Answer', 'answer', h('p', { class: 'text' }, message.content));
    }
  }

  addUser(text) {
    this.addItem('You', 'user', h('p', { class: 'text' }, text));
  }

  addItem(kind, cls, ...body) {
    const item = h('li', { class: `item ${cls}` }, h('div', { class: 'kind' }, kind), ...body);
    this.items.append(item);
    return item;
  }

  /**
   * Follows a stream to its end; a dropped connection is resumed from the last event id through
   * the thread's stream endpoint. A refusal of the opening request is thrown to the caller when
   * onAccepted is given (the form shows it); otherwise it is shown in the conversation.
   */
  async follow(open, onAccepted) {
    let response;
    try {
      response = await open();
    } catch (error) {
      if (onAccepted) throw error;
      this.failure(error.message);
      return;
    }
    onAccepted?.();
    this.live.textContent = 'Streaming…';
    let lastEventId = null;
    let finished = false;
    let failures = 0;
    while (!this.signal.aborted) {
      try {
        await readEvents(response, ({ id, data }) => {
          if (id) lastEventId = id;
          failures = 0;
          if (this.handle(data)) finished = true;
        });
      } catch {
        // The connection broke; resumed below.
      }
      if (finished || this.signal.aborted) break;
      if (!this.id || ++failures > RETRIES) {
        this.failure('The stream was interrupted. Reload the page to follow the thread again.');
        break;
      }
      this.live.textContent = 'Connection lost; resuming…';
      await sleep(Math.min(8000, 250 * 2 ** failures), this.signal);
      try {
        response = await openStream('GET', `${path(this.id)}/stream`, undefined, { lastEventId, signal: this.signal });
      } catch (error) {
        if (error instanceof ApiError) {
          this.failure(error.message);
          break;
        }
        response = { body: new Blob([]).stream() };
      }
    }
    this.settleWaits();
    if (!this.signal.aborted) {
      if (finished) this.live.textContent = '';
      await this.refresh();
    }
  }

  /** Renders one event; true when the stream is over. */
  handle(event) {
    // A run waits on one call at a time: whatever it streams next (but the same request
    // again), the wait is over.
    if (!(event.type === 'response.approval_requested' && this.waits.has(event.approval?.callId))) this.settleWaits();
    switch (event.type) {
      case 'thread.created':
        this.setThread(event.thread.id);
        this.refresh();
        return false;
      case 'direct.response':
        this.addItem('Answer', 'answer', h('p', { class: 'text' }, event.message));
        return false;
      case 'computer.starting':
        this.addItem('Computer', 'note', h('p', null, 'Starting a computer…'));
        return false;
      case 'response.started':
        this.live.textContent = `Running on a computer (${event.response?.model ?? 'agent'})…`;
        return false;
      case 'response.content_part.delta':
        this.delta(event.delta?.text ?? '');
        return false;
      case 'response.item.completed':
        this.item(event.item ?? {});
        return false;
      case 'response.approval_requested':
        this.wait(event);
        return false;
      case 'response.completed':
        this.addItem('Completed', 'note', h('p', { class: 'muted' }, summary(event.response ?? {})));
        this.refresh();
        return false;
      case 'response.failed': {
        const error = event.response?.error ?? {};
        this.addItem('Failed', 'failure', h('p', { class: 'error' }, `${error.message ?? 'The run failed'}${error.code ? ` (${error.code})` : ''}`));
        this.refresh();
        return false;
      }
      case 'stream.completed':
        return true;
      case 'stream.error':
      case 'error':
        this.failure(event.error?.message ?? 'The stream failed');
        return true;
      default:
        return false;
    }
  }

  /** A call the run waits on; shown once, however often the stream is replayed. */
  wait(event) {
    const approval = event.approval ?? {};
    if (!approval.callId || this.waits.has(approval.callId)) return;
    const call = new WaitingCall(event.threadId ?? this.id, approval, this.signal);
    this.waits.set(call.callId, call);
    this.items.append(call.element);
    this.live.textContent = call.waitingText();
  }

  settleWaits() {
    for (const call of this.waits.values()) {
      if (call.settled) continue;
      call.settle();
      if (this.live.textContent === call.waitingText()) this.live.textContent = 'Streaming…';
    }
  }

  delta(text) {
    if (!this.partial) this.partial = this.addItem('Answer', 'answer', h('p', { class: 'text' }));
    this.partial.querySelector('.text').append(text);
  }

  item(item) {
    const text = (content) => (Array.isArray(content) ? content.map((part) => part.text ?? '').join('') : content?.text ?? '');
    switch (item.type) {
      case 'planning':
        this.addItem('Plan', 'planning', h('pre', null, text(item.content)));
        break;
      case 'reasoning':
        this.addItem('Reasoning', 'reasoning', h('p', null, text(item.content)));
        break;
      case 'message': {
        const body = h('p', { class: 'text' }, text(item.content));
        if (this.partial) fill(this.partial, h('div', { class: 'kind' }, 'Answer'), body);
        else this.addItem('Answer', 'answer', body);
        this.partial = null;
        break;
      }
      case 'tool_call': {
        const tool = item.tool ?? {};
        const exit = tool.exit_code;
        this.addItem(
          'Tool call',
          `tool-call${exit === 0 ? '' : ' failure'}`,
          tool.command === undefined && tool.name
            ? h('p', { class: 'tool' }, h('code', null, tool.name))
            : h('pre', { class: 'command', 'aria-label': 'Command' }, `$ ${tool.command ?? ''}`),
          h('pre', { class: 'output', 'aria-label': 'Output' }, tool.output ?? ''),
          h('p', { class: 'exit muted' }, `exit code ${exit ?? '—'}`, item.metadata?.duration_ms !== undefined ? ` · ${item.metadata.duration_ms} ms` : '')
        );
        break;
      }
      case 'file_change':
        this.addItem(
          'File change',
          'file-change',
          h('p', null, h('code', null, item.path ?? ''), ` ${item.change ?? ''} `, h('span', { class: 'muted' }, `+${item.additions ?? 0} −${item.deletions ?? 0}`))
        );
        break;
      default:
        this.addItem(item.type ?? 'Item', item.type === 'error' ? 'failure' : 'note', h('pre', null, text(item.content) || item.message || JSON.stringify(item)));
    }
  }

  failure(message) {
    this.live.textContent = '';
    this.addItem('Error', 'failure', h('p', { class: 'error', role: 'alert' }, message));
  }
}

function summary(response) {
  const usage = response.usage ?? {};
  const parts = [];
  if (response.duration_ms !== undefined) parts.push(`${response.duration_ms} ms`);
  if (usage.total_tokens !== undefined) parts.push(`${usage.input_tokens} input and ${usage.output_tokens} output tokens`);
  return parts.length ? `Finished in ${parts.join(', ')}.` : 'Finished.';
}
