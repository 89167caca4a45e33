// Environments: the list, create and edit, builds with their live status and log, the Dockerfile.

import { api, query } from '../api.js';
import { h, fill, field, table, pager, offsetOf, badge, when, formStatus } from '../dom.js';

const LIMIT = 20;
const PACKAGE_TYPES = ['system', 'python', 'node'];
const BUILD_POLL_MS = 1000;

export function list(params) {
  const offset = offsetOf(params);
  return async ({ signal }) => {
    const envelope = await api('GET', `/environments${query({ limit: LIMIT, offset })}`, undefined, { signal });
    return [
      h('h1', null, 'Environments'),
      h('p', null, h('a', { href: '#/environments/new', class: 'button' }, 'New environment')),
      table(
        'Environments',
        [
          { label: 'Name', cell: (e) => h('a', { href: `#/environments/${encodeURIComponent(e.id)}` }, e.name) },
          { label: 'Build', cell: (e) => badge(e.buildStatus) },
          { label: 'Default', cell: (e) => (e.isDefault ? 'yes' : '') },
          { label: 'Created', cell: (e) => when(e.createdAt) },
        ],
        envelope.data
      ),
      pager(envelope, offset, LIMIT, '#/environments'),
    ];
  };
}

export function create() {
  return async ({ signal }) => {
    const { runtimes } = await api('GET', '/environments/runtimes/available', undefined, { signal });
    const form = environmentForm(runtimes, null, async (body) => {
      const { environment } = await api('POST', '/environments', body);
      location.hash = `#/environments/${encodeURIComponent(environment.id)}`;
    });
    return [h('h1', null, 'New environment'), form];
  };
}

