// The referee in a page: dbcore compiled to WebAssembly (`dbcore.wasm` beside this file), reached
// through the module's raw ABI of JSON text (dbcore-wasm/src/lib.rs), behind a thin layer that
// keeps a page working when the referee itself fails.
//
//   import { load, Game, call } from './pkg/dbcore.js';
//   await load();
//   const game = new Game({ lists: ['II/56', 'Ancient British'], seed: 7 });
//   const { actions } = game.call('legal_actions');
//   game.call('apply', { action: actions[0] });
//
// Every method is dbcore's own (`call('methods')` lists them); a refusal is thrown as an Error
// whose `name` is its family (ArgumentError, RuleError, DiceError, SetupError, InternalError)
// with `code`, `kind`, `rule` and `detail`, and changes nothing. No rule is decided here: values
// go in as JSON text and come back as JSON text, `{"ok": value}` or `{"error": {...}}`.
//
// A panic inside the referee traps the WebAssembly instance, whose memory is then left as it
// was. This layer turns the trap into an InternalError carrying the panic's message, moves to a
// fresh instance of the same compiled module (started ahead, since browsers refuse to start a
// large module synchronously on the page's thread), and rebuilds each game there from how it
// started and the changes the referee accepted (`apply`, `play`, `undo`), so that the game is
// exactly where it was before the call that failed.

const WASM = new URL('./dbcore.wasm', import.meta.url).href;

/** The methods that change a game: replayed, in order, to rebuild it after a trap. */
const CHANGES = new Set(['apply', 'play', 'undo']);

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

let compiled = null; // the WebAssembly.Module, compiled once
let wasm = null; // the exports of the instance in use
let spare = null; // a second instance, started ahead for a synchronous switch
let generation = 0;

/** The errors thrown, one class a family, as in Python. */
class DbcoreError extends Error {
  constructor(e) {
    super(e.detail);
    this.code = e.code;
    this.kind = e.kind;
    this.rule = e.rule ?? null;
    this.detail = e.detail;
  }
}
export class ArgumentError extends DbcoreError {}
export class RuleError extends DbcoreError {}
export class DiceError extends DbcoreError {}
export class SetupError extends DbcoreError {}
export class InternalError extends DbcoreError {}
const FAMILIES = { ArgumentError, RuleError, DiceError, SetupError, InternalError };
for (const [name, cls] of Object.entries(FAMILIES)) {
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
}

/** The error of the module's answer as the class of its family. */
function thrown(e) {
  const cls = FAMILIES[e.name] || InternalError;
  return new cls(e);
}

/** A fresh instance of the compiled module; its exports. It needs no imports. */
async function startInstance() {
  const instance = await WebAssembly.instantiate(compiled, {});
  return instance.exports;
}

