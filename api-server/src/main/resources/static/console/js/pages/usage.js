// Usage: this month's allowance, what is used and what remains, and the cost of each thread.

import { api } from '../api.js';
import { h, money, when } from '../dom.js';

const THREADS = 100;
const SVG = 'http://www.w3.org/2000/svg';

export function show() {
  return async ({ signal }) => {
    const [usage, threads] = await Promise.all([
      api('GET', '/v1/usage', undefined, { signal }),
      api('GET', `/v1/threads?limit=${THREADS}`, undefined, { signal }),
    ]);
    const start = Date.parse(usage.period.start);
    const thisMonth = threads.data.filter((thread) => Date.parse(thread.createdAt) >= start);
    return [
      h('h1', null, 'Usage'),
      h('p', { class: 'muted' }, `${usage.userId}, tier ${usage.tier}, ${when(usage.period.start)} to ${when(usage.period.end)} (end exclusive).`),
      h(
        'div',
        { class: 'cards' },
        card('Allowance', money(usage.allowance), 'usage-allowance'),
        card('Used', money(usage.used), 'usage-used'),
        card('Remaining', money(usage.remaining), 'usage-remaining'),
        card('Runs', String(usage.runs), 'usage-runs'),
        card('Tokens', `${usage.inputTokens} in / ${usage.outputTokens} out`, 'usage-tokens')
      ),
      h('p', { class: 'muted' }, 'Used counts finished runs; a running run counts once it ends.'),
      h('h2', null, 'Cost per thread this month'),
      chart(thisMonth),
    ];
  };
}

function card(label, value, id) {
  return h('div', { class: 'card' }, h('div', { class: 'muted' }, label), h('div', { class: 'value', id }, value));
}

function svg(tag, attributes, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  for (const child of children) el.append(child);
  return el;
}

/** Horizontal bars, one per thread, longest cost first; each bar names its thread and cost. */
function chart(threads) {
  if (threads.length === 0) return h('p', { class: 'muted' }, 'No threads this month.');
  const rows = [...threads].sort((a, b) => b.totalCost - a.totalCost).slice(0, 20);
  const max = Math.max(...rows.map((t) => t.totalCost), Number.MIN_VALUE);
  const rowHeight = 22;
  const labelWidth = 200;
  const barWidth = 380;
  const width = labelWidth + barWidth + 90;
  const height = rows.length * rowHeight + 8;
  const summary = rows.map((t) => `${t.title || t.id}: ${money(t.totalCost)}`).join('; ');
  const root = svg('svg', { class: 'chart', id: 'cost-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Cost per thread. ${summary}` });
  rows.forEach((thread, i) => {
    const y = 4 + i * rowHeight;
    const length = Math.max(1, (thread.totalCost / max) * barWidth);
    const label = (thread.title || thread.id).slice(0, 30);
    root.append(
      svg(
        'g',
        { class: 'row' },
        svg('title', {}, `${thread.title || thread.id}: ${money(thread.totalCost)}`),
        svg('text', { x: labelWidth - 6, y: y + 14, 'text-anchor': 'end' }, label),
        svg('rect', { class: 'bar', x: labelWidth, y: y + 3, width: length, height: rowHeight - 8, rx: 2 }),
        svg('text', { x: labelWidth + length + 6, y: y + 14 }, money(thread.totalCost))
      )
    );
  });
  return root;
}
