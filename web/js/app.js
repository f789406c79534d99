// The table's page: starts games, shows what the referee says, and hands it what the players
// do. Every question (what is awaited, what is legal, where an element may go, whether a drop
// is accepted, the odds, the computer's choice) is asked of the referee running in the page.

import { load, Game, call } from '../pkg/dbcore.js';
import { Board, elementName } from './board.js';
import { readGameFile, saveRecord } from './files.js';
import { Replay } from './replay.js';
import * as panel from './panel.js';

const $ = (id) => document.getElementById(id);

/** Everything the page holds besides the referee's own state. */
const app = {
  game: null,
  players: [{ who: 'person' }, { who: 'computer' }],
  nodes: null,
  info: null,
  scene: null,
  selection: null, // {ids, destinations, active}
  placing: null, // {id, facing} in deployment
  candidates: null, // {actions, polygons, active} for features and camps
  logged: 0,
  timer: null,
  replay: null,
  timings: {},
  demo: false,
  shown: [], // the events whose marks and dice are on the table
};
window.dbcoreApp = app;

let board;

/** The army whose choice it is now, or null for dice that belong to nobody. */
function decider(info) {
  if (!info || info.stage === 'finished') return null;
  if (info.stage === 'battle') return info.army;
  const a = info.awaiting;
  return a && typeof a.army === 'number' ? a.army : null;
}

function isComputer(army) {
  if (app.demo) return true;
  if (army === null) return app.players.every((p) => p.who === 'computer');
  return app.players[army]?.who === 'computer';
}

/** Whether the person at the screen decides now. */
function personDecides() {
  if (!app.info || app.info.stage === 'finished' || app.replay) return false;
  return !isComputer(decider(app.info));
}

function say(text, ok = false, rule = null) {
  const m = $('message');
  m.replaceChildren();
  m.classList.toggle('ok', ok);
  if (!text) return;
  // A refusal's sentence often names its rule first already: it is not said twice.
  if (rule && !text.startsWith(rule)) {
    const r = document.createElement('span');
    r.className = 'rule';
    r.textContent = `${rule}: `;
    m.appendChild(r);
  }
  m.appendChild(document.createTextNode(text));
}

/** Say why the referee refused. */
function refused(e) {
  say(e.detail || e.message, false, e.rule || (e.name && e.name !== 'Error' ? e.name : null));
}

function hint(text) {
  $('hint').textContent = text || '';
}

// ---- Starting, opening and saving games ------------------------------------------------------

function startGame(how, players, nodes, demo = false) {
  const game = new Game(how); // throws the referee's refusal; nothing is changed then
  if (app.game) app.game.free();
  app.game = game;
  app.players = players;
  app.nodes = nodes;
  app.demo = demo;
  app.logged = 0;
  app.selection = null;
  app.placing = null;
  app.candidates = null;
  $('log').replaceChildren();
  $('dice').replaceChildren();
  $('odds').replaceChildren();
  // A message about the game before (a refusal, a file opened) does not outlive it.
  say('');
  closeReplay();
  refresh([]);
}

function newGameFromForm(form) {
  const f = new FormData(form);
  const players = [0, 1].map((i) => ({ who: f.get(`who${i}`) }));
  const nodes = f.get('nodes') ? Number(f.get('nodes')) : null;
  const seed = Number(f.get('seed') || 1);
  if (f.get('demo')) {
    // The demonstration set-up, deployed already; with the computer at both sides it is the
    // demonstration driver that plays, as fast as it can.
    const driver = players.every((p) => p.who === 'computer');
    startGame({ demo: 'battle', seed }, players, nodes, driver);
    return;
  }
  const lists = [0, 1].map((i) => String(f.get(`army${i}`) || '').trim());
  startGame({ lists, variant: f.get('variant'), seed, prebattle: 'caller' }, players, nodes);
}

async function openFile(file) {
  let read;
  try {
    read = await readGameFile(file);
  } catch (e) {
    refused(e);
    return;
  }
  if (read.setup) {
    try {
      startGame({ setup: read.setup }, app.players, app.nodes);
      say(`The set-up in ${file.name} is on the table.`, true);
    } catch (e) {
      refused(e);
    }
    return;
  }
  try {
    const replay = new Replay(read.record, Game);
    openReplay(replay, file.name);
  } catch (e) {
    refused(e);
  }
}

