// Small DOM helpers: every text goes in as text, never as HTML.

let ids = 0;

/** Creates an element: h('a', {href: '#/x', onclick: f}, 'text', child, [more]). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      el.className = value;
    } else if (name === 'value' && 'value' in el && tag !== 'option') {
      el.value = value;
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A labelled control: the label names it for screen readers, the hint explains it. */
export function field(label, control, hint) {
  if (!control.id) control.id = `field-${++ids}`;
  const labelEl = h('label', { for: control.id }, label);
  if (hint) {
    const hintEl = h('span', { class: 'hint', id: `${control.id}-hint` }, hint);
    control.setAttribute('aria-describedby', hintEl.id);
    return h('div', { class: 'field' }, labelEl, control, hintEl);
  }
  return h('div', { class: 'field' }, labelEl, control);
}

/** A status badge whose class follows the value (completed, failed, running…). */
export function badge(value) {
  return h('span', { class: `badge ${value ?? ''}` }, value ?? '—');
}

export function money(amount) {
  const value = Number(amount ?? 0);
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 2)}`;
}

export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A table that becomes a list of labelled rows at phone width. */
export function table(caption, columns, rows) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'responsive' },
      h('caption', { class: 'muted' }, caption),
      h('thead', null, h('tr', null, columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)))),
      h(
        'tbody',
        null,
        rows.length === 0
          ? h('tr', null, h('td', { colspan: columns.length, class: 'muted' }, 'Nothing here yet.'))
          : rows.map((row) =>
              h('tr', null, columns.map((c) => h('td', { 'data-label': c.label, class: c.num ? 'num' : null }, c.cell(row))))
            )
      )
    )
  );
}

/** The offset a list page was asked for (`#/threads?offset=40`). */
export function offsetOf(params) {
  return Math.max(0, Number(params.get('offset')) || 0);
}

/** Previous / next over a list envelope; each page is its own address (`<base>?offset=`). */
export function pager(envelope, offset, limit, base) {
  const count = envelope.data.length;
  const from = count === 0 ? 0 : offset + 1;
  const go = (next) => () => {
    location.hash = `${base}?offset=${next}`;
  };
  return h(
    'nav',
    { class: 'toolbar', 'aria-label': 'Pages' },
    h('button', { type: 'button', class: 'secondary', disabled: offset === 0, onclick: go(Math.max(0, offset - limit)) }, 'Previous'),
    h('span', { class: 'muted' }, `${from}–${offset + count} of ${envelope.total_count}`),
    h('button', { type: 'button', class: 'secondary', disabled: !envelope.has_more, onclick: go(offset + limit) }, 'Next')
  );
}

/** The place a form reports the API's refusal, read out by screen readers. */
export function formStatus() {
  return h('p', { class: 'error', role: 'alert' });
}
