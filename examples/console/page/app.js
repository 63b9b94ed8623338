// The approval console page. Plain browser JavaScript, no build step. Everything the turn
// produced is rendered with textContent (never innerHTML): tool output is text, not markup.
'use strict';

(() => {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const tabId = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
  const conversation = document.getElementById('conversation');
  const status = document.getElementById('status');
  const composer = document.getElementById('composer');
  const message = document.getElementById('message');
  const send = document.getElementById('send');
  const stop = document.getElementById('stop');
  const PREVIEW_CHARS = 2000;

  let lastSeq = 0;
  let running = false;
  const turns = new Map();
  const cards = new Map();
  const approvals = new Map();

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function post(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-console-token': token },
      body: JSON.stringify(body),
    });
    const reply = await res.json().catch(() => ({}));
    return { ok: res.ok, status: res.status, error: reply.error };
  }

  function turn(n) {
    let t = turns.get(n);
    if (!t) {
      const section = el('section', 'turn');
      section.dataset.turn = String(n);
      conversation.append(section);
      t = { section, assistant: new Map() };
      turns.set(n, t);
    }
    return t;
  }

  function assistantBubble(t, iteration) {
    let bubble = t.assistant.get(iteration);
    if (!bubble) {
      bubble = el('p', 'bubble assistant');
      bubble.dataset.role = 'assistant';
      bubble.dataset.iteration = String(iteration);
      t.section.append(bubble);
      t.assistant.set(iteration, bubble);
    }
    return bubble;
  }

  function toolCard(record, ev) {
    const key = `${record.turn}:${ev.iteration}:${ev.slot}`;
    let card = cards.get(key);
    if (!card) {
      card = el('article', 'card tool');
      card.dataset.card = 'tool';
      card.dataset.callId = ev.id;
      card.dataset.slot = String(ev.slot);
      card.dataset.status = 'running';
      const head = el('header');
      head.append(el('span', 'slot', `#${ev.slot}`), el('span', 'name', ev.name), el('span', 'badge', 'running'));
      card.append(head);
      turn(record.turn).section.append(card);
      cards.set(key, card);
    }
    return card;
  }

  function openTool(record, ev) {
    const card = toolCard(record, ev);
    card.append(el('pre', 'args', ev.args));
  }

  function closeTool(record, ev) {
    const card = toolCard(record, ev);
    card.dataset.status = 'done';
    card.dataset.outcome = ev.outcome;
    card.classList.add(ev.success ? 'ok' : 'failed');
    card.querySelector('.badge').textContent = ev.outcome;
    card.querySelector('header').append(el('span', 'duration', `${ev.durationMs} ms`));
    const preview = ev.output.length > PREVIEW_CHARS ? `${ev.output.slice(0, PREVIEW_CHARS)}…` : ev.output;
    card.append(el('pre', 'output', preview));
    if (ev.receipt) card.append(el('p', 'receipt', `receipt: ${ev.receipt}`));
  }

  function approvalCard(record, requestId, toolName) {
    let card = approvals.get(requestId);
    if (!card) {
      card = el('article', 'card approval');
      card.dataset.card = 'approval';
      card.dataset.requestId = requestId;
      card.dataset.state = 'requested';
      const head = el('header');
      head.append(el('span', 'name', `Approval: ${toolName}`), el('span', 'badge', 'waiting'));
      card.append(head, el('p', 'summary'), el('div', 'controls'), el('p', 'approval-status'));
      turn(record.turn).section.append(card);
      approvals.set(requestId, card);
    }
    return card;
  }

  function setApprovalStatus(card, state, badge, text) {
    card.dataset.state = state;
    card.querySelector('.badge').textContent = badge;
    card.querySelector('.approval-status').textContent = text;
  }

  function showControls(card, requestId) {
    const controls = card.querySelector('.controls');
    const buttons = [];
    const decide = async (decision, replaceWith) => {
      buttons.forEach((b) => (b.disabled = true));
      const reply = await post(`/api/approvals/${encodeURIComponent(requestId)}`, { decision, replaceWith, tab: tabId });
      if (!reply.ok) card.querySelector('.approval-status').textContent = reply.error ?? `Refused (${reply.status}).`;
    };
    const button = (label, action, onClick) => {
      const b = el('button', `action ${action}`, label);
      b.type = 'button';
      b.dataset.action = action;
      b.addEventListener('click', onClick);
      buttons.push(b);
      return b;
    };
    const editor = el('div', 'editor');
    editor.hidden = true;
    const replacement = el('textarea', 'replacement');
    replacement.setAttribute('aria-label', 'Replacement result');
    replacement.placeholder = 'The text the model receives instead of running the tool';
    editor.append(replacement, button('Send replacement', 'replace', () => decide('replace', replacement.value)));
    controls.append(
      button('Approve', 'yes', () => decide('yes')),
      button('Deny', 'no', () => decide('no')),
      button('Always', 'always', () => decide('always')),
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

  const ANSWER_TEXT = { yes: 'Approved', no: 'Denied', always: 'Always allowed', replace: 'Replaced' };
  const UNANSWERED_TEXT = {
    timeout: 'No operator answered in time',
    disconnect: 'No operator was connected',
    cancelled: 'The request was withdrawn',
  };

  function apply(record) {
    if (record.seq <= lastSeq) return;
    lastSeq = record.seq;
    const ev = record.event;
    const t = turn(record.turn);
    switch (ev.type) {
      case 'turn-start': {
        const bubble = el('p', 'bubble user', ev.message);
        bubble.dataset.role = 'user';
        t.section.append(bubble);
        setRunning(true);
        break;
      }
      case 'text-delta':
        assistantBubble(t, ev.iteration).append(ev.text);
        break;
      case 'tool-call':
        openTool(record, ev);
        break;
      case 'tool-result':
        closeTool(record, ev);
        break;
      case 'approval-request': {
        const card = approvalCard(record, ev.requestId, ev.toolName);
        card.querySelector('.summary').textContent = ev.argumentsSummary;
        break;
      }
      case 'approval-open': {
        const card = approvalCard(record, ev.requestId, ev.toolName);
        card.querySelector('.summary').textContent = ev.argumentsSummary;
        setApprovalStatus(card, 'pending', 'waiting', `Answer before ${new Date(ev.deadline).toLocaleTimeString()}.`);
        showControls(card, ev.requestId);
        break;
      }
      case 'approval-answered': {
        const card = approvalCard(record, ev.requestId, '');
        closeControls(card);
        const where = ev.tab === tabId ? 'in this tab' : 'in another tab';
        const extra = ev.answer === 'replace' ? `: ${ev.replaceWith}` : '';
        setApprovalStatus(card, 'answered', ANSWER_TEXT[ev.answer], `${ANSWER_TEXT[ev.answer]} ${where}${extra}`);
        card.dataset.answer = ev.answer;
        card.dataset.answeredHere = String(ev.tab === tabId);
        break;
      }
      case 'approval-unanswered': {
        const card = approvalCard(record, ev.requestId, '');
        closeControls(card);
        setApprovalStatus(card, 'unanswered', 'unanswered', `${UNANSWERED_TEXT[ev.reason]}: denied by policy.`);
        card.dataset.reason = ev.reason;
        break;
      }
      case 'approval-decision': {
        const card = approvalCard(record, ev.requestId, ev.toolName);
        closeControls(card);
        card.dataset.state = 'decided';
        card.dataset.decision = ev.decision;
        card.querySelector('.badge').textContent = ev.decision;
        const who = ev.byOperator ? `the operator (${ev.decidedBy})` : ev.decidedBy;
        card.append(el('p', 'decided-by', `Decision: ${ev.decision}, by ${who}.`));
        break;
      }
      case 'done': {
        const final = el('div', 'bubble final');
        final.dataset.role = 'final';
        final.dataset.reason = ev.reason;
        final.append(el('p', 'final-text', ev.text), el('p', 'meta', `${ev.reason} · ${ev.iterations} iterations`));
        t.section.append(final);
        break;
      }
      case 'turn-end':
        if (ev.error) {
          const error = el('p', 'bubble error', ev.error);
          error.dataset.role = 'error';
          t.section.append(error);
        }
        setRunning(false);
        break;
      default:
        break;
    }
  }

  function setRunning(value) {
    running = value;
    send.disabled = value;
    stop.disabled = !value;
    document.body.dataset.running = String(value);
  }

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  composer.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (running || message.value.trim() === '') return;
    send.disabled = true;
    const reply = await post('/api/turns', { message: message.value });
    if (!reply.ok) {
      send.disabled = running;
      setStatus(status.dataset.state, reply.error ?? `Refused (${reply.status}).`);
    }
  });
  stop.addEventListener('click', () => post('/api/turns/cancel', {}));

  const events = new EventSource(`/events?token=${encodeURIComponent(token)}`);
  events.addEventListener('open', () => setStatus('connected', 'connected'));
  events.addEventListener('error', () =>
    setStatus(events.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting', events.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…'),
  );
  events.addEventListener('message', (e) => {
    apply(JSON.parse(e.data));
    window.scrollTo(0, document.body.scrollHeight);
  });
  setRunning(false);
})();
