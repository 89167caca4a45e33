// Threads: the list with paging, and the form that starts a new conversation.

import { api, query } from '../api.js';
import { h, field, table, pager, offsetOf, badge, money, when } from '../dom.js';
import { begin } from './conversation.js';

const LIMIT = 20;

export function list(params) {
  const offset = offsetOf(params);
  return async ({ signal }) => {
    const envelope = await api('GET', `/v1/threads${query({ limit: LIMIT, offset })}`, undefined, { signal });
    return [
      h('h1', null, 'Threads'),
      newThreadForm(),
      h('h2', null, 'Your threads'),
      table(
        'Threads, newest first',
        [
          { label: 'Title', cell: (t) => h('a', { href: `#/threads/${encodeURIComponent(t.id)}` }, t.title || t.id) },
          { label: 'Status', cell: (t) => badge(t.status) },
          { label: 'Messages', num: true, cell: (t) => String(t.messageCount) },
          { label: 'Cost', num: true, cell: (t) => money(t.totalCost) },
          { label: 'Created', cell: (t) => when(t.createdAt) },
        ],
        envelope.data
      ),
      pager(envelope, offset, LIMIT, '#/threads'),
    ];
  };
}

function newThreadForm() {
  const message = h('textarea', { name: 'message', required: true, rows: 3 });
  const submit = (event) => {
    event.preventDefault();
    const content = message.value.trim();
    if (!content) return;
    begin(content);
    location.hash = '#/threads/new';
  };
  return h(
    'form',
    { class: 'stack', id: 'new-thread', onsubmit: submit },
    field('New thread', message, 'A question is answered directly; commands in `backticks` run on a computer.'),
    h('div', null, h('button', { type: 'submit' }, 'Start thread'))
  );
}