async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  const type = response.headers.get('Content-Type') || '';
  if (WebAssembly.compileStreaming && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Load the referee (once; later calls return at once). `wasmUrl` defaults to the module beside
 * this file.
 */
export async function load(wasmUrl = WASM) {
  if (wasm) return;
  compiled = await compile(wasmUrl);
  const first = await startInstance();
  wasm = first;
  generation += 1;
  spare = await startInstance();
}

function ready() {
  if (!wasm) throw new Error('dbcore is not loaded: await load() first');
}

/** Switch to a fresh instance after a trap, and start the next spare in the background. */
function renew() {
  if (!spare) throw new Error('the referee failed and no fresh instance is ready yet');
  wasm = spare;
  spare = null;
  generation += 1;
  startInstance().then((x) => {
    spare = x;
  });
}

/** The text `len` bytes long at `ptr` in instance `w`'s memory. */
function readText(w, ptr, len) {
  return decoder.decode(new Uint8Array(w.memory.buffer, ptr, len));
}

/** The last answer of instance `w`: its value, or its error thrown. */
function answer(w) {
  const a = JSON.parse(readText(w, w.result_ptr(), w.result_len()));
  if ('error' in a) throw thrown(a.error);
  return a.ok;
}

/** Write `text` into instance `w`'s memory; [ptr, len], to give back with `w.dealloc`. */
function put(w, text) {
  const bytes = encoder.encode(text);
  const ptr = w.alloc(bytes.length);
  if (bytes.length && !ptr) throw new InternalError({ code: 902, kind: 'internal', rule: null, detail: 'the referee has no memory left' });
  new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
  return [ptr, bytes.length];
}

/** Run `f(...texts as [ptr, len] pairs)` on instance `w` with `texts` written in, then free them. */
function withTexts(w, texts, f) {
  const placed = [];
  try {
    for (const t of texts) placed.push(put(w, t));
    return f(...placed.flat());
  } finally {
    for (const [ptr, len] of placed) w.dealloc(ptr, len);
  }
}

function json(params) {
  return params === undefined || params === null ? '{}' : JSON.stringify(params);
}

/** A trap (a panic inside the referee) as an InternalError; anything else as it came. */
function translate(e, old) {
  if (!(e instanceof WebAssembly.RuntimeError)) return e;
  let panic = null;
  try {
    const ptr = old.last_panic();
    if (ptr) panic = readText(old, ptr, old.result_len()) || null;
  } catch (_) {
    // The failed instance may not answer: the trap's own message is enough.
  }
  const err = new InternalError({
    code: 900,
    kind: 'panic',
    rule: null,
    detail: `the referee failed inside (${panic || e.message}); the game is as it was before this call`,
  });
  try {
    renew();
  } catch (again) {
    err.detail += `; ${again.message}`;
    err.message = err.detail;
  }
  return err;
}

/** Answer a method that needs no game (`version`, `armies.lookup`, `record.replay`, ...). */
export function call(method, params = {}) {
  ready();
  const w = wasm;
  try {
    withTexts(w, [String(method), json(params)], (mp, ml, pp, pl) => w.call(mp, ml, pp, pl));
  } catch (e) {
    throw translate(e, w);
  }
  return answer(w);
}

/** Gives a collected game's memory back to its instance (when it is still the one in use). */
const collector = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((held) => {
    if (held.exports === wasm && held.id) wasm.game_free(held.id);
  })
  : null;

/** One game in progress of any kind dbcore plays. */
export class Game {
  /**
   * Start a game: `{lists: [a, b], variant?, prebattle?, seed?}`, `{setup}`, `{game: record}`,
   * `{state}` or `{demo: 'battle' | 'armies' | 'dbaix'}`.
   */
  constructor(how) {
    ready();
    this.how = json(how);
    this.changes = [];
    this.held = { exports: null, id: 0 };
    this.generation = 0;
    collector?.register(this, this.held, this);
    this.#build();
  }

  /** Start the game in the instance in use, replaying the changes accepted so far. */
  #build() {
    const w = wasm;
    let id = 0;
    try {
      id = withTexts(w, [this.how], (p, l) => w.game_new(p, l));
      if (!id) answer(w); // throws the refusal
      for (const [method, params] of this.changes) {
        withTexts(w, [method, params], (mp, ml, pp, pl) => w.game_call(id, mp, ml, pp, pl));
        answer(w);
      }
    } catch (e) {
      if (id && !(e instanceof WebAssembly.RuntimeError)) w.game_free(id);
      throw translate(e, w);
    }
    this.held.exports = w;
    this.held.id = id;
    this.generation = generation;
  }

  /** Answer one of the game's methods by name (`call('methods')` lists them). */
  call(method, params = {}) {
    ready();
    if (this.generation !== generation) this.#build();
    const w = wasm;
    const text = json(params);
    try {
      withTexts(w, [String(method), text], (mp, ml, pp, pl) => w.game_call(this.held.id, mp, ml, pp, pl));
    } catch (e) {
      throw translate(e, w);
    }
    const value = answer(w);
    if (CHANGES.has(method)) this.changes.push([method, text]);
    return value;
  }

  /** Where the game stands. */
  info() {
    return this.call('info');
  }

  /** Everything a table draws now. */
  scene() {
    return this.call('scene');
  }

  /** The concrete legal actions now; `dice` are the scores thrown, the tray's when omitted. */
  legalActions(dice) {
    return this.call('legal_actions', dice ? { dice } : {}).actions;
  }

  /** What `action` would do, changing nothing (throws the refusal). */
  check(action) {
    return this.call('check', { action }).events;
  }

  /** Apply `action`: its events, or the refusal thrown with nothing changed. */
  apply(action) {
    return this.call('apply', { action }).events;
  }

  /** Take back the last action, dice included. */
  undo() {
    return this.call('undo');
  }

  /** The game record (format dbcore-game), to save. */
  record() {
    return this.call('record');
  }

  /** Give up the game's memory now (it is also given up when the object is collected). */
  free() {
    if (this.held.id && this.held.exports === wasm && this.generation === generation) {
      wasm.game_free(this.held.id);
    }
    this.held.id = 0;
    this.held.exports = null;
    collector?.unregister(this);
  }
}

/** Panic inside the referee on purpose: the browser test checks the recovery. */
export function panicForTest() {
  ready();
  const w = wasm;
  try {
    w.panic_for_test();
  } catch (e) {
    throw translate(e, w);
  }
}