// ---- Replays -----------------------------------------------------------------------------------

function openReplay(replay, name) {
  if (app.replay) app.replay.free();
  app.replay = replay;
  clearTimeout(app.timer);
  const s = $('scrubber');
  s.max = String(replay.stops.length - 1);
  s.value = s.max;
  $('replay').hidden = false;
  say(`${name}: ${replay.actions.length} actions, ${replay.stops.length - 1} stops; scrub bound by bound.`, true);
  showStop(replay.stops.length - 1);
}

function showStop(i) {
  const r = app.replay;
  const stop = r.stops[i];
  app.info = stop.info;
  app.scene = stop.scene;
  board.draw(stop.scene);
  board.showMarks([], []);
  $('replay-where').textContent = `${stop.label} (${i} of ${r.stops.length - 1})`;
  $('scrubber').value = String(i);
  panel.status($('status'), stop.info, stop.scene);
  panel.replayDecision($('decision'), stop.info);
  // The live game's last dice and odds are not this stop's: they go while a replay is shown.
  $('dice').replaceChildren();
  $('odds').replaceChildren();
  const log = $('log');
  log.replaceChildren();
  panel.appendLog(log, r.lines.slice(0, stop.lines));
  hint('');
}

function closeReplay() {
  if (app.replay) app.replay.free();
  app.replay = null;
  $('replay').hidden = true;
}

function playOnFromStop() {
  const r = app.replay;
  const i = Number($('scrubber').value);
  const record = r.recordUpTo(r.stops[i].actions);
  const players = app.players;
  closeReplay();
  try {
    startGame({ game: record }, players, app.nodes);
  } catch (e) {
    refused(e);
  }
}

// ---- Showing where the game stands -------------------------------------------------------------

/**
 * Draw the game as the referee has it now, after `events` (the last change's). The marks and
 * dice of the computer's actions are kept with those before them until the person acts again
 * (or, with nobody at the screen, until a bound begins), so that a combat the person fought is
 * still marked after the computer has rolled its PIPs.
 */
function refresh(events, { byComputer = false } = {}) {
  const nobody = app.demo || app.players.every((p) => p.who === 'computer');
  const newBound = events.some((e) => e.event === 'bound_started');
  if (!byComputer || (nobody && newBound)) app.shown = [];
  app.shown.push(...events);
  events = app.shown;
  const g = app.game;
  app.info = g.info();
  app.scene = g.scene();
  app.selection = null;
  app.candidates = null;
  const mine = (e) => personDecides() && e.army === decider(app.info) && app.info.stage === 'battle'
    && app.info.phase.phase === 'movement';
  board.draw(app.scene, mine);
  marksOf(events);
  diceOf(events);
  panel.status($('status'), app.info, app.scene);
  const fresh = g.call('narrate', { since: app.logged });
  panel.appendLog($('log'), fresh);
  app.logged += fresh.length;
  $('save').disabled = false;
  $('undo').disabled = app.info.revision === 0;
  decide();
}

/** Arrows for what moved (moves, recoils, flights, pursuits) and crosses for losses. */
function marksOf(events) {
  const moves = [];
  const lost = [];
  const byId = new Map(app.scene.elements.map((e) => [e.id, e]));
  for (const ev of events) {
    if (ev.event === 'moved') for (const m of ev.moves) moves.push({ id: m.id, from: m.from, to: m.to });
    if (ev.event === 'outcome') {
      const f = ev.effect;
      if (f.from && f.to) moves.push({ id: f.id, from: f.from, to: f.to });
      if (f.effect === 'destroyed' && byId.get(f.id)?.corners) lost.push(byId.get(f.id));
    }
  }
  board.showMarks(moves, lost);
}

