// A run that waits for a person (`response.approval_requested`): the call it asks about with
// Approve and Deny, or the model's question with an answer box. The answer goes to
// `POST /v1/threads/:id/approvals`; the stream says when the wait is over, whoever answered.

import { api, ApiError } from './api.js';
import { h, field, fill, formStatus } from './dom.js';

// The endpoint's own bounds (docs/approvals.md), so the browser stops a text it would refuse.
const MAX_MESSAGE = 2048;
const MAX_ANSWER = 4096;

let ids = 0;

/** One call a run waits on, shown as an item of the conversation until the run goes on. */
export class WaitingCall {
  /** approval: the event's {callId, kind, tool, arguments, reason?, question?}. */
  constructor(threadId, approval, signal) {
    this.threadId = threadId;
    this.approval = approval;
    this.signal = signal;
    this.answeredHere = false;
    this.settled = false;
    this.question = approval.kind === 'question';
    this.describedBy = `approval-call-${++ids}`;
    this.status = formStatus();
    this.outcome = h('p', { class: 'outcome', role: 'status' });
    this.controls = this.question ? this.answerForm() : this.decisionForm();
    this.element = h(
      'li',
      { class: 'item approval waiting', 'data-call-id': approval.callId, 'aria-label': this.question ? 'Question from the agent' : 'Approval request' },
      h('div', { class: 'kind' }, this.question ? 'Question' : 'Approval needed'),
      this.question ? this.questionText() : this.callText(),
      this.controls,
      this.outcome
    );
  }

  get callId() {
    return this.approval.callId;
  }

  /** What the live line says while this call waits. */
  waitingText() {
    return this.question ? 'Waiting for your answer…' : 'Waiting for your approval…';
  }

  /** The run went on (or ended): the call waits no more, whoever answered it. */
  settle() {
    if (this.settled) return;
    this.settled = true;
    this.controls.remove();
    this.element.classList.replace('waiting', 'settled');
    if (!this.answeredHere) {
      this.outcome.textContent = 'No longer waiting: answered elsewhere, or nobody answered in time. The result follows.';
    }
  }

  callText() {
    const { tool, arguments: args, reason } = this.approval;
    const command = typeof args?.command === 'string' ? args.command : null;
    return h(
      'div',
      { id: this.describedBy },
      h('p', null, 'The agent wants to call ', h('code', { class: 'tool' }, tool || 'a tool'), '.'),
      command !== null
        ? h('pre', { class: 'command', 'aria-label': 'Command' }, `$ ${command}`)
        : h('pre', { class: 'arguments', 'aria-label': 'Arguments' }, JSON.stringify(args ?? {}, null, 2)),
      reason ? h('p', { class: 'reason' }, `Why it asks: ${reason}`) : null
    );
  }

  questionText() {
    return h('p', { class: 'question text' }, this.approval.question ?? '');
  }

  decisionForm() {
    const message = h('textarea', { name: 'denial-message', rows: 2, maxlength: MAX_MESSAGE });
    const approve = h('button', { type: 'button', name: 'approve', 'aria-describedby': this.describedBy }, 'Approve');
    const deny = h('button', { type: 'button', name: 'deny', class: 'danger', 'aria-describedby': this.describedBy }, 'Deny');
    const buttons = [approve, deny];
    approve.addEventListener('click', () => this.send({ decision: 'approve' }, buttons));
    deny.addEventListener('click', () => {
      const text = message.value.trim();
      this.send(text ? { decision: 'deny', message: text } : { decision: 'deny' }, buttons);
    });
    return h(
      'form',
      { class: 'stack approval-form', onsubmit: (event) => event.preventDefault() },
      field('Message with a denial (optional)', message, 'The model reads it as the call’s result.'),
      this.status,
      h('div', { class: 'toolbar' }, approve, deny)
    );
  }

  answerForm() {
    const answer = h('textarea', { name: 'answer', rows: 2, required: true, maxlength: MAX_ANSWER });
    const submit = h('button', { type: 'submit' }, 'Send answer');
    const onsubmit = (event) => {
      event.preventDefault();
      const text = answer.value.trim();
      if (!text) {
        this.status.textContent = 'Write an answer first.';
        return;
      }
      this.send({ answer: text }, [submit]);
    };
    return h('form', { class: 'stack approval-form', onsubmit }, field('Your answer', answer), this.status, h('div', null, submit));
  }

  async send(body, buttons) {
    this.status.textContent = '';
    for (const button of buttons) button.disabled = true;
    try {
      const recorded = await api('POST', `/v1/threads/${encodeURIComponent(this.threadId)}/approvals`, { callId: this.callId, ...body }, { signal: this.signal });
      this.answeredHere = true;
      fill(this.outcome, outcomeText(recorded, body));
      this.controls.remove();
    } catch (error) {
      if (this.signal.aborted) return;
      this.status.textContent = refusal(error);
      if (!(error instanceof ApiError && error.status === 409)) {
        for (const button of buttons) button.disabled = false;
      }
    }
  }
}

/** The answer the call has, in words; an answer recorded earlier (another tab, the API) says so. */
function outcomeText(recorded, sent) {
  const earlier = (recorded.decision ?? null) !== (sent.decision ?? null) || (recorded.answer ?? null) !== (sent.answer ?? null);
  const prefix = earlier ? 'Already answered elsewhere: ' : '';
  if (recorded.answer !== null && recorded.answer !== undefined) return `${prefix || 'You answered: '}${recorded.answer}`;
  if (recorded.decision === 'approve') return `${prefix}Approved; the call runs.`;
  return `${prefix}Denied${recorded.message ? ` (${recorded.message})` : ''}; the model is told so and goes on.`;
}

function refusal(error) {
  if (!(error instanceof ApiError)) return `The answer was not sent: ${error.message}`;
  if (error.status === 409) return `Nothing waits on this call any more (answered elsewhere, or it timed out): ${error.message}`;
  if (error.status === 404) return `This thread was not found (deleted, or another user’s): ${error.message}`;
  return error.message;
}
