/* The runtime as PyScript loads it: the vendored Pyodide, started with what
 * PyScript does not pass it.
 *
 * pyscript.toml's `interpreter` names this module; PyScript imports it, reads
 * `version` and calls `loadPyodide({stdout, stderr, indexURL})` (indexURL being
 * this folder, which is not the runtime's). This wraps the runtime's own
 * loadPyodide and adds:
 *
 * - indexURL: the vendored runtime's folder (static/vendor/pyodide/).
 * - stdLibURL: the standard library as bytecode (python_stdlib_pyc.zip, built
 *   by scripts/build_stdlib.py from the runtime's python_stdlib.zip, compiled
 *   by the runtime itself): the boot no longer compiles every module it
 *   imports. When that file is missing or is not a whole zip, the runtime's
 *   own python_stdlib.zip is used instead (handed over in the same request,
 *   so nothing waits twice); when the interpreter cannot start on it (bytecode
 *   of another runtime, say), the runtime is started again on its own zip.
 *   html[data-stdlib] says which one the page runs on: "pyc" or "source".
 * - lockFileContents: the lock file's `info` and no packages (the game loads
 *   none), instead of fetching the 113 KB pyodide-lock.json on every boot.
 *   tests/test_runtime_module.py keeps LOCK_INFO equal to the vendored one's.
 *
 * - the wasm asked for early: static/first.js fetches the runtime's 10 MB
 *   pyodide.asm.wasm as the page starts (window.dominoWasm), long before the
 *   runtime's loader gets to it; the runtime's one request for it is answered
 *   with that response (its own request goes out when that one failed). A
 *   fetch() response, not a preload: V8 still reads the compiled module back
 *   from its cache (a preloaded response misses it).
 *
 * - no stack switching: the runtime starts with WebAssembly's JSPI
 *   (`WebAssembly.Suspending`, `Suspender`) hidden from it, so it calls every
 *   Python function from JavaScript (our event handlers, timers, messages) on
 *   the page's own stack, as in a browser without JSPI. On a switched stack,
 *   Chromium 156's frame-pointer stack walk (its allocation sampling) reads past
 *   that stack's end and the tab dies ("Target crashed"; the minidumps of five
 *   such crashes in the friends' tests all stop at that walk, the stack pointer
 *   on a V8 secondary stack). The game never suspends Python (no run_sync), so
 *   it needs none of it. html[data-jspi="off"] says it is hidden.
 *
 * `loaded` is the started interpreter (for tests: import this module again).
 */
import { loadPyodide as loadRuntime, version } from "./vendor/pyodide/pyodide.mjs";

export { version };
export let loaded = null;

const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;
const PYC_STDLIB = INDEX_URL + "python_stdlib_pyc.zip";
const SOURCE_STDLIB = INDEX_URL + "python_stdlib.zip";
const WASM = INDEX_URL + "pyodide.asm.wasm";
const LOCK_INFO = { abi_version: "2026_0", arch: "wasm32", platform: "emscripten_5_0_3", python: "3.14.0" };

// A whole zip: the local-file header first, the end-of-central-directory record at the end.
function isZip(bytes) {
  const n = bytes.length;
  if (n < 26 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 3 || bytes[3] !== 4) return false;
  for (let i = n - 22; i >= Math.max(0, n - 22 - 65535); i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 5 && bytes[i + 3] === 6) return true;
  }
  return false;
}

async function fetchStdlib() {
  try {
    const response = await fetch(PYC_STDLIB);
    if (!response.ok) throw new Error("HTTP " + response.status);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!isZip(bytes)) throw new Error("not a whole zip (" + bytes.length + " bytes)");
    return { kind: "pyc", response: new Response(bytes, { status: 200 }) };
  } catch (error) {
    console.warn("domino: the bytecode standard library is not usable (" + error.message + "): using the runtime's");
    return { kind: "source", response: await fetch(SOURCE_STDLIB) };
  }
}

function mark(kind) {
  if (typeof document !== "undefined") document.documentElement.setAttribute("data-stdlib", kind);
}

// WebAssembly's stack switching (JSPI) hidden while the runtime starts (it looks once, then): see above.
const STACK_SWITCHING = ["Suspending", "Suspender"];

function hideStackSwitching() {
  const kept = [];
  if (typeof WebAssembly !== "undefined") {
    for (const name of STACK_SWITCHING) {
      const d = Object.getOwnPropertyDescriptor(WebAssembly, name);
      if (d && d.configurable && delete WebAssembly[name]) kept.push([name, d]);
    }
  }
  if (typeof document !== "undefined" && !STACK_SWITCHING.some((n) => typeof WebAssembly !== "undefined" && n in WebAssembly)) {
    document.documentElement.setAttribute("data-jspi", "off");
  }
  return { restore() { for (const [name, d] of kept) Object.defineProperty(WebAssembly, name, d); } };
}

function perfMark(name) {
  if (typeof performance !== "undefined" && performance.mark) performance.mark("domino:" + name);
}

export async function loadPyodide(options = {}) {
  perfMark("runtime-asked");
  const base = { ...options, indexURL: INDEX_URL, lockFileContents: { info: LOCK_INFO, packages: {} } };
  // The runtime fetches stdLibURL with the global fetch, once, early in its start: that one
  // request is answered with what fetchStdlib() got (started now, in parallel with the runtime's).
  const stdlib = fetchStdlib();
  // The wasm's request, made early by static/first.js (window.dominoWasm): the runtime's one request for
  // it gets that response (or its own, when that one failed).
  let early = typeof window !== "undefined" && window.dominoWasm ? window.dominoWasm : null;
  if (early) window.dominoWasm = null;
  let stdlibAsked = false;
  const realFetch = globalThis.fetch;
  const answer = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (url === WASM && early) {
      const mine = early;
      early = null;
      if (stdlibAsked && globalThis.fetch === answer) globalThis.fetch = realFetch;
      return mine.then((r) => (r.ok ? r : realFetch.call(globalThis, input, init)),
                       () => realFetch.call(globalThis, input, init));
    }
    if (url !== PYC_STDLIB || stdlibAsked) return realFetch.call(this, input, init);
    stdlibAsked = true;
    if (!early && globalThis.fetch === answer) globalThis.fetch = realFetch;
    return stdlib.then((s) => s.response);
  };
  globalThis.fetch = answer;
  const jspi = hideStackSwitching();
  let kind;
  try {
    const py = await loadRuntime({ ...base, stdLibURL: PYC_STDLIB });
    kind = (await stdlib).kind;
    loaded = py;
  } catch (error) {
    if ((await stdlib).kind !== "pyc") throw error;
    console.warn("domino: Python did not start on the bytecode standard library (" + error + "): starting again");
    kind = "source";
    loaded = await loadRuntime(base);
  } finally {
    if (globalThis.fetch === answer) globalThis.fetch = realFetch;
    jspi.restore();
  }
  mark(kind);
  perfMark("runtime-up");
  return loaded;
}