/** The dice thrown in `events`, each throw with what it was for (the last few are shown). */
function diceOf(events) {
  const throws = [];
  const who = (id) => `#${id}`;
  for (const ev of events) {
    const label = ev.event.replaceAll('_', ' ');
    if (ev.result?.a?.die) {
      const [a, b] = [ev.a ?? ev.shooter, ev.b ?? ev.target];
      throws.push({ label: `${label} ${who(a)} v ${who(b)}`, dice: [ev.result.a.die, ev.result.b.die] });
    } else if (typeof ev.die === 'number') {
      throws.push({ label, dice: [ev.die] });
    } else if (Array.isArray(ev.dice) && ev.dice.every((d) => typeof d === 'number')) {
      throws.push({ label, dice: ev.dice });
    }
  }
  if (throws.length) panel.dice($('dice'), throws.slice(-4));
}

/** Ask the person, or let the computer choose. */
function decide() {
  clearTimeout(app.timer);
  $('odds').replaceChildren();
  board.clear('choices');
  board.clear('ghosts');
  board.clear('drag');
  board.clear('zones');
  const info = app.info;
  if (info.stage === 'finished') {
    panel.finished($('decision'), info, { save: doSave, replay: replayThis });
    hint('');
    return;
  }
  if (!personDecides()) {
    panel.waiting($('decision'), info, app.scene, { stop: stopComputer });
    hint('');
    app.timer = setTimeout(computerStep, app.demo ? 0 : 120);
    return;
  }
  panel.ask($('decision'), app, {
    apply,
    computer: computerStep,
    roll: rollWith,
    candidates: showCandidates,
    place: beginPlacing,
    odds: showOdds,
    deployRest,
  });
  const a = info.awaiting;
  if (info.stage === 'prebattle' && a) {
    if (a.for === 'quarter') board.showQuarters(app.scene.quarters);
    if (a.for === 'base_edge') board.showEdges(a.allowed);
  }
  hint(panel.hintFor(info));
}

// ---- Acting ----------------------------------------------------------------------------------

/** Apply `action`; the referee's refusal is shown and changes nothing. */
function apply(action) {
  try {
    const t0 = performance.now();
    const done = app.game.call('apply', { action });
    app.timings.apply = performance.now() - t0;
    say('');
    refresh(done.events);
    return true;
  } catch (e) {
    refused(e);
    return false;
  }
}

/** The legal action for the awaited dice, with `dice` typed (or the tray's when null). */
function rollWith(dice) {
  try {
    const { actions } = app.game.call('legal_actions', dice ? { dice } : {});
    if (!actions.length) {
      say('The referee lists no roll for these dice now.');
      return;
    }
    apply(actions[0]);
  } catch (e) {
    refused(e);
  }
}

function computerStep() {
  if (!app.game || app.info.stage === 'finished' || app.replay) return;
  const army = decider(app.info);
  const t0 = performance.now();
  try {
    const method = app.demo ? 'driver' : 'ai';
    const params = app.demo || app.nodes === null ? {} : { nodes: app.nodes };
    const { action } = app.game.call(method, params);
    app.timings.computer = performance.now() - t0;
    const done = app.game.call('apply', { action });
    say(`${army === null ? 'The computer' : app.info.armies[army]} — ${describe(action)}`, true);
    refresh(done.events, { byComputer: true });
  } catch (e) {
    refused(e);
  }
}

function stopComputer() {
  clearTimeout(app.timer);
  app.demo = false;
  app.players = app.players.map(() => ({ who: 'person' }));
  refresh([]);
}

function describe(action) {
  try {
    if (app.info.stage !== 'prebattle') return app.game.call('describe', { action, decimals: 2 }).text;
  } catch (_) {
    // Not every action has a notation (DBAix): its tag says enough.
  }
  return action.action.replaceAll('_', ' ');
}

function deployRest() {
  const army = decider(app.info);
  let last = [];
  try {
    while (app.info.stage === 'prebattle' && app.info.awaiting?.for === 'deployment' && app.info.awaiting.army === army) {
      const { action } = app.game.call('ai', app.nodes === null ? {} : { nodes: app.nodes });
      last = app.game.call('apply', { action }).events;
      app.info = app.game.info();
    }
  } catch (e) {
    refused(e);
  }
  refresh(last);
}

function doSave() {
  saveRecord(app.game.call('record'));
}

function replayThis() {
  try {
    openReplay(new Replay(app.game.call('record'), Game), 'this game');
  } catch (e) {
    refused(e);
  }
}

