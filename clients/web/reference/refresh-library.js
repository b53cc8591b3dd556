// A stand-in for a third-party pull-to-refresh library, the kind an app installs rather than
// writes: it listens to the touches and draws its own spinner, and all it ever tells the app is
// that a refresh is wanted, through `onRefresh(done)`. No pull start, no distance, no release:
// the app cannot record the gesture, only the refresh (callback-only.js, docs/instrumenting.md
// "Libraries that only give onRefresh").

/**
 * Gives `scroller` a pull-to-refresh: a pull of `threshold` px of spinner (the finger's travel
 * × `resistance`) released calls `onRefresh(done)`; the spinner turns until the app calls `done`.
 * @param {HTMLElement} scroller
 * `callsAgainAfterMs` plants a library bug: the callback comes a second time, that long after the
 * app said the first refresh was done, with no pull of its own.
 * @param {{onRefresh: (done: () => void) => void, threshold?: number, resistance?: number,
 *   callsAgainAfterMs?: number}} options
 */
export function attachPullToRefresh(scroller, { onRefresh, threshold = 60, resistance = 0.5, callsAgainAfterMs }) {
  const spinner = document.createElement('div');
  spinner.className = 'lib-ptr';
  spinner.setAttribute('aria-hidden', 'true');
  scroller.prepend(spinner);
  let startY = null;
  let pulled = 0;
  let refreshing = false;
  const show = (height) => { spinner.style.height = `${height}px`; };

  scroller.addEventListener('touchstart', (event) => {
    if (refreshing || scroller.scrollTop > 0 || event.touches.length !== 1) return;
    startY = event.touches[0].clientY;
    pulled = 0;
  }, { passive: true });

  scroller.addEventListener('touchmove', (event) => {
    if (startY === null) return;
    pulled = Math.max(0, event.touches[0].clientY - startY) * resistance;
    if (pulled > 0) event.preventDefault(); // the pull moves the spinner, not the page
    show(pulled);
  }, { passive: false });

  scroller.addEventListener('touchend', () => {
    if (startY === null) return;
    startY = null;
    if (pulled < threshold) return show(0);
    refresh(callsAgainAfterMs);
  });

  function refresh(again) {
    refreshing = true;
    spinner.classList.add('lib-ptr-spinning');
    show(threshold);
    onRefresh(() => {
      if (!refreshing) return;
      refreshing = false;
      spinner.classList.remove('lib-ptr-spinning');
      show(0);
      if (again !== undefined) setTimeout(() => refresh(undefined), again);
    });
  }

  scroller.addEventListener('touchcancel', () => {
    startY = null;
    if (!refreshing) show(0);
  });
}
