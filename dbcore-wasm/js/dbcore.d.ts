// TypeScript declarations of dbcore.js, the layer a page imports (written by hand, as the
// module is: dbcore.wasm exports a raw ABI of JSON text and nothing is generated). Values are
// dbcore's JSON (docs/json.md; the full shapes are the JSON Schema in schema/dbcore.schema.json):
// they are typed here as far as a page needs to read them, the rest as `unknown`.

/** A refusal or failure of the referee. `name` is its family, as in Python. */
export interface DbcoreError extends Error {
  name: 'ArgumentError' | 'RuleError' | 'DiceError' | 'SetupError' | 'InternalError';
  /** The stable code: 100s arguments, 200s rule refusals, 300s dice, 400s set-up, 900s internal. */
  code: number;
  /** The code's snake_case name, e.g. "illegal_move"; "panic" for a failure inside the referee. */
  kind: string;
  /** The rules section that refuses ("§8.1"), or null. */
  rule: string | null;
  /** What is wrong, in a sentence (the same as `message`). */
  detail: string;
}

/** The classes the errors are thrown as, one a family (`e instanceof RuleError`). */
export class ArgumentError extends Error implements DbcoreError { name: 'ArgumentError'; code: number; kind: string; rule: string | null; detail: string }
export class RuleError extends Error implements DbcoreError { name: 'RuleError'; code: number; kind: string; rule: string | null; detail: string }
export class DiceError extends Error implements DbcoreError { name: 'DiceError'; code: number; kind: string; rule: string | null; detail: string }
export class SetupError extends Error implements DbcoreError { name: 'SetupError'; code: number; kind: string; rule: string | null; detail: string }
export class InternalError extends Error implements DbcoreError { name: 'InternalError'; code: number; kind: string; rule: string | null; detail: string }

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An action, tagged by `action` ("roll_pips", "move", "fight", "deploy", ...). */
export interface Action { action: string; [key: string]: Json }
/** An event, tagged by `event` ("moved", "fought", "outcome", ...). */
export interface Event { event: string; [key: string]: Json }

export interface Pose { x: number; y: number; facing: number }
export interface Point { x: number; y: number }

/** How a game starts: exactly one of these keys (with `seed` and `tags` optional). */
export type How =
  | { lists: [string, string]; variant?: 'standard' | 'big_battle' | 'giant'; prebattle?: 'caller' | 'driver' | 'ai'; seed?: number; tags?: Record<string, string> }
  | { setup: Json; seed?: number }
  | { game: Json | string; seed?: number }
  | { state: Json | string; seed?: number }
  | { demo: 'battle' | 'armies' | 'dbaix'; prebattle?: 'caller' | 'driver' | 'ai'; seed?: number };

export interface Info {
  game: 'dba' | 'dbaix';
  variant: string;
  stage: 'prebattle' | 'battle' | 'finished';
  phase: { phase: string; [key: string]: Json } | 'prebattle';
  army: number | null;
  bound: number;
  pips: number;
  revision: number;
  events: number;
  armies: string[];
  winners: number[] | null;
  awaiting: { for: string; [key: string]: Json } | null;
  seed: number;
}

export interface SceneElement {
  id: number;
  army: number;
  kind: string;
  general: boolean;
  command: number | null;
  pose: Pose | null;
  depth: number;
  corners: Point[] | null;
  status: { status: 'in_play' | 'lost' | 'afloat' | 'undeployed'; cause?: string };
}

/** Everything a table draws (`scene`). */
export interface Scene {
  game: 'dba' | 'dbaix';
  board: { width: number; depth: number };
  /** The terrain picture's frame: x_px = (x + margin) * scale, y_px = (depth - y + margin) * scale. */
  frame: { scale: number; margin: number };
  terrain_svg: string;
  armies: { name: string; colour: string; base_edge: string | null; facing: number | null }[];
  camps: { army: number; command: number | null; outline: Point[]; sacked: boolean }[];
  elements: SceneElement[];
  quarters: { quarter: number; outline: Point[] }[];
}

export interface Destination {
  action: Action;
  text: string;
  order: string;
  into_contact: boolean;
  target: number | null;
  pips: number;
  movers: { id: number; to: Pose; corners: Point[] }[];
}

/** Load the referee (once). `wasmUrl` defaults to dbcore.wasm beside dbcore.js. */
export function load(wasmUrl?: string | URL): Promise<void>;

/** Answer a method that needs no game: version, methods, armies.lookup, record.replay, ... */
export function call(method: string, params?: Record<string, unknown>): any;

/** Panic inside the referee on purpose (the browser test checks the recovery). */
export function panicForTest(): void;

/** One game in progress of any kind dbcore plays. */
export class Game {
  constructor(how: How);
  /** Answer one of the game's methods by name; throws a DbcoreError and changes nothing on refusal. */
  call(method: 'info'): Info;
  call(method: 'scene'): Scene;
  call(method: 'legal_actions', params?: { dice?: number[]; element?: number; notation?: boolean }): { actions: Action[]; dice: number[]; texts?: string[] };
  call(method: 'check', params: { action: Action }): { events: Event[] };
  call(method: 'apply', params: { action: Action }): { events: Event[]; revision: number };
  call(method: 'destinations', params: { element?: number; ids?: number[]; bearings?: number }): { destinations: Destination[] };
  call(method: 'snap', params: { element: number; pose: Pose; within?: number }): { pose: Pose; corners: Point[]; action: Action; text: string; with: Json; events: Event[] };
  call(method: 'narrate', params?: { since?: number; from_action?: number }): string[];
  call(method: string, params?: Record<string, unknown>): any;
  info(): Info;
  scene(): Scene;
  legalActions(dice?: number[]): Action[];
  check(action: Action): Event[];
  apply(action: Action): Event[];
  undo(): { action: Action; revision: number };
  /** The game record (format dbcore-game), to save. */
  record(): Json;
  free(): void;
}
