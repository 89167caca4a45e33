// A thread's changes shown as a unified diff: a created file is all additions; a modified file
// shows the counts the API reports.

import { h } from './dom.js';

export function renderDiffs(entries) {
  if (!entries || entries.length === 0) return h('p', { class: 'muted' }, 'No file changes.');
  return h('div', null, entries.map(renderDiff));
}

function renderDiff(entry) {
  const body =
    entry.type === 'create'
      ? h(
          'pre',
          { 'aria-label': `Contents of ${entry.path}` },
          h('span', { class: 'meta' }, `--- /dev/null\n+++ b/${entry.path}\n`),
          lines(entry.content ?? '').map((line) => h('span', { class: 'add' }, `+${line}`))
        )
      : h(
          'pre',
          { class: 'stat' },
          `--- a/${entry.path}\n+++ b/${entry.path}\n`,
          h('span', { class: 'add' }, `+${entry.additions ?? 0}`),
          ' ',
          h('span', { class: 'del' }, `-${entry.deletions ?? 0}`),
          ' lines'
        );
  return h('section', { class: 'diff', 'aria-label': entry.path }, h('h3', null, `${entry.path} (${entry.type})`), body);
}

function lines(text) {
  const all = text.split('\n');
  if (all.length > 1 && all[all.length - 1] === '') all.pop();
  return all;
}
