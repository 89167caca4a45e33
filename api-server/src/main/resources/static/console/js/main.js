// The console's shell: sign-in, navigation, and a hash router that renders one page at a time.

import { api, ApiError, session, whenUnauthorized } from './api.js';
import { h, field, fill, formStatus } from './dom.js';
import * as threads from './pages/threads.js';
import * as conversation from './pages/conversation.js';
import * as environments from './pages/environments.js';
import * as schedules from './pages/schedules.js';
import * as usage from './pages/usage.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const signOutButton = document.getElementById('sign-out');
const notice = document.getElementById('notice');

// Each route: a pattern over the hash path, the section it belongs to, and its page.
const routes = [
  [/^\/threads$/, 'threads', (p, q) => threads.list(q)],
  [/^\/threads\/new$/, 'threads', () => conversation.fresh()],
  [/^\/threads\/([^/]+)$/, 'threads', ([id]) => conversation.show(id)],
  [/^\/threads\/([^/]+)\/logs$/, 'threads', ([id]) => conversation.logs(id)],
  [/^\/threads\/([^/]+)\/diffs$/, 'threads', ([id]) => conversation.diffs(id)],
  [/^\/environments$/, 'environments', (p, q) => environments.list(q)],
  [/^\/environments\/new$/, 'environments', () => environments.create()],
  [/^\/environments\/([^/]+)$/, 'environments', ([id]) => environments.show(id)],
  [/^\/schedules$/, 'schedules', (p, q) => schedules.list(q)],
  [/^\/schedules\/new$/, 'schedules', () => schedules.create()],
  [/^\/schedules\/([^/]+)$/, 'schedules', ([id]) => schedules.show(id)],
  [/^\/usage$/, 'usage', () => usage.show()],
];

let current = null;

export function showNotice(message) {
  notice.textContent = message;
  notice.hidden = !message;
}

async function render() {
  current?.abort();
  current = new AbortController();
  showNotice('');
  if (!session.key()) {
    signedIn(false);
    fill(main, signInPage());
    return;
  }
  signedIn(true);
  const [path, search] = (location.hash.replace(/^#/, '') || '/threads').split('?');
  const params = new URLSearchParams(search ?? '');
  const route = routes.find(([pattern]) => pattern.test(path));
  if (!route) {
    location.hash = '#/threads';
    return;
  }
  const [pattern, section, page] = route;
  for (const link of nav.querySelectorAll('a')) {
    if (link.dataset.section === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const context = { signal: current.signal, params };
  const captures = path.match(pattern).slice(1).map(decodeURIComponent);
  fill(main, h('p', { class: 'muted' }, 'Loading…'));
  try {
    const view = await page(captures, params)(context);
    if (!context.signal.aborted) {
      fill(main, view);
      main.focus({ preventScroll: true });
    }
  } catch (error) {
    if (!context.signal.aborted) fill(main, h('h1', null, 'Something went wrong'), h('p', { class: 'error', role: 'alert' }, error.message));
  }
}

function signedIn(yes) {
  nav.hidden = !yes;
  signOutButton.hidden = !yes;
}

function signInPage() {
  const key = h('input', { type: 'password', name: 'apiKey', autocomplete: 'off', required: true, spellcheck: 'false' });
  const status = formStatus();
  const submit = async (event) => {
    event.preventDefault();
    status.textContent = '';
    const candidate = key.value.trim();
    try {
      // The key is kept only if the API knows it: 403 (a key without the read scope) is a known key.
      await api('GET', '/v1/threads?limit=1', undefined, { key: candidate }).catch((error) => {
        if (!(error instanceof ApiError && error.status === 403)) throw error;
      });
      session.signIn(candidate);
      if (!location.hash || location.hash === '#/') location.hash = '#/threads';
      else render();
    } catch (error) {
      status.textContent = error.message;
    }
  };
  return [
    h('h1', null, 'Sign in'),
    h('p', null, 'Use your Threadline API key. It is kept in this browser tab only and sent with each request.'),
    h('form', { class: 'stack', id: 'sign-in', onsubmit: submit }, field('API key', key), status, h('div', null, h('button', { type: 'submit' }, 'Sign in'))),
  ];
}

whenUnauthorized(() => {
  if (session.key()) {
    session.signOut();
    render().then(() => showNotice('The API did not accept the key any more; sign in again.'));
  }
});

signOutButton.addEventListener('click', () => {
  session.signOut();
  location.hash = '#/';
  render();
});

window.addEventListener('hashchange', render);
render();
