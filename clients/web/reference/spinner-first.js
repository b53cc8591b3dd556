// A feed whose pull-to-refresh library shows its spinner at the release and calls `onRefresh`
// only 500 ms later, as pulltorefresh.js does (spinner-first-library.js stands in for it),
// instrumented as docs/instrumenting.md "Libraries that only give onRefresh" says for such a
// library: the refresh is recorded from the library's spinner, which the user sees, not from the
// callback. clients/web/tests/test_callback_only.py drives it with real touches.
//
// Query string, for the tests: `load` (ms a load takes, default 600), `fail=1` (loads fail).
import { HttpEventSink, PullParityRecorder, watchIndicator } from '../pullparity-recorder.js';
import * as PullToRefresh from './spinner-first-library.js';

const query = new URLSearchParams(location.search);
const sink = new HttpEventSink('/events', { flushIntervalMs: 500, retryDelayMs: 300 });
const recorder = new PullParityRecorder({ app: 'padel', appVersion: '3.9.0-web', screen: 'feed', sink });
/** Padel's minimum visible refresh. */
const MIN_HOLD_MS = 1200;

/** The page's state, and the hooks the tests use. */
const app = {
  recorder, sink,
  loadMs: Number(query.get('load') ?? 600),
  loadFails: query.get('fail') === '1',
};
window.spinnerFirstApp = app;

const feed = document.getElementById('feed');

// The refresh is the library's spinner: it begins when the spinner turns, ends when it goes.
const indicator = watchIndicator(recorder, {
  shown: () => document.querySelector('.ptr--refresh') !== null,
  root: document.body,
});
PullToRefresh.init({
  mainElement: feed,
  async onRefresh() {
    indicator.sync(); // the spinner's start is recorded before anything the callback records
    try {
      // The user has seen the spinner since the release (500 ms before this call): hold it
      // for the rest of the minimum.
      await holdAtLeast(MIN_HOLD_MS - indicator.shownForMs, load);
    } catch (error) {
      showError(error.message);
    }
    // The library hides its spinner when this promise settles; the watch records it.
  },
});
app.indicator = indicator;

/** Resolves no earlier than `ms` after it was called, once `work` has settled. */
async function holdAtLeast(ms, work) {
  // Whole ms, rounded up: `setTimeout` drops a fraction, and would end the hold short.
  const floor = new Promise((resolve) => setTimeout(resolve, Math.ceil(ms)));
  const [result] = await Promise.allSettled([work(), floor]);
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** The feed's data: a pretend request that takes `app.loadMs`; content is kept when it fails. */
async function load() {
  recorder.fetchStart();
  await new Promise((resolve) => setTimeout(resolve, app.loadMs));
  if (app.loadFails) {
    recorder.loadComplete(false, 'offline');
    throw new Error('Could not refresh the feed');
  }
  recorder.loadComplete(true);
  render();
}

function showError(message) {
  const banner = document.getElementById('error');
  banner.textContent = message;
  banner.hidden = false;
  recorder.errorShown(message);
}

function render() {
  const time = new Date().toLocaleTimeString('en-GB');
  document.getElementById('error').hidden = true;
  document.getElementById('items').replaceChildren(...['Tab 1', 'Tab 2', 'Tab 3'].map((title) =>
    Object.assign(document.createElement('li'), { textContent: `${title} · ${time}` })));
}

render();
