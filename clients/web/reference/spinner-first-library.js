// A stand-in for a pull-to-refresh library that shows its spinner before it tells the app, as
// pulltorefresh.js (0.1.x) does: at the release past the threshold it puts its element in the
// refreshing state (class `ptr--refresh`, the spinner turning) and calls `onRefresh` only
// `refreshTimeout` ms later (500 by default); the spinner goes when the promise `onRefresh`
// returns settles (or when the app calls the callback it was given). The app hears nothing of
// the touches. Recorded from the callback alone, such a refresh looks 500 ms shorter than the
// user saw it: docs/instrumenting.md, "Libraries that only give onRefresh", records it from the
// spinner instead (spinner-first.js).

/**
 * @param {{mainElement: HTMLElement, onRefresh: (done: () => void) => (Promise<unknown> | void),
 *   refreshTimeout?: number, distThreshold?: number, distReload?: number, resistance?: number,
 *   classPrefix?: string}} options
 * @returns {{destroy(): void}}
 */
export function init({
  mainElement, onRefresh, refreshTimeout = 500, distThreshold = 60, distReload = 50, resistance = 0.5,
  classPrefix = 'ptr--',
}) {
  const ptr = document.createElement('div');
  ptr.className = `${classPrefix}ptr`;
  ptr.setAttribute('aria-hidden', 'true');
  ptr.innerHTML = `<div class="${classPrefix}box"><div class="${classPrefix}icon"></div></div>`;
  mainElement.parentNode.insertBefore(ptr, mainElement);
  let state = 'pending';
  let startY = null;
  let pulled = 0;
  const setState = (next) => {
    ptr.classList.remove(`${classPrefix}${state}`);
    state = next;
    ptr.classList.add(`${classPrefix}${state}`);
  };
  const reset = () => {
    if (state !== 'refresh') return;
    ptr.classList.remove(`${classPrefix}refresh`);
    ptr.style.height = '0px';
    state = 'pending';
  };

  const touchstart = (event) => {
    if (state === 'refresh' || mainElement.scrollTop > 0 || event.touches.length !== 1) return;
    startY = event.touches[0].clientY;
    pulled = 0;
  };
  const touchmove = (event) => {
    if (startY === null) return;
    pulled = Math.max(0, event.touches[0].clientY - startY) * resistance;
    if (pulled === 0) return;
    event.preventDefault();
    ptr.style.height = `${pulled}px`;
    setState(pulled >= distThreshold ? 'release' : 'pull');
  };
  const touchend = () => {
    if (startY === null) return;
    startY = null;
    if (state !== 'release') {
      ptr.classList.remove(`${classPrefix}${state}`);
      state = 'pending';
      ptr.style.height = '0px';
      return;
    }
    // The spinner turns from now on; the app hears of it `refreshTimeout` ms later.
    setState('refresh');
    ptr.style.height = `${distReload}px`;
    setTimeout(() => {
      const result = onRefresh(reset);
      if (result && typeof result.then === 'function') result.then(reset, reset);
      if (!result && onRefresh.length === 0) reset();
    }, refreshTimeout);
  };
  mainElement.addEventListener('touchstart', touchstart, { passive: true });
  mainElement.addEventListener('touchmove', touchmove, { passive: false });
  mainElement.addEventListener('touchend', touchend);
  return {
    destroy() {
      mainElement.removeEventListener('touchstart', touchstart);
      mainElement.removeEventListener('touchmove', touchmove);
      mainElement.removeEventListener('touchend', touchend);
      ptr.remove();
    },
  };
}