function undo() {
  if (!app.game) return;
  try {
    app.game.call('undo');
    // The narration is told again from the start: lines after the undone action go.
    $('log').replaceChildren();
    app.logged = 0;
    say('Taken back.', true);
    refresh([]);
  } catch (e) {
    refused(e);
  }
}

// ---- Choices drawn on the table: features, camps, deployment ----------------------------------

function showCandidates(actions, polygons) {
  app.candidates = { actions, polygons, active: 0 };
  board.showCandidates(polygons, 0);
}

function beginPlacing(id) {
  const army = decider(app.info);
  app.placing = { id, facing: app.scene.armies[army]?.facing ?? 0 };
  hint(`Place ${id}: move over the table and click; Q and E turn it. Esc gives up.`);
}

/** A deployment pose at `p`, with the facing chosen; the page rounds to 0.05 BW to be tidy. */
function placingPose(p) {
  const r = (v) => Math.round(v * 20) / 20;
  return { x: r(p.x), y: r(p.y), facing: app.placing.facing };
}

function deployAction(p) {
  return { action: 'deploy', id: app.placing.id, pose: placingPose(p) };
}

function corners(pose, depth) {
  const t = (pose.facing * Math.PI) / 180;
  const f = { x: Math.sin(t), y: Math.cos(t) };
  const r = { x: f.y, y: -f.x };
  const a = { x: pose.x - r.x * 0.5, y: pose.y - r.y * 0.5 };
  const b = { x: pose.x + r.x * 0.5, y: pose.y + r.y * 0.5 };
  return [a, b, { x: b.x - f.x * depth, y: b.y - f.y * depth }, { x: a.x - f.x * depth, y: a.y - f.y * depth }];
}

function onPoint(p, phase) {
  if (!app.placing || !personDecides()) return;
  const action = deployAction(p);
  const e = app.scene.elements.find((x) => x.id === app.placing.id);
  const shape = corners(action.pose, e?.depth ?? 0.5);
  try {
    app.game.call('check', { action });
    board.showGhost(shape, true);
    if (phase === 'down') {
      app.placing = null;
      apply(action);
      return;
    }
    say('');
  } catch (err) {
    board.showGhost(shape, false);
    refused(err);
  }
}

// ---- Selecting and moving elements in the battle ----------------------------------------------

function select(id, additive) {
  if (app.replay) return;
  const e = app.scene.elements.find((x) => x.id === id);
  if (!e) return;
  board.clear('drag');
  if (!(personDecides() && app.info.stage === 'battle')) {
    showElement(e);
    return;
  }
  const phase = app.info.phase.phase;
  if (phase === 'movement' && e.army === decider(app.info)) {
    const ids = additive && app.selection ? [...new Set([...app.selection.ids, id])] : [id];
    const t0 = performance.now();
    try {
      const params = ids.length === 1 ? { element: id } : { ids };
      const { destinations } = app.game.call('destinations', params);
      app.selection = { ids, destinations, active: destinations.length ? 0 : -1 };
      board.markSelected(ids);
      board.showDestinations(destinations, app.selection.active);
      app.timings.destinations = performance.now() - t0;
      const zones = app.game.call('outlines', { element: id });
      board.showZones(zones.threat_zone.map((z) => z.points));
      hint(destinations.length
        ? `${ids.map((i) => '#' + i).join(', ')}: ${destinations.length} moves drawn (red: contacts). Click one, or drag the element; ←/→ and Enter by keyboard.`
        : `${ids.map((i) => '#' + i).join(', ')} cannot move now.`);
      say('');
    } catch (err) {
      refused(err);
    }
    return;
  }
  if (phase === 'shooting' || phase === 'close_combat') {
    showElement(e);
  }
}

function showElement(e) {
  hint(`${elementName(e)} — ${app.scene.armies[e.army]?.name || ''}${e.general ? ', general' : ''}`);
}

function pick(thing) {
  if (thing.destination !== undefined && app.selection) {
    const d = app.selection.destinations[thing.destination];
    if (d) apply(d.action);
    return;
  }
  if (thing.candidate !== undefined && app.candidates) {
    apply(app.candidates.actions[thing.candidate]);
    return;
  }
  if (thing.quarter !== undefined) {
    apply({ action: 'choose_quarter', quarter: thing.quarter });
    return;
  }
  if (thing.edge !== undefined) apply({ action: 'choose_base_edge', edge: thing.edge });
}

