// Padel's pull-to-refresh for the web (seed spec 000), instrumented with the PullParity recorder.
// docs/instrumenting.md, "Web (PWA)", quotes this file; clients/web/tests drive it with real touches.
//
// Query string, for the tests: `load` (ms a load takes, default 600), `fail=1` (loads fail),
// `empty=1` (the feed has no items). Planted defects, each of which one QA item must catch:
// `minHold=0` (no minimum visible time), `armOn=raw` (arms on the finger's distance instead of
// distance × resistance), `readyLabel=…` (other copy for the ready label), `emptyIndicator=0`
// (the empty state hides the indicator), `balls=3` (another ball count). `collector=URL`: where
// the sink posts (default `/events` of the page's own origin), e.g. a `pullparity collect` on
// another port that lists this page's origin with `--allow-origin`.
import { HttpEventSink, PullParityRecorder } from '../pullparity-recorder.js';

const query = new URLSearchParams(location.search);

/** The behaviour every platform of Padel promises (seed 000). */
const behaviour = {
  threshold: 24,
  resistance: 0.72,
  minHoldMs: Number(query.get('minHold') ?? 1200),
  armOnRawDistance: query.get('armOn') === 'raw',
  labels: {
    pulling: 'Dra för att ladda senaste padelnytt...',
    ready: query.get('readyLabel') ?? 'Släpp för att uppdatera',
    refreshing: 'Padelbollarna studsar medan vi laddar...',
  },
};

// The collector: `pullparity collect`, here on the page's own origin unless `?collector=URL`
// names one elsewhere (that collector must list this origin with --allow-origin).
const collectorURL = query.get('collector') ?? '/events';
const sink = new HttpEventSink(collectorURL, { flushIntervalMs: 500, retryDelayMs: 300 });
const recorder = new PullParityRecorder({
  app: 'padel', appVersion: '3.9.0-web', screen: 'feed', sink,
  // Sessions split where the pipeline splits them, whatever this page believes about arming.
  arming: { threshold: 24, resistance: 0.72 },
});

const feed = document.getElementById('feed');
const ptr = document.getElementById('ptr');
const balls = ptr.querySelector('.ptr-balls');
const label = ptr.querySelector('.ptr-label');

/** The page's state, and the hooks the tests use to control loads. */
const app = {
  recorder, sink,
  loadMs: Number(query.get('load') ?? 600),
  loadFails: query.get('fail') === '1',
  // A promise a test may set: a load also waits for it, so that it ends when the test says.
  loadGate: undefined,
  empty: query.get('empty') === '1',
  refreshing: false,
  refreshes: 0,
};
window.referenceApp = app;

for (let i = 0; i < Number(query.get('balls') ?? 4); i++) {
  const ball = Object.assign(document.createElement('span'), { className: 'ptr-ball' });
  ball.style.setProperty('--ball-index', String(i));
  balls.append(ball);
}
if (query.get('emptyIndicator') === '0') document.body.classList.add('defect-empty-indicator');

// --- The gesture --------------------------------------------------------------------------

let pull = null; // { startY, distance, armed } while a finger pulls

function arms(distance) {
  const measured = behaviour.armOnRawDistance ? distance : distance * behaviour.resistance;
  return measured >= behaviour.threshold;
}

function showLabel(state) {
  label.textContent = behaviour.labels[state];
  // Only a label the user can see is recorded: the empty-state defect hides the header.
  if (ptr.offsetParent !== null) recorder.label(behaviour.labels[state], state);
}

function setOffset(px) {
  feed.style.setProperty('--ptr-offset', `${px}px`);
}

feed.addEventListener('touchstart', (event) => {
  if (app.refreshing || feed.scrollTop > 0 || event.touches.length !== 1) return;
  pull = { startY: event.touches[0].clientY, distance: 0, armed: false, started: false };
}, { passive: true });

