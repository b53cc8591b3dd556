// A feed whose pull-to-refresh comes from a library that only gives `onRefresh(done)`
// (refresh-library.js stands in for it), instrumented as docs/instrumenting.md "Libraries that
// only give onRefresh" says: the page never sees the gesture, so each refresh says so and is a
// session of its own. clients/web/tests/test_callback_only.py drives it with real touches.
//
// Query string, for the tests: `load` (ms a load takes, default 600), `fail=1` (loads fail).
// Planted library bug: `again=MS` (the library calls `onRefresh` a second time, MS after the
// first refresh was done).
import { HttpEventSink, PullParityRecorder } from '../pullparity-recorder.js';
import { attachPullToRefresh as attachLibrary } from './refresh-library.js';

const query = new URLSearchParams(location.search);
const sink = new HttpEventSink('/events', { flushIntervalMs: 500, retryDelayMs: 300 });
// FFCI trusts the client to decide arming, as a library's refresh control does.
const recorder = new PullParityRecorder({ app: 'ffci', appVersion: '5.1.0-web', screen: 'feed', sink });

/** The page's state, and the hooks the tests use. */
const app = {
  recorder, sink,
  loadMs: Number(query.get('load') ?? 600),
  loadFails: query.get('fail') === '1',
};
window.callbackApp = app;

const feed = document.getElementById('feed');

/** The library, with the planted bug if the query asks for it. */
function attachPullToRefresh(scroller, options) {
  const callsAgainAfterMs = query.has('again') ? Number(query.get('again')) : undefined;
  return attachLibrary(scroller, { ...options, callsAgainAfterMs });
}

attachPullToRefresh(feed, {
  async onRefresh(done) {
    // The library saw the pull; the page only hears that a refresh is wanted, and says so.
    recorder.refreshStart('pull', { gestureObserved: false });
    recorder.indicatorShown({ kind: 'native' }); // the library's spinner is up
    try {
      await load();
      recorder.loadComplete(true);
    } catch (error) {
      recorder.loadComplete(false, error.message);
      showError(error.message);
    } finally {
      done(); // the library hides its spinner
      recorder.indicatorHidden();
    }
  },
});

/** The feed's data: a pretend request that takes `app.loadMs`; content is kept when it fails. */
async function load() {
  recorder.fetchStart();
  await new Promise((resolve) => setTimeout(resolve, app.loadMs));
  if (app.loadFails) throw new Error('Could not refresh the feed');
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