let pendingDrag = null;
let dragFrame = 0;

function drag(id, pose) {
  pendingDrag = { id, pose };
  if (dragFrame) return;
  dragFrame = requestAnimationFrame(() => {
    dragFrame = 0;
    const d = pendingDrag;
    if (!d) return;
    try {
      const snap = app.game.call('snap', { element: d.id, pose: d.pose, within: 0.75 });
      board.showGhost(snap.corners, true);
      app.dragSnap = { id: d.id, snap };
      hint(`${snap.text}${snap.with ? ` — lines up with ${snap.with.target ?? snap.with.friend}` : ''}`);
      say('');
    } catch (err) {
      const e = app.scene.elements.find((x) => x.id === d.id);
      board.showGhost(corners(d.pose, e?.depth ?? 0.5), false);
      app.dragSnap = null;
      refused(err);
    }
  });
}

function drop(id) {
  cancelAnimationFrame(dragFrame);
  dragFrame = 0;
  const last = pendingDrag;
  pendingDrag = null;
  if (last) {
    // The last pose is judged once more, so that the drop is what the referee last accepted.
    try {
      const snap = app.game.call('snap', { element: id, pose: last.pose, within: 0.75 });
      app.dragSnap = { id, snap };
    } catch (err) {
      app.dragSnap = null;
      refused(err);
    }
  }
  const s = app.dragSnap;
  app.dragSnap = null;
  if (s && s.id === id) {
    apply(s.snap.action);
  } else {
    board.clear('drag');
  }
}

// ---- Odds ----------------------------------------------------------------------------------------

function showOdds(action) {
  try {
    const t0 = performance.now();
    const odds = action.action === 'fight'
      ? app.game.call('combat_odds', { a: action.a, b: action.b })
      : app.game.call('shot_odds', { shooter: action.shooter, target: action.target, support: action.support || [], shoots_back: false });
    app.timings.odds = performance.now() - t0;
    const name = (id) => {
      const e = app.scene.elements.find((x) => x.id === id);
      return e ? elementName(e) : `#${id}`;
    };
    const [a, b] = action.action === 'fight' ? [action.a, action.b] : [action.shooter, action.target];
    panel.odds($('odds'), odds.odds, name(a), name(b));
  } catch (e) {
    refused(e);
  }
}

// ---- Keys --------------------------------------------------------------------------------------

function onKey(e) {
  if (e.target.closest('input, select, textarea, dialog')) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  if ((k === 'q' || k === 'e' || k === 'Q' || k === 'E') && (board.drag || app.placing)) {
    const deg = k.toLowerCase() === 'q' ? -15 : 15;
    if (board.rotate(deg)) return;
    if (app.placing) {
      app.placing.facing = (((app.placing.facing + deg) % 360) + 360) % 360;
      hint(`Facing ${app.placing.facing}°`);
    }
    return;
  }
  if (k === 'Escape') {
    app.selection = null;
    app.placing = null;
    board.markSelected([]);
    board.clear('ghosts');
    board.clear('drag');
    board.clear('zones');
    hint('');
    return;
  }
  if (app.replay) {
    const s = $('scrubber');
    if (k === 'ArrowRight' || k === 'ArrowLeft') {
      const i = Math.max(0, Math.min(Number(s.max), Number(s.value) + (k === 'ArrowRight' ? 1 : -1)));
      showStop(i);
      e.preventDefault();
    }
    return;
  }
  if (app.selection && (k === 'ArrowRight' || k === 'ArrowLeft') && app.selection.destinations.length) {
    const n = app.selection.destinations.length;
    app.selection.active = (app.selection.active + (k === 'ArrowRight' ? 1 : n - 1)) % n;
    const d = app.selection.destinations[app.selection.active];
    board.showDestinations(app.selection.destinations, app.selection.active);
    hint(`${d.text} (${d.pips} PIP${d.pips === 1 ? '' : 's'}) — Enter to make this move`);
    e.preventDefault();
    return;
  }
  if (app.selection && k === 'Enter' && app.selection.active >= 0 && !e.target.closest('.el, button')) {
    pick({ destination: app.selection.active });
    return;
  }
  if (app.candidates && (k === 'ArrowRight' || k === 'ArrowLeft')) {
    const n = app.candidates.polygons.length;
    app.candidates.active = (app.candidates.active + (k === 'ArrowRight' ? 1 : n - 1)) % n;
    board.showCandidates(app.candidates.polygons, app.candidates.active);
    return;
  }
  if (app.candidates && k === 'Enter' && !e.target.closest('button')) {
    pick({ candidate: app.candidates.active });
    return;
  }
  const keys = {
    n: () => openSetup(),
    s: () => app.game && doSave(),
    o: () => $('open').click(),
    u: undo,
    c: () => personDecides() && computerStep(),
    r: () => personDecides() && app.info.awaiting && rollWith(null),
    m: () => personDecides() && app.info.phase?.phase === 'movement' && apply({ action: 'end_movement' }),
  };
  if (keys[k]) {
    keys[k]();
    e.preventDefault();
  }
}

