// The main page's idle countdown (PSD2: the session ends after minutes without activity; WCAG 2.2.1: the
// customer is warned first and can continue). Plain JavaScript served from /app/session.js (the CSP allows
// no inline script); the page gives the times in data attributes and the texts in its own markup.
// It runs in the browser, so it counts on the browser's own clock (Date.now), not the server's app.clock.
export const SESSION_SCRIPT = `(() => {
  const root = document.querySelector('[data-session-idle]');
  if (!root) return;
  const idleMs = Number(root.dataset.sessionIdle) * 1000;
  const warningMs = Number(root.dataset.sessionWarning) * 1000;
  const frame = document.querySelector('.dv-layout');
  const backdrop = document.getElementById('session-warning-backdrop');
  const remaining = document.getElementById('session-remaining');
  const button = document.getElementById('session-continue');
  const status = document.getElementById('session-status');
  const expired = document.getElementById('session-expired');
  let deadline = Date.now() + idleMs;
  let warnTimer;
  let ticker;

  // Arriving on the page, the keyboard and screen readers start at its heading.
  document.getElementById('app-title').focus();

  const format = (seconds) => Math.floor(seconds / 60) + ':' + String(seconds % 60).padStart(2, '0');
  const schedule = () => {
    clearTimeout(warnTimer);
    warnTimer = setTimeout(warn, Math.max(0, deadline - warningMs - Date.now()));
  };
  // The dialog is modal: the page behind it is out of reach (inert) while it shows.
  const showDialog = (shown) => {
    backdrop.hidden = !shown;
    frame.inert = shown;
    document.body.classList.toggle('dv-modal-open', shown);
  };
  function tick() {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    remaining.textContent = format(left);
    if (left <= 0) expire();
  }
  function warn() {
    tick();
    status.textContent = '';
    showDialog(true);
    button.focus();
    ticker = setInterval(tick, 1000);
  }
  function expire() {
    clearInterval(ticker);
    clearTimeout(warnTimer);
    fetch('/api/user-authorization-management/logout', { method: 'POST', credentials: 'same-origin', keepalive: true, headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
    showDialog(false);
    root.hidden = true;
    expired.hidden = false;
    expired.querySelector('a').focus();
  }
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const answer = await fetch('/api/user-authorization-management/get-session', { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!answer.ok) return expire();
      deadline = Date.now() + idleMs;
      clearInterval(ticker);
      showDialog(false);
      // Focus goes to the news that the session goes on, not back to the top of the page.
      status.textContent = status.dataset.text;
      status.focus();
      schedule();
    } catch {
      // Offline for a moment: the countdown goes on, the customer can try again.
    } finally {
      button.disabled = false;
    }
  });
  schedule();
})();
`;
