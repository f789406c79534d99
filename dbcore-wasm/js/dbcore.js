// The referee in a page: dbcore compiled to WebAssembly (the glue `dbcore_wasm.js` that
// wasm-bindgen writes beside this file), behind a thin layer that keeps a page working when the
// referee itself fails.
//
//   import { load, Game, call } from './pkg/dbcore.js';
//   await load();
//   const game = new Game({ lists: ['II/56', 'Ancient British'], seed: 7 });
//   const { actions } = game.call('legal_actions');
//   game.call('apply', { action: actions[0] });
//
// Every method is dbcore's own (`call('methods')` lists them); a refusal is thrown as an Error
// whose `name` is its family (ArgumentError, RuleError, DiceError, SetupError, InternalError)
// with `code`, `kind`, `rule` and `detail`, and changes nothing. No rule is decided here.
//
// A panic inside the referee traps the WebAssembly instance, whose stack is then left as it
// was. This layer turns the trap into an InternalError carrying the panic's message, moves to a
// fresh instance of the same compiled module (started ahead, since browsers refuse to start a
// large module synchronously on the page's thread), and rebuilds each game there from how it
// started and the changes the referee accepted (`apply`, `play`, `undo`), so that the game is
// exactly where it was before the call that failed.

const GLUE = new URL('./dbcore_wasm.js', import.meta.url).href;
const WASM = new URL('./dbcore_wasm_bg.wasm', import.meta.url).href;

/** The methods that change a game: replayed, in order, to rebuild it after a trap. */
const CHANGES = new Set(['apply', 'play', 'undo']);

let compiled = null; // the WebAssembly.Module, compiled once
let glue = null; // the glue of the instance in use
let spare = null; // a second instance, started ahead for a synchronous switch
let generation = 0;
let importCount = 0;

/** A fresh copy of the glue with its own instance of the compiled module, started. */
async function startInstance() {
  importCount += 1;
  // A distinct URL is a distinct module, with an instance slot of its own.
  const g = await import(importCount === 1 ? GLUE : `${GLUE}?instance=${importCount}`);
  await g.default({ module_or_path: compiled });
  return g;
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
  if (glue) return;
  compiled = await compile(wasmUrl);
  const first = await startInstance();
  glue = first;
  generation += 1;
  spare = await startInstance();
}

function ready() {
  if (!glue) throw new Error('dbcore is not loaded: await load() first');
}

/** Switch to a fresh instance after a trap, and load the next spare in the background. */
function renew() {
  if (!spare) throw new Error('the referee failed and no fresh instance is ready yet');
  glue = spare;
  spare = null;
  generation += 1;
  startInstance().then((g) => {
    spare = g;
  });
}

/** A trap (a panic inside the referee) as an InternalError; anything else as it came. */
function translate(e, old) {
  if (!(e instanceof WebAssembly.RuntimeError)) return e;
  let panic = null;
  try {
    panic = old.lastPanic();
  } catch (_) {
    // The failed instance may not answer: the trap's own message is enough.
  }
  const err = new Error(
    `the referee failed inside (${panic || e.message}); the game is as it was before this call`,
  );
  err.name = 'InternalError';
  err.code = 900;
  err.kind = 'internal';
  err.rule = null;
  err.detail = err.message;
  try {
    renew();
  } catch (again) {
    err.detail += `; ${again.message}`;
  }
  return err;
}

/** Answer a method that needs no game (`version`, `armies.lookup`, `record.replay`, ...). */
export function call(method, params = {}) {
  ready();
  const g = glue;
  try {
    return g.call(method, params);
  } catch (e) {
    throw translate(e, g);
  }
}

/** One game in progress of any kind dbcore plays. */
export class Game {
  /**
   * Start a game: `{lists: [a, b], variant?, prebattle?, seed?}`, `{setup}`, `{game: record}`,
   * `{state}` or `{demo: 'battle' | 'armies' | 'dbaix'}`.
   */
  constructor(how) {
    ready();
    this.how = how;
    this.changes = [];
    this.inner = null;
    this.generation = 0;
    this.#build();
  }

  #build() {
    const g = glue;
    let inner;
    try {
      inner = new g.Game(this.how);
      for (const [method, params] of this.changes) inner.call(method, params);
    } catch (e) {
      throw translate(e, g);
    }
    this.inner = inner;
    this.generation = generation;
  }

  /** Answer one of the game's methods by name (`call('methods')` lists them). */
  call(method, params = {}) {
    ready();
    if (this.generation !== generation) this.#build();
    const g = glue;
    try {
      const answer = this.inner.call(method, params);
      if (CHANGES.has(method)) this.changes.push([method, params]);
      return answer;
    } catch (e) {
      throw translate(e, g);
    }
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
    if (this.inner && this.generation === generation) this.inner.free();
    this.inner = null;
  }
}

/** Panic inside the referee on purpose: the browser test checks the recovery. */
export function panicForTest() {
  ready();
  const g = glue;
  try {
    g.panicForTest();
  } catch (e) {
    throw translate(e, g);
  }
}
