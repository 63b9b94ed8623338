// DOM builders of the approval console's cards. Text goes in with textContent only (never
// innerHTML): whatever a tool or model produced is shown as text, not interpreted as markup.
'use strict';

window.consoleCards = (() => {
  const PREVIEW_CHARS = 2000;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /**
   * A pending tool card, opened on a call's first `tool-call-delta`: its arguments show as they
   * stream (the loop scrubbed them), until `tool-call` settles the card (`settleToolCard`).
   */
  function streamingCard(ev) {
    const card = el('article', 'card tool streaming');
    card.dataset.card = 'tool';
    card.dataset.slot = String(ev.index);
    card.dataset.status = 'streaming';
    const head = el('header');
    head.append(el('span', 'slot', `#${ev.index}`), el('span', 'name', ev.name), el('span', 'badge', 'arguments…'));
    card.append(head, el('pre', 'args', ''));
    return card;
  }

  /** The arguments so far of a streaming card; the name too, when the first delta had none. */
  function streamArgs(card, ev) {
    if (card.dataset.status !== 'streaming') return;
    if (ev.name) card.querySelector('.name').textContent = ev.name;
    card.querySelector('.args').textContent = ev.argumentsText;
  }

  /**
   * A streaming card whose call never came (the turn was cancelled while it streamed, or it parked
   * before the call ran): marked as not run, so no card is left "streaming" after its turn.
   */
  function dropStreaming(card) {
    if (card.dataset.status !== 'streaming') return;
    card.dataset.status = 'dropped';
    card.classList.replace('streaming', 'not-run');
    card.querySelector('.badge').textContent = 'not run';
  }

  /** A streaming (or dropped) card becomes the call's tool card on `tool-call`, with the complete arguments. */
  function settleToolCard(card, ev) {
    if (card.dataset.status !== 'streaming' && card.dataset.status !== 'dropped') return card;
    const settled = toolCard(ev);
    card.replaceWith(settled);
    return settled;
  }

  /**
   * A tool card, opened on `tool-call`: running until its result arrives — or, for a call that
   * preparation decided without running it (`executes: false`), marked "not run".
   */
  function toolCard(ev) {
    const runs = ev.executes !== false;
    const card = el('article', runs ? 'card tool' : 'card tool not-run');
    card.dataset.card = 'tool';
    card.dataset.callId = ev.id;
    card.dataset.slot = String(ev.slot);
    card.dataset.executes = String(runs);
    card.dataset.status = runs ? 'running' : 'not-run';
    const head = el('header');
    head.append(el('span', 'slot', `#${ev.slot}`), el('span', 'name', ev.name), el('span', 'badge', runs ? 'running' : 'not run'));
    card.append(head);
    if (ev.args !== undefined) card.append(el('pre', 'args', ev.args));
    return card;
  }

  /** Closes a tool card on `tool-result`: outcome, duration, an output preview, the receipt. */
  function closeToolCard(card, ev) {
    card.dataset.status = 'done';
    card.dataset.outcome = ev.outcome;
    card.classList.add(ev.success ? 'ok' : 'failed');
    card.querySelector('.badge').textContent = ev.outcome;
    card.querySelector('header').append(el('span', 'duration', `${ev.durationMs} ms`));
    const preview = ev.output.length > PREVIEW_CHARS ? `${ev.output.slice(0, PREVIEW_CHARS)}…` : ev.output;
    card.append(el('pre', 'output', preview));
    if (ev.receipt) card.append(el('p', 'receipt', `receipt: ${ev.receipt}`));
  }

  /**
   * An approval card: the tool, the argument summary, every argument in full (an expandable
   * element, open from the start), its controls and its status.
   */
  function approvalCard(requestId, toolName) {
    const card = el('article', 'card approval');
    card.dataset.card = 'approval';
    card.dataset.requestId = requestId;
    card.dataset.state = 'requested';
    const head = el('header');
    head.append(el('span', 'name', `Approval: ${toolName}`), el('span', 'badge', 'waiting'));
    const full = el('details', 'full-args');
    full.open = true;
    full.hidden = true;
    full.append(el('summary', 'full-args-title', 'All arguments'), el('pre', 'arguments'));
    card.append(head, el('p', 'summary'), full, el('div', 'controls'), el('p', 'approval-status'));
    return card;
  }

  /** Shows every argument the tool will receive (already escaped by the server) on the card. */
  function setFullArguments(card, text) {
    const full = card.querySelector('.full-args');
    full.querySelector('.arguments').textContent = text;
    full.querySelector('.full-args-title').textContent = `All arguments (${text.length} characters)`;
    full.hidden = false;
  }

  function setApprovalStatus(card, state, badge, text) {
    card.dataset.state = state;
    card.querySelector('.badge').textContent = badge;
    card.querySelector('.approval-status').textContent = text;
  }

  /**
   * Approve / Deny / Always / Edit & replace. `decide(decision, replaceWith)` posts the decision
   * and resolves to `{ ok, status, error }`; a refusal is shown on the card.
   */
  function addApprovalControls(card, decide) {
    const controls = card.querySelector('.controls');
    if (controls.childElementCount > 0) return;
    const send = async (decision, replaceWith) => {
      closeControls(card);
      const reply = await decide(decision, replaceWith);
      if (!reply.ok) card.querySelector('.approval-status').textContent = reply.error ?? `Refused (${reply.status}).`;
    };
    const button = (label, action, onClick) => {
      const b = el('button', `action ${action}`, label);
      b.type = 'button';
      b.dataset.action = action;
      b.addEventListener('click', onClick);
      return b;
    };
    const editor = el('div', 'editor');
    editor.hidden = true;
    const replacement = el('textarea', 'replacement');
    replacement.setAttribute('aria-label', 'Replacement result');
    replacement.placeholder = 'The text the model receives instead of running the tool';
    editor.append(replacement, button('Send replacement', 'replace', () => send('replace', replacement.value)));
    controls.append(
      button('Approve', 'yes', () => send('yes')),
      button('Deny', 'no', () => send('no')),
      button('Always', 'always', () => send('always')),
      button('Edit & replace', 'edit', () => {
        editor.hidden = false;
        replacement.focus();
      }),
      editor,
    );
  }

  function closeControls(card) {
    card.querySelectorAll('.controls button, .controls textarea').forEach((c) => (c.disabled = true));
  }

  return Object.freeze({
    el,
    toolCard,
    streamingCard,
    streamArgs,
    settleToolCard,
    dropStreaming,
    closeToolCard,
    approvalCard,
    setFullArguments,
    setApprovalStatus,
    addApprovalControls,
    closeControls,
  });
})();