// ---- The set-up dialog -------------------------------------------------------------------------

function openSetup() {
  const d = $('setup-dialog');
  $('setup-error').textContent = '';
  if (!d.open) d.showModal();
}

function lookupArmy(input, out) {
  const text = input.value.trim();
  if (!text) {
    out.textContent = '';
    return;
  }
  try {
    const found = call('armies.lookup', { text });
    out.textContent = `${found.id}: ${found.name}`;
    out.classList.remove('bad');
  } catch (e) {
    out.textContent = e.detail || e.message;
    out.classList.add('bad');
  }
  try {
    const names = call('armies.find', { query: { name: text } }).slice(0, 30);
    const list = $('army-names');
    list.replaceChildren(...names.map((n) => {
      const o = document.createElement('option');
      o.value = n.id;
      o.label = `${n.name} (${n.dates?.text ?? ''})`;
      return o;
    }));
  } catch (_) {
    // A name the search cannot read leaves the suggestions as they were.
  }
}

function wireSetup() {
  const form = $('setup-form');
  for (const i of [0, 1]) {
    const input = form.elements[`army${i}`];
    input.addEventListener('input', () => lookupArmy(input, $(`lookup${i}`)));
    lookupArmy(input, $(`lookup${i}`));
  }
  $('setup-cancel').addEventListener('click', () => $('setup-dialog').close());
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    try {
      newGameFromForm(form);
      $('setup-dialog').close();
    } catch (err) {
      $('setup-error').textContent = err.detail || err.message;
    }
  });
}

// ---- Start -------------------------------------------------------------------------------------

async function main() {
  const t0 = performance.now();
  board = new Board($('table'), { select, pick, drag, drop, point: onPoint, cancelDrag: () => board.clear('drag') });
  await load();
  app.timings.load = performance.now() - t0;
  wireSetup();
  $('new-game').addEventListener('click', openSetup);
  $('save').addEventListener('click', doSave);
  $('undo').addEventListener('click', undo);
  $('open').addEventListener('change', (e) => {
    const f = e.target.files?.[0];
    if (f) openFile(f);
    e.target.value = '';
  });
  $('scrubber').addEventListener('input', (e) => showStop(Number(e.target.value)));
  $('replay-prev').addEventListener('click', () => showStop(Math.max(0, Number($('scrubber').value) - 1)));
  $('replay-next').addEventListener('click', () => showStop(Math.min(Number($('scrubber').max), Number($('scrubber').value) + 1)));
  $('replay-play-on').addEventListener('click', playOnFromStop);
  $('replay-close').addEventListener('click', () => {
    closeReplay();
    // The replay's narration goes; the game's is told again from its start.
    $('log').replaceChildren();
    app.logged = 0;
    if (app.game) refresh([]);
  });
  document.addEventListener('keydown', onKey);
  // The page opens on the demonstration set-up, ready to play against the computer.
  startGame({ demo: 'battle', seed: 7 }, [{ who: 'person' }, { who: 'computer' }], null);
  $('loading').hidden = true;
  app.timings.ready = performance.now();
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  $('loading').textContent = `The referee could not be loaded: ${e.message}`;
  console.error(e);
});
