// Schedules: the list, create (one-time or cron with a timezone), enable, disable, trigger, runs.

import { api, query } from '../api.js';
import { h, field, table, pager, offsetOf, badge, money, when, formStatus } from '../dom.js';

const LIMIT = 20;

export function list(params) {
  const offset = offsetOf(params);
  return async ({ signal }) => {
    const envelope = await api('GET', `/v1/schedules${query({ limit: LIMIT, offset })}`, undefined, { signal });
    const stats = envelope.stats ?? {};
    return [
      h('h1', null, 'Schedules'),
      h('p', null, h('a', { href: '#/schedules/new', class: 'button' }, 'New schedule')),
      h('p', { class: 'muted' }, `${stats.total ?? 0} schedules: ${stats.enabled ?? 0} enabled, ${stats.disabled ?? 0} disabled.`),
      table(
        'Schedules',
        [
          { label: 'Name', cell: (s) => h('a', { href: `#/schedules/${encodeURIComponent(s.id)}` }, s.name) },
          { label: 'When', cell: (s) => timing(s) },
          { label: 'Enabled', cell: (s) => badge(s.enabled ? 'enabled' : 'disabled') },
          { label: 'Next run', cell: (s) => nextRun(s) },
          { label: 'Runs', num: true, cell: (s) => `${s.runCount} (${s.successCount} ok, ${s.failureCount} failed)` },
        ],
        envelope.data
      ),
      pager(envelope, offset, LIMIT, '#/schedules'),
    ];
  };
}

export function create() {
  return async () => [h('h1', null, 'New schedule'), scheduleForm()];
}

export function show(id) {
  return async ({ signal }) => {
    const [{ schedule }, runs] = await Promise.all([
      api('GET', path(id), undefined, { signal }),
      api('GET', `/v1/threads${query({ scheduleId: id, limit: 50 })}`, undefined, { signal }),
    ]);
    const message = h('p', { role: 'status', id: 'schedule-message' });
    const act = (method, suffix) => async () => {
      message.textContent = '';
      try {
        const result = await api(method, `${path(id)}/${suffix}`);
        if (result.thread) {
          location.hash = `#/threads/${encodeURIComponent(result.thread.id)}`;
          return;
        }
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      } catch (error) {
        message.textContent = error.message;
      }
    };
    return [
      h('h1', null, schedule.name),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Id'), h('dd', null, h('code', null, schedule.id)),
        h('dt', null, 'Task'), h('dd', null, h('pre', null, schedule.task)),
        h('dt', null, 'When'), h('dd', null, timing(schedule)),
        h('dt', null, 'Enabled'), h('dd', { id: 'schedule-enabled' }, badge(schedule.enabled ? 'enabled' : 'disabled')),
        h('dt', null, 'Next run'), h('dd', { id: 'next-run' }, nextRun(schedule)),
        h('dt', null, 'Last run'), h('dd', null, when(schedule.lastRunAt)),
        h('dt', null, 'Runs'), h('dd', null, `${schedule.runCount}: ${schedule.successCount} completed, ${schedule.failureCount} failed or cancelled`),
        h('dt', null, 'Cost'), h('dd', null, money(schedule.totalCost))
      ),
      h(
        'div',
        { class: 'toolbar' },
        h('button', { type: 'button', onclick: act('PATCH', 'enable') }, 'Enable'),
        h('button', { type: 'button', class: 'secondary', onclick: act('PATCH', 'disable') }, 'Disable'),
        h('button', { type: 'button', class: 'secondary', onclick: act('POST', 'trigger') }, 'Run now')
      ),
      message,
      h('h2', null, 'Runs'),
      table(
        'Threads this schedule started, newest first',
        [
          { label: 'Thread', cell: (t) => h('a', { href: `#/threads/${encodeURIComponent(t.id)}` }, t.title || t.id) },
          { label: 'Status', cell: (t) => badge(t.status) },
          { label: 'Cost', num: true, cell: (t) => money(t.totalCost) },
          { label: 'Created', cell: (t) => when(t.createdAt) },
        ],
        runs.data
      ),
    ];
  };
}

