"""Running the recorder as an ES module in the test browser, shared by the suites that call it
directly: one async JS body at a time, with the module as `m` and, for bodies that wait,
`sleep(ms)` and `until(test, ms)`."""

MODULE = "/pullparity-recorder.js"

PRELUDE = (
    "const sleep = (ms) => new Promise((r) => setTimeout(r, ms));"
    "const until = async (test, ms = 8000) => { const end = performance.now() + ms;"
    "  while (!test() && performance.now() < end) await sleep(5); };")


def module_runner(browser):
    """A function that runs `body` (async JS, the module as `m`) with `args` as `arguments`,
    returns what the body returns and fails the test with the stack of anything it throws.
    The browser must be on a page of the origin that serves the module."""
    def run(body: str, *args):
        script = (
            "const done = arguments[arguments.length - 1];" + PRELUDE
            + f"import('{MODULE}').then(async (m) => {{ {body} }})"
            ".then(done, (e) => done({thrown: String(e && e.stack || e)}));")
        result = browser.execute_async_script(script, *args)
        assert not (isinstance(result, dict) and "thrown" in result), result
        return result

    return run