export function show(id) {
  return async ({ signal }) => {
    const [{ environment }, { runtimes }, dockerfile] = await Promise.all([
      api('GET', path(id), undefined, { signal }),
      api('GET', '/environments/runtimes/available', undefined, { signal }),
      api('GET', `${path(id)}/dockerfile`, undefined, { signal }),
    ]);
    const build = buildSection(environment, signal);
    const form = environmentForm(runtimes, environment, async (body) => {
      await api('PATCH', path(id), body);
      location.hash = `#/environments/${encodeURIComponent(id)}`;
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    return [
      h('h1', null, environment.name),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Id'), h('dd', null, h('code', null, environment.id)),
        h('dt', null, 'Description'), h('dd', null, environment.description || '—'),
        h('dt', null, 'Default'), h('dd', null, environment.isDefault ? 'yes' : 'no'),
        h('dt', null, 'Image'), h('dd', null, environment.imageTag ?? '—'),
        h('dt', null, 'Variables'), h('dd', null, maskedList(environment.environmentVariables, 'key')),
        h('dt', null, 'Secrets'), h('dd', null, maskedList(environment.secrets, 'name')),
        h('dt', null, 'Created'), h('dd', null, when(environment.createdAt))
      ),
      build,
      h('h2', null, 'Generated Dockerfile'),
      h('pre', { id: 'dockerfile', 'aria-label': 'Generated Dockerfile' }, dockerfile.effectiveDockerfile),
      h('h2', null, 'Edit'),
      form,
    ];
  };
}

function path(id) {
  return `/environments/${encodeURIComponent(id)}`;
}

/** Names with their values as the API returns them: masked. */
function maskedList(items, nameField) {
  if (!items || items.length === 0) return '—';
  return h('ul', null, items.map((item) => h('li', null, h('code', null, item[nameField]), ' = ', h('code', null, item.value ?? '****'))));
}

function buildSection(environment, signal) {
  const status = h('span', { id: 'build-status' }, badge(environment.buildStatus));
  const error = h('p', { class: 'error' }, environment.buildError ?? '');
  const log = h('pre', { id: 'build-log', 'aria-label': 'Build log' }, environment.buildLogs ?? '');
  const message = h('p', { role: 'status' });
  const id = environment.id;

  const watch = async () => {
    while (!signal.aborted) {
      const state = await api('GET', `${path(id)}/build/status`, undefined, { signal });
      fill(status, badge(state.buildStatus));
      error.textContent = state.buildError ?? '';
      const logs = await api('GET', `${path(id)}/build/logs`, undefined, { signal });
      log.textContent = logs.buildLogs ?? '';
      if (state.buildStatus !== 'building' && state.buildStatus !== 'pending') return;
      await new Promise((resolve) => setTimeout(resolve, BUILD_POLL_MS));
    }
  };
  const start = (force) => async () => {
    message.textContent = '';
    try {
      const accepted = await api('POST', `${path(id)}/build${force ? '?force=true' : ''}`);
      message.textContent = accepted.message;
      await watch();
    } catch (failure) {
      if (!signal.aborted) message.textContent = failure.message;
    }
  };
  if (environment.buildStatus === 'building') watch().catch(() => {});
  return h(
    'section',
    { 'aria-labelledby': 'build-heading' },
    h('h2', { id: 'build-heading' }, 'Build'),
    h('p', null, 'Status: ', status, environment.lastBuildAt ? h('span', { class: 'muted' }, ` last built ${when(environment.lastBuildAt)}`) : ''),
    h('div', { class: 'toolbar' }, h('button', { type: 'button', id: 'build', onclick: start(false) }, 'Build'), h('button', { type: 'button', class: 'secondary', onclick: start(true) }, 'Force rebuild')),
    message,
    error,
    log
  );
}

/** One form for create and edit; submit(body) sends it, and its refusal is shown as worded. */
function environmentForm(available, environment, submit) {
  const name = h('input', { name: 'name', required: true, value: environment?.name ?? '' });
  const description = h('input', { name: 'description', value: environment?.description ?? '' });
  const runtimeSelects = Object.entries(available).map(([language, versions]) =>
    h(
      'select',
      { name: `runtime-${language}` },
      h('option', { value: '' }, 'none'),
      versions.map((version) => h('option', { value: version, selected: environment?.runtimes?.[language] === version }, version))
    )
  );
  const packageInputs = PACKAGE_TYPES.map((type) => h('input', { name: `packages-${type}`, value: (environment?.packages?.[type] ?? []).join(' ') }));
  const extensions = h('textarea', { name: 'dockerfileExtensions', rows: 4, value: environment?.dockerfileExtensions ?? '' });
  const variables = pairs('Environment variables', 'key', 'Variable', environment?.environmentVariables ?? []);
  const secrets = pairs('Secrets', 'name', 'Secret', environment?.secrets ?? []);
  const status = formStatus();
  const languages = Object.keys(available);

  const onsubmit = async (event) => {
    event.preventDefault();
    status.textContent = '';
    const runtimes = {};
    runtimeSelects.forEach((select, i) => {
      if (select.value) runtimes[languages[i]] = select.value;
    });
    const packages = {};
    packageInputs.forEach((input, i) => {
      packages[PACKAGE_TYPES[i]] = input.value.split(/[\s,]+/).filter(Boolean);
    });
    const body = {
      name: name.value,
      description: description.value,
      runtimes,
      packages,
      dockerfileExtensions: extensions.value,
      environmentVariables: variables.values(),
      secrets: secrets.values(),
    };
    try {
      await submit(body);
    } catch (error) {
      status.textContent = error.message;
    }
  };
  return h(
    'form',
    { class: 'stack', id: 'environment-form', onsubmit },
    field('Name', name),
    field('Description', description),
    h('fieldset', null, h('legend', null, 'Runtimes'), runtimeSelects.map((select, i) => field(languages[i], select))),
    h('fieldset', null, h('legend', null, 'Packages'), packageInputs.map((input, i) => field(PACKAGE_TYPES[i], input, 'Names separated by spaces'))),
    field('Dockerfile extensions', extensions, 'Placed after runtimes and packages, before the entrypoint'),
    variables.element,
    secrets.element,
    status,
    h('div', null, h('button', { type: 'submit' }, environment ? 'Save' : 'Create environment'))
  );
}

/**
 * Name/value rows. Stored values come back masked; a row sent back with the mask keeps the
 * stored value (the API's rule), so values are never shown or needed to edit other fields.
 */
function pairs(legend, nameField, noun, items) {
  const rows = h('div', { class: 'pairs' });
  const add = (item = {}) => {
    const key = h('input', { name: `${nameField}`, value: item[nameField] ?? '', 'aria-label': `${noun} name` });
    const value = h('input', { type: 'password', name: 'value', value: item.value ?? '', autocomplete: 'new-password', 'aria-label': `${noun} value` });
    const row = h('div', { class: 'pair' }, key, value, h('button', { type: 'button', class: 'secondary', onclick: () => row.remove(), 'aria-label': `Remove ${noun.toLowerCase()}` }, 'Remove'));
    rows.append(row);
  };
  items.forEach(add);
  return {
    element: h('fieldset', null, h('legend', null, legend), rows, h('button', { type: 'button', class: 'secondary', onclick: () => add() }, `Add ${noun.toLowerCase()}`)),
    values: () =>
      [...rows.querySelectorAll('.pair')]
        .map((row) => {
          const [key, value] = row.querySelectorAll('input');
          return { [nameField]: key.value.trim(), value: value.value };
        })
        .filter((pair) => pair[nameField] !== ''),
  };
}