function path(id) {
  return `/v1/schedules/${encodeURIComponent(id)}`;
}

function timing(schedule) {
  const zone = schedule.timezone || 'UTC';
  return schedule.scheduleType === 'recurring'
    ? h('span', null, h('code', null, schedule.cronExpression), ` (${zone})`)
    : h('span', null, `once at ${when(schedule.scheduledTime)}`);
}

/** nextRunAt as the API computes it (UTC), also shown in the schedule's own timezone. */
function nextRun(schedule) {
  if (!schedule.nextRunAt) return '—';
  const zone = schedule.timezone || 'UTC';
  let local = schedule.nextRunAt;
  try {
    local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(new Date(schedule.nextRunAt));
  } catch {
    // A zone this browser does not know: the UTC time alone.
  }
  return h('span', null, h('time', { datetime: schedule.nextRunAt }, `${local} ${zone}`), h('span', { class: 'muted' }, ` (${schedule.nextRunAt})`));
}

function scheduleForm() {
  const name = h('input', { name: 'name', required: true });
  const task = h('textarea', { name: 'task', required: true, rows: 3 });
  const recurring = h('input', { type: 'radio', name: 'scheduleType', value: 'recurring', id: 'type-recurring', checked: true });
  const oneTime = h('input', { type: 'radio', name: 'scheduleType', value: 'one-time', id: 'type-one-time' });
  const cron = h('input', { name: 'cronExpression', placeholder: '0 9 * * 1-5', spellcheck: 'false' });
  const time = h('input', { type: 'datetime-local', name: 'scheduledTime' });
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const timezone = h('input', { name: 'timezone', list: 'timezones', value: 'UTC', spellcheck: 'false' });
  const enabled = h('input', { type: 'checkbox', name: 'enabled', id: 'schedule-enabled-input', checked: true });
  const cronField = field('Cron expression', cron, 'Five fields: minute hour day-of-month month day-of-week (Sunday = 0)');
  const timeField = field('Run at', time, 'Read in the timezone below');
  const status = formStatus();
  const showType = () => {
    cronField.hidden = !recurring.checked;
    timeField.hidden = recurring.checked;
  };
  recurring.addEventListener('change', showType);
  oneTime.addEventListener('change', showType);
  showType();

  const onsubmit = async (event) => {
    event.preventDefault();
    status.textContent = '';
    const body = {
      name: name.value,
      task: task.value,
      scheduleType: recurring.checked ? 'recurring' : 'one-time',
      timezone: timezone.value,
      enabled: enabled.checked,
    };
    if (recurring.checked) body.cronExpression = cron.value;
    else body.scheduledTime = time.value;
    try {
      const { schedule } = await api('POST', '/v1/schedules', body);
      location.hash = `#/schedules/${encodeURIComponent(schedule.id)}`;
    } catch (error) {
      status.textContent = error.message;
    }
  };
  return h(
    'form',
    { class: 'stack', id: 'schedule-form', onsubmit },
    field('Name', name),
    field('Task', task),
    h(
      'fieldset',
      null,
      h('legend', null, 'Type'),
      h('label', { class: 'inline', for: 'type-recurring' }, recurring, 'Recurring (cron)'),
      h('label', { class: 'inline', for: 'type-one-time' }, oneTime, 'One time')
    ),
    cronField,
    timeField,
    field('Timezone', timezone, 'An IANA zone such as Europe/Berlin'),
    h('datalist', { id: 'timezones' }, zones.map((zone) => h('option', { value: zone }))),
    h('label', { class: 'inline', for: enabled.id }, enabled, 'Enabled'),
    status,
    h('div', null, h('button', { type: 'submit' }, 'Create schedule'))
  );
}