feed.addEventListener('touchmove', (event) => {
  if (!pull) return;
  const distance = Math.max(0, event.touches[0].clientY - pull.startY);
  if (!pull.started) {
    if (distance === 0) return;
    pull.started = true;
    recorder.empty = app.empty;
    recorder.pullStart();
    showLabel('pulling');
  }
  event.preventDefault(); // the pull moves the indicator, not the page
  pull.distance = distance;
  const offset = distance * behaviour.resistance;
  setOffset(offset);
  recorder.pullMove(distance, offset);
  const armed = arms(distance);
  if (armed === pull.armed) return;
  pull.armed = armed;
  armed ? recorder.armed(distance) : recorder.disarmed(distance);
  showLabel(armed ? 'ready' : 'pulling');
}, { passive: false });

feed.addEventListener('touchend', () => {
  if (!pull) return;
  const { started, armed, distance } = pull;
  pull = null;
  if (!started) return;
  recorder.release(distance);
  if (armed) refresh();
  else setOffset(0);
});

feed.addEventListener('touchcancel', () => {
  if (!pull) return;
  if (pull.started) recorder.cancel('touchcancel');
  pull = null;
  setOffset(0);
});

// --- The refresh --------------------------------------------------------------------------

/** The indicator as drawn: ball count, stagger and cycle read back from the computed style. */
function indicatorConfig() {
  const drawn = [...balls.children].map((ball) => getComputedStyle(ball));
  const seconds = (text) => Math.round(parseFloat(text) * 1000);
  return {
    kind: 'balls',
    count: drawn.length,
    stagger_ms: drawn.length > 1 ? seconds(drawn[1].animationDelay) - seconds(drawn[0].animationDelay) : 0,
    cycle_ms: seconds(drawn[0].animationDuration),
  };
}

/** Resolves no earlier than `ms` after it was called, and with what `work` resolves to. */
async function holdAtLeast(ms, work) {
  const floor = new Promise((resolve) => setTimeout(resolve, ms));
  const [result] = await Promise.allSettled([work(), floor]);
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

async function refresh() {
  app.refreshing = true;
  recorder.refreshStart('pull');
  ptr.classList.add('refreshing');
  setOffset(ptr.offsetHeight); // the whole indicator in view while it refreshes
  if (ptr.offsetParent !== null) recorder.indicatorShown(indicatorConfig());
  showLabel('refreshing');
  try {
    await holdAtLeast(behaviour.minHoldMs, load);
  } catch (error) {
    showError(error.message);
  } finally {
    ptr.classList.remove('refreshing');
    setOffset(0);
    recorder.indicatorHidden();
    app.refreshing = false;
    app.refreshes += 1;
  }
}

/**
 * The feed's data: a pretend request that takes `app.loadMs` (and lasts until `app.loadGate`
 * resolves, if a test set one); content is kept when it fails.
 */
async function load() {
  recorder.fetchStart();
  await Promise.all([new Promise((resolve) => setTimeout(resolve, app.loadMs)), app.loadGate]);
  if (app.loadFails) {
    recorder.loadComplete(false, 'offline');
    throw new Error('Kunde inte ladda padelnytt');
  }
  recorder.loadComplete(true);
  render(app.empty ? [] : matches());
}

function showError(message) {
  const banner = document.getElementById('error');
  banner.textContent = message;
  banner.hidden = false;
  recorder.errorShown(message);
}

// --- The screen ---------------------------------------------------------------------------

function matches() {
  const time = new Date().toLocaleTimeString('sv-SE');
  return ['Final i Malmö', 'Semifinal i Göteborg', 'Kvartsfinal i Uppsala'].map((title) => `${title} · ${time}`);
}

function render(items) {
  document.getElementById('error').hidden = true;
  document.getElementById('items').replaceChildren(
    ...items.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
  document.getElementById('empty').hidden = items.length > 0;
  feed.classList.toggle('is-empty', items.length === 0);
}

render(app.empty ? [] : matches());
