// The approval console page: follows the session's event stream (replayed in full on every
// connection), keeps one card per slot and per approval request, and posts the operator's
// decisions. Plain browser JavaScript, no build step; cards.js builds the DOM.
'use strict';

(() => {
  const { el, toolCard, streamingCard, streamArgs, settleToolCard, dropStreaming, closeToolCard, approvalCard, setFullArguments, setApprovalStatus, addApprovalControls, closeControls } =
    window.consoleCards;
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const tabId = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
  const conversation = document.getElementById('conversation');
  const status = document.getElementById('status');
  const composer = document.getElementById('composer');
  const message = document.getElementById('message');
  const send = document.getElementById('send');
  const stop = document.getElementById('stop');

  let lastSeq = 0;
  let running = false;
  // Turns that run now (a parked turn does not: it waits in the store for a decision).
  const active = new Set();
  const turns = new Map();
  const cards = new Map();
  const approvals = new Map();

  async function post(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-console-token': token },
      body: JSON.stringify(body),
    });
    const reply = await res.json().catch(() => ({}));
    return { ok: res.ok, status: res.status, error: reply.error };
  }

  function turn(n, turnId) {
    let t = turns.get(n);
    if (!t) {
      const section = el('section', 'turn');
      section.dataset.turn = String(n);
      // A turn the console follows in a store: the store's id, since it may run on another instance.
      if (turnId) (section.dataset.turnId = turnId), section.append(el('p', 'turn-id', `turn ${turnId}`));
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

  /** The card of a slot (one per turn, iteration and slot), created on first sight. */
  function slotCard(record, ev) {
    const key = `${record.turn}:${ev.iteration}:${ev.slot}`;
    let card = cards.get(key);
    if (!card) {
      card = toolCard(ev);
      turn(record.turn).section.append(card);
      cards.set(key, card);
    } else if (ev.type === 'tool-call') {
      // a card opened by the call's streamed arguments (its index is its slot)
      card = settleToolCard(card, ev);
      cards.set(key, card);
    }
    return card;
  }

  /** The pending card of a call whose arguments stream, by its index in the response. */
  function deltaCard(record, ev) {
    const key = `${record.turn}:${ev.iteration}:${ev.index}`;
    let card = cards.get(key);
    if (!card) {
      card = streamingCard(ev);
      turn(record.turn).section.append(card);
      cards.set(key, card);
    }
    return card;
  }

  function requestCard(record, requestId, toolName) {
    let card = approvals.get(requestId);
    if (!card) {
      card = approvalCard(requestId, toolName);
      if (record.turnId) card.dataset.turnId = record.turnId;
      turn(record.turn).section.append(card);
      approvals.set(requestId, card);
    }
    return card;
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
    const t = turn(record.turn, record.turnId);
    const parked = ev.type === 'done' && ev.reason === 'paused';
    if (ev.type === 'done' || ev.type === 'turn-end') t.section.querySelectorAll('[data-status="streaming"]').forEach(dropStreaming);
    if (ev.type === 'turn-end' || parked) active.delete(record.turn);
    else if (!ev.type.startsWith('approval-')) active.add(record.turn);
    setRunning(active.size > 0);
    switch (ev.type) {
      case 'turn-start': {
        const bubble = el('p', 'bubble user', ev.message);
        bubble.dataset.role = 'user';
        t.section.append(bubble);
        break;
      }
      case 'text-delta':
        assistantBubble(t, ev.iteration).append(ev.text);
        break;
      case 'tool-call-delta':
        streamArgs(deltaCard(record, ev), ev);
        break;
      case 'tool-call':
        slotCard(record, ev);
        break;
      case 'tool-result':
        closeToolCard(slotCard(record, ev), ev);
        break;
      case 'approval-request':
      case 'approval-open': {
        const card = requestCard(record, ev.requestId, ev.toolName);
        card.querySelector('.summary').textContent = ev.argumentsSummary;
        if (ev.type === 'approval-open') setFullArguments(card, ev.arguments);
        if (ev.type === 'approval-open' && card.dataset.state === 'requested') {
          const when = ev.deadline ? `Answer before ${new Date(ev.deadline).toLocaleTimeString()}.` : 'The turn is parked until someone decides.';
          setApprovalStatus(card, 'pending', 'waiting', when);
          const turnId = record.turnId;
          addApprovalControls(card, (decision, replaceWith) =>
            post(`/api/approvals/${encodeURIComponent(ev.requestId)}`, { decision, replaceWith, tab: tabId, turnId }),
          );
        }
        break;
      }
      case 'approval-answered': {
        const card = requestCard(record, ev.requestId, '');
        closeControls(card);
        const where = ev.tab === tabId ? 'in this tab' : ev.tab ? 'in another tab' : `elsewhere (by ${ev.decidedBy})`;
        const extra = ev.answer === 'replace' ? `: ${ev.replaceWith}` : '';
        setApprovalStatus(card, 'answered', ANSWER_TEXT[ev.answer], `${ANSWER_TEXT[ev.answer]} ${where}${extra}`);
        card.dataset.answer = ev.answer;
        card.dataset.answeredHere = String(ev.tab === tabId);
        break;
      }
      case 'approval-unanswered': {
        const card = requestCard(record, ev.requestId, '');
        closeControls(card);
        setApprovalStatus(card, 'unanswered', 'unanswered', `${UNANSWERED_TEXT[ev.reason]}: denied by policy.`);
        card.dataset.reason = ev.reason;
        break;
      }
      case 'approval-decision': {
        const card = requestCard(record, ev.requestId, ev.toolName);
        closeControls(card);
        card.dataset.state = 'decided';
        card.dataset.decision = ev.decision;
        card.querySelector('.badge').textContent = ev.decision;
        const who = ev.byOperator ? `the operator (${ev.decidedBy})` : ev.decidedBy;
        card.append(el('p', 'decided-by', `Decision: ${ev.decision}, by ${who}.`));
        break;
      }
      case 'done': {
        if (parked) {
          const note = el('p', 'bubble parked', `Parked after ${ev.iterations} iterations: waiting for a decision.`);
          note.dataset.role = 'parked';
          t.section.append(note);
          break;
        }
        // The final answer streamed into an assistant bubble: the final card takes its place.
        for (const [iteration, bubble] of t.assistant) {
          if (bubble.textContent === ev.text) (bubble.remove(), t.assistant.delete(iteration));
        }
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
        t.section.dataset.ended = 'true';
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
  events.addEventListener('error', () => {
    const closed = events.readyState === EventSource.CLOSED;
    setStatus(closed ? 'closed' : 'reconnecting', closed ? 'disconnected' : 'reconnecting…');
  });
  events.addEventListener('message', (e) => {
    apply(JSON.parse(e.data));
    window.scrollTo(0, document.body.scrollHeight);
  });
  setRunning(false);
})();
