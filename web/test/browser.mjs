// The web table in a real browser (Debian's Chromium, driven by playwright-core): the page from
// static files and from `dbcore serve --http`, a game against the computer from its pre-battle,
// an element dragged, a refused drag's message, a combat with its odds, a golden record scrubbed
// to its verdict, hostile files, a panic inside the referee; after each step the table drawn in
// the page is compared with the referee's own state, and a screenshot is saved.
//
//   node web/test/browser.mjs --out DIR --cli PATH/TO/dbcore [--bench]
//
// Prints one line a check and ends with "N passed, N failed".

import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { readFile, mkdir, writeFile, stat } from 'node:fs/promises';
import { join, dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '..');
const root = resolve(web, '..');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const out = resolve(opt('--out', join(root, 'target', 'web-test')));
const cli = opt('--cli', null);
const bench = args.includes('--bench');
const require = createRequire(opt('--modules', join(here, 'package.json')));
const { chromium } = require('playwright-core');

let passed = 0;
let failed = 0;
const results = [];
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  const line = `${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`;
  results.push(line);
  console.log(line);
}

// ---- A static server for web/ --------------------------------------------------------------------

const TYPES = { '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.ts': 'text/plain' };

function staticServer() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = resolve(web, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(web)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

function startCli() {
  return new Promise((ok, fail) => {
    const child = spawn(cli, ['serve', '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const m = text.match(/"listening":"(http:\/\/[^"]+)\/rpc"/);
      if (m) ok({ child, base: `${m[1]}/` });
    });
    child.on('error', fail);
    setTimeout(() => fail(new Error(`dbcore serve printed no address: ${text}`)), 15000);
  });
}

// ---- Helpers in the page -------------------------------------------------------------------------

let shot = 0;
async function snap(page, name) {
  shot += 1;
  const file = join(out, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Compare every element drawn with the referee's scene: the same ids, where it says. */
async function tableMatches(page, label) {
  const r = await page.evaluate(() => {
    const app = window.dbcoreApp;
    const scene = app.replay ? app.scene : app.game.scene();
    const inPlay = scene.elements.filter((e) => e.corners && e.status.status === 'in_play');
    const drawn = [...document.querySelectorAll('#table .el')];
    const problems = [];
    if (drawn.length !== inPlay.length) problems.push(`${drawn.length} drawn, ${inPlay.length} in play`);
    for (const e of inPlay) {
      const n = document.querySelector(`#table .el[data-id="${e.id}"]`);
      if (!n) {
        problems.push(`#${e.id} not drawn`);
        continue;
      }
      const same = (a, b) => Math.abs(Number(a) - b) < 1e-9;
      if (!same(n.dataset.x, e.pose.x) || !same(n.dataset.y, e.pose.y) || !same(n.dataset.facing, e.pose.facing)) {
        problems.push(`#${e.id} drawn at ${n.dataset.x},${n.dataset.y} not ${e.pose.x},${e.pose.y}`);
      }
    }
    const info = app.replay ? app.info : app.game.info();
    return { problems, revision: info.revision, elements: inPlay.length };
  });
  check(`the table matches the referee (${label})`, r.problems.length === 0, r.problems.slice(0, 3).join('; ') || `${r.elements} elements, revision ${r.revision}`);
  return r;
}

const info = (page) => page.evaluate(() => window.dbcoreApp.game.info());

/** The client point of a board point (BW). */
async function clientPoint(page, p) {
  return page.evaluate(({ x, y }) => {
    const svg = document.getElementById('table');
    const { scale, margin } = window.dbcoreApp.scene.frame;
    const depth = window.dbcoreApp.scene.board.depth;
    const pt = svg.createSVGPoint();
    pt.x = (x + margin) * scale;
    pt.y = (depth - y + margin) * scale;
    const q = pt.matrixTransform(svg.getScreenCTM());
    return { x: q.x, y: q.y };
  }, p);
}

async function dragBy(page, from, to, { release = true, steps = 8 } = {}) {
  const a = await clientPoint(page, from);
  const b = await clientPoint(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps });
  await page.waitForTimeout(120); // a frame for the referee's answer to be drawn
  if (release) await page.mouse.up();
}

async function openFile(page, name, content) {
  const file = join(out, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  await page.setInputFiles('#open', file);
  await page.waitForTimeout(300);
}

async function clickText(page, text) {
  await page.locator('#decision button', { hasText: text }).first().click();
}

async function until(page, fn, arg, timeout = 20000) {
  await page.waitForFunction(fn, arg, { timeout, polling: 50 });
}

// ---- The steps -----------------------------------------------------------------------------------

async function loadPage(browser, url, label) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const wall = Date.now() - t0;
  const t = await page.evaluate(() => window.dbcoreApp.timings);
  check(`the page loads from ${label}`, errors.length === 0, errors.join('; ') || `ready to play ${t.ready.toFixed(0)} ms after navigation began (the referee compiled and started in ${t.load.toFixed(0)} ms; ${wall} ms as the test runner saw it)`);
  return { page, errors, wall, timings: t };
}

async function playAgainstComputer(page) {
  // A new game: the Romans (a person) against the Ancient British (the computer).
  await page.click('#new-game');
  await page.fill('input[name=army0]', 'II/56');
  await page.fill('input[name=army1]', 'Ancient Britsh');
  await page.waitForTimeout(100);
  const suggestion = await page.textContent('#lookup1');
  check('a misspelt army gets the referee\'s suggestion', /did you mean II\/53/.test(suggestion), suggestion);
  await page.fill('input[name=army1]', 'Ancient British');
  await page.selectOption('select[name=who0]', 'person');
  await page.selectOption('select[name=who1]', 'computer');
  await page.fill('input[name=seed]', '7');
  await snap(page, 'new-game');
  await page.click('#setup-start');
  await until(page, () => window.dbcoreApp.info.stage === 'prebattle');
  await snap(page, 'prebattle-start');
  // The pre-battle: the person rolls, places and deploys by clicking; the computer its own.
  let clicks = 0;
  let deployedByClick = false;
  for (let i = 0; i < 400; i += 1) {
    await until(page, () => {
      const a = window.dbcoreApp;
      return a.info.stage !== 'prebattle' || !document.querySelector('#decision').textContent.includes('The computer is choosing');
    });
    const now = await page.evaluate(() => window.dbcoreApp.info);
    if (now.stage !== 'prebattle') break;
    const a = now.awaiting;
    if (a.for === 'aggression_dice' || a.for === 'placement_die') {
      await clickText(page, 'Roll');
    } else if (a.for === 'quarter') {
      await page.locator('#table .quarter').first().dispatchEvent('pointerdown');
    } else if (a.for === 'base_edge') {
      await page.locator('#table .edge').first().dispatchEvent('pointerdown');
    } else if (a.for === 'deployment' && !deployedByClick) {
      // Pick the first element of the tray, then click where the computer would put it.
      const suggested = await page.evaluate(() => window.dbcoreApp.game.call('legal_actions').actions.find((x) => x.action === 'deploy'));
      await page.locator(`#decision .tray button[data-id="${suggested.id}"]`).click();
      const p = await clientPoint(page, suggested.pose);
      await page.mouse.move(p.x, p.y - 3);
      await page.mouse.move(p.x, p.y);
      await page.waitForTimeout(50);
      await snap(page, 'deploying-by-hand');
      await page.mouse.down();
      await page.mouse.up();
      await page.waitForTimeout(50);
      const placed = await page.evaluate((id) => window.dbcoreApp.game.scene().elements.find((e) => e.id === id).pose, suggested.id);
      check('an element is deployed by clicking on the table', placed !== null, placed ? `#${suggested.id} at ${placed.x.toFixed(2)},${placed.y.toFixed(2)}` : 'not placed');
      deployedByClick = true;
      await tableMatches(page, 'after deploying by hand');
      await clickText(page, 'The computer deploys the rest');
    } else {
      await clickText(page, 'Let the computer do this');
    }
    clicks += 1;
  }
  await until(page, () => window.dbcoreApp.info.stage === 'battle' && !document.querySelector('#decision').textContent.includes('The computer is choosing'), null, 60000);
  check('the pre-battle is played to the battle', true, `${clicks} decisions by the person`);
  await snap(page, 'battle-begins');
  await tableMatches(page, 'the battle begins');
  // The person's bound: roll the PIPs, then move by dragging.
  const now = await info(page);
  if (now.awaiting && now.awaiting.for === 'pips') await clickText(page, 'Roll');
  await until(page, () => window.dbcoreApp.info.phase.phase === 'movement' && window.dbcoreApp.info.army === 0);
  const pick = await page.evaluate(() => {
    const app = window.dbcoreApp;
    for (const e of app.scene.elements.filter((x) => x.army === 0 && x.corners)) {
      const d = app.game.call('destinations', { element: e.id }).destinations;
      const step = d.find((x) => x.order === 'element' && !x.into_contact && x.movers.length === 1);
      if (step) return { e, to: step.movers[0].to, text: step.text };
    }
    return null;
  });
  check('an element of the person has a step to make', pick !== null, pick?.text);
  // Click it: its destinations are drawn, timed.
  const centre = { x: pick.e.pose.x - Math.sin((pick.e.pose.facing * Math.PI) / 180) * 0.25, y: pick.e.pose.y - Math.cos((pick.e.pose.facing * Math.PI) / 180) * 0.25 };
  const c = await clientPoint(page, centre);
  await page.mouse.click(c.x, c.y);
  await page.waitForTimeout(100);
  const ghosts = await page.locator('#table .ghost').count();
  const ms = await page.evaluate(() => window.dbcoreApp.timings.destinations);
  check('a click draws where the element may go', ghosts > 0 && typeof ms === 'number', `${ghosts} outlines in ${Number(ms).toFixed(1)} ms`);
  await snap(page, 'destinations');
  // Drag it to the step's end: the drop snaps to what the referee accepts.
  const before = (await info(page)).revision;
  const delta = { x: pick.to.x - pick.e.pose.x, y: pick.to.y - pick.e.pose.y };
  await dragBy(page, centre, { x: centre.x + delta.x, y: centre.y + delta.y }, { release: false });
  await snap(page, 'dragging');
  await page.mouse.up();
  await page.waitForTimeout(100);
  const moved = await page.evaluate((id) => window.dbcoreApp.game.scene().elements.find((e) => e.id === id).pose, pick.e.id);
  const after = (await info(page)).revision;
  check('dragging an element moves it where the referee accepts', after === before + 1 && Math.hypot(moved.x - pick.e.pose.x, moved.y - pick.e.pose.y) > 0.1,
    `#${pick.e.id} from ${pick.e.pose.x.toFixed(2)},${pick.e.pose.y.toFixed(2)} to ${moved.x.toFixed(2)},${moved.y.toFixed(2)}`);
  await snap(page, 'dragged');
  await tableMatches(page, 'after the drag');
  // A refused drag: far off the table. The message says why, with its rule, and nothing moves.
  const other = await page.evaluate((id) => {
    const app = window.dbcoreApp;
    return app.scene.elements.find((x) => x.army === 0 && x.corners && x.id !== id) || null;
  }, pick.e.id);
  const r0 = (await info(page)).revision;
  const oc = { x: other.pose.x, y: other.pose.y - 0.2 };
  await dragBy(page, oc, { x: oc.x + 6, y: oc.y + 0.1 }, { release: false });
  const message = await page.textContent('#message');
  await snap(page, 'refused-while-dragging');
  await page.mouse.up();
  await page.waitForTimeout(100);
  const r1 = (await info(page)).revision;
  check('a refused drag shows the refusal and its rule', /§/.test(message) && r1 === r0, message.trim().slice(0, 160));
  await tableMatches(page, 'after the refused drag');
  // End the bound: the computer plays its own.
  await page.keyboard.press('m');
  await until(page, () => window.dbcoreApp.info.army === 0 || window.dbcoreApp.info.stage === 'finished', null, 60000);
  await snap(page, 'computer-bound-played');
  await tableMatches(page, 'after the computer\'s bound');
  // Save: the download is the game record, and the referee reads it back.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  const saved = join(out, 'saved.dbcore-game.json');
  await download.saveAs(saved);
  const record = JSON.parse(await readFile(saved, 'utf8'));
  const replays = await page.evaluate((r) => {
    try {
      return window.dbcoreApp.game.constructor && new (window.dbcoreApp.game.constructor)({ game: r }).info().revision;
    } catch (e) {
      return e.message;
    }
  }, record);
  check('Save writes a game record that replays', record.format === 'dbcore-game' && replays === (await info(page)).revision, `${record.format}, ${replays} actions`);
  return saved;
}

/**
 * A whole battle played by clicking, a person at each side: the PIP dice rolled from the tray (the
 * first typed in), elements clicked and their drawn destinations clicked, combats and shots
 * clicked in the panel, until the verdict. Then the last action is undone and played again, the
 * game saved, the page reloaded and the saved file opened; the `dbcore` program replays the same
 * file to the same verdict.
 */
async function wholeGameByClicking(page) {
  await page.click('#new-game');
  await page.check('input[name=demo]');
  await page.selectOption('select[name=who0]', 'person');
  await page.selectOption('select[name=who1]', 'person');
  await page.fill('input[name=seed]', '3');
  await page.click('#setup-start');
  await until(page, () => window.dbcoreApp.info.stage === 'battle' && window.dbcoreApp.info.revision === 0);
  const t0 = Date.now();
  let clicks = 0;
  let typed = false;
  let snapped = false;
  for (let step = 0; step < 3000; step += 1) {
    const now = await page.evaluate(() => window.dbcoreApp.info);
    if (now.stage === 'finished') break;
    if (now.bound > 80) break;
    const a = now.awaiting;
    if (a && a.for === 'pips') {
      if (!typed) {
        await page.fill('#decision input[aria-label="die 1"]', '6');
        await clickText(page, 'Use these');
        const pips = await page.evaluate(() => window.dbcoreApp.info.pips);
        check('typed dice are the dice used', pips === 6, `${pips} PIPs from a typed 6`);
        typed = true;
      } else {
        await clickText(page, 'Roll');
      }
      clicks += 1;
      continue;
    }
    const phase = now.phase.phase;
    if (phase === 'movement') {
      // The test's own choice of what to click: the element whose drawn destination ends
      // nearest an enemy (a contact first), at most two moves a bound.
      const choice = now.pips > 0 && (await page.evaluate(() => {
        const app = window.dbcoreApp;
        const moved = (app.movedThisBound ||= { bound: -1, n: 0 });
        if (moved.bound !== app.info.bound) Object.assign(moved, { bound: app.info.bound, n: 0 });
        if (moved.n >= 2) return null;
        const enemies = app.scene.elements.filter((e) => e.army !== app.info.army && e.corners && e.status.status === 'in_play');
        let best = null;
        for (const e of app.scene.elements.filter((x) => x.army === app.info.army && x.corners && x.status.status === 'in_play')) {
          const d = app.game.call('destinations', { element: e.id }).destinations;
          d.forEach((x, i) => {
            const to = x.movers.find((m) => m.id === e.id)?.to;
            if (!to) return;
            const gap = Math.min(...enemies.map((n) => Math.hypot(n.pose.x - to.x, n.pose.y - to.y))) - (x.into_contact ? 100 : 0);
            if (!best || gap < best.gap) best = { id: e.id, pose: e.pose, index: i, gap };
          });
        }
        if (best) moved.n += 1;
        return best;
      }));
      if (choice) {
        const f = (choice.pose.facing * Math.PI) / 180;
        const c = await clientPoint(page, { x: choice.pose.x - Math.sin(f) * 0.2, y: choice.pose.y - Math.cos(f) * 0.2 });
        await page.mouse.click(c.x, c.y);
        await page.locator(`#table .ghost[data-index="${choice.index}"]`).first().dispatchEvent('pointerdown');
        clicks += 2;
        if (!snapped && (await page.evaluate(() => window.dbcoreApp.info.bound)) >= 4) {
          await snap(page, 'whole-game-midway');
          snapped = true;
        }
      } else {
        await clickText(page, 'End movement');
        clicks += 1;
      }
      continue;
    }
    if (phase === 'shooting' || phase === 'close_combat') {
      await page.locator('#decision .choices button', { hasText: 'seeded dice' }).first().click();
      clicks += 1;
      continue;
    }
    throw new Error(`nothing to click for ${JSON.stringify(now)}`);
  }
  const end = await page.evaluate(() => window.dbcoreApp.info);
  check('a whole battle is played by clicking to its verdict', end.stage === 'finished' && end.winners,
    `${clicks} clicks, ${end.bound} bounds, ${end.revision} actions in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${end.winners?.map((i) => end.armies[i]).join(', ')} won`);
  await snap(page, 'whole-game-verdict');
  await tableMatches(page, 'at the verdict of the clicked game');
  // Undo the last action (the verdict goes), then play it again from the panel.
  await page.click('#undo');
  const undone = await page.evaluate(() => window.dbcoreApp.info);
  check('Undo takes back the deciding action', undone.stage === 'battle' && undone.revision === end.revision - 1, `revision ${undone.revision}, ${undone.phase.phase}`);
  await tableMatches(page, 'after the undo');
  await snap(page, 'whole-game-undone');
  // The deciding action was a fight or a shot whose dice the tray rolled: the same tray rolls
  // the same dice again after an undo.
  for (let i = 0; i < 20; i += 1) {
    const now = await page.evaluate(() => window.dbcoreApp.info);
    if (now.stage === 'finished') break;
    if (now.phase.phase === 'shooting' || now.phase.phase === 'close_combat') {
      await page.locator('#decision .choices button', { hasText: 'seeded dice' }).first().click();
    } else if (now.awaiting) {
      await clickText(page, 'Roll');
    } else {
      await clickText(page, 'End movement');
    }
  }
  const redone = await page.evaluate(() => window.dbcoreApp.info);
  check('the game is decided again after the undo', redone.stage === 'finished', `${redone.revision} actions, winners ${JSON.stringify(redone.winners)}`);
  // Save, reload the page, open the saved file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  const saved = join(out, 'whole-game.dbcore-game.json');
  await download.saveAs(saved);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.setInputFiles('#open', saved);
  await page.waitForSelector('#replay:not([hidden])');
  const reopened = await page.evaluate(() => window.dbcoreApp.info);
  check('the saved game, opened after a reload, is at its verdict', reopened.stage === 'finished' && reopened.revision === redone.revision
    && JSON.stringify(reopened.winners) === JSON.stringify(redone.winners), `revision ${reopened.revision}`);
  await tableMatches(page, 'the saved game reopened');
  await snap(page, 'whole-game-reopened');
  if (cli) {
    const replayed = await new Promise((ok) => {
      const child = spawn(cli, ['replay', saved, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      let err = '';
      child.stdout.on('data', (d) => { text += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.on('close', (code) => ok({ code, text, err }));
    });
    const lines = replayed.text.trim().split('\n');
    const won = lines.length ? JSON.parse(lines[lines.length - 1]) : {};
    check('`dbcore replay` reads the saved file to the same verdict', replayed.code === 0 && won.event === 'battle_won'
      && JSON.stringify([won.verdict.winner]) === JSON.stringify(redone.winners), `${replayed.err.trim().slice(0, 160) || lines[lines.length - 1]}`);
  }
  await page.click('#replay-close');
}

async function fightCombat(page) {
  // The into_contact golden game, cut before its fight: opened, played on, fought.
  const golden = JSON.parse(await readFile(join(root, 'tests', 'golden', 'into_contact.json'), 'utf8'));
  const cut = { ...golden.game, actions: golden.game.actions.slice(0, 3) };
  delete cut.result;
  await openFile(page, 'before-the-fight.json', cut);
  await page.click('#replay-play-on');
  await until(page, () => window.dbcoreApp.info.phase.phase === 'close_combat');
  await page.waitForSelector('#odds table');
  const odds = await page.textContent('#odds');
  check('the odds of the combat are shown before it is fought', /wins/.test(odds) && /\/36/.test(odds), odds.replace(/\s+/g, ' ').slice(0, 120));
  await snap(page, 'combat-odds');
  const r0 = (await info(page)).revision;
  await page.locator('#decision button', { hasText: 'fight' }).first().click();
  await page.waitForTimeout(150);
  const after = await page.evaluate(() => ({
    revision: window.dbcoreApp.game.info().revision,
    log: document.getElementById('log').textContent,
    marks: document.querySelectorAll('#table .mark-move, #table .mark-lost').length,
    dice: document.getElementById('dice').textContent,
  }));
  check('a combat is fought: its result told, its recoil marked', after.revision > r0 && /combat:/.test(after.log) && after.marks > 0,
    `${after.marks} marks, ${after.dice}`);
  await snap(page, 'combat-result');
  await tableMatches(page, 'after the combat');
}

async function scrubGolden(page) {
  const golden = JSON.parse(await readFile(join(root, 'tests', 'golden', 'whole_game_I_2a_v_I_6a.json'), 'utf8'));
  await openFile(page, 'whole_game_I_2a_v_I_6a.json', golden);
  await page.waitForSelector('#replay:not([hidden])');
  // Scrub from the start to the verdict, bound by bound, with the keyboard.
  await page.evaluate(() => { document.activeElement?.blur(); });
  await page.fill('#scrubber', '0');
  await page.dispatchEvent('#scrubber', 'input');
  await snap(page, 'replay-start');
  const stops = Number(await page.getAttribute('#scrubber', 'max'));
  let mismatches = 0;
  for (let i = 0; i < stops; i += 1) {
    await page.keyboard.press('ArrowRight');
    const r = await page.evaluate(() => {
      const app = window.dbcoreApp;
      const drawn = document.querySelectorAll('#table .el').length;
      const inPlay = app.scene.elements.filter((e) => e.corners && e.status.status === 'in_play').length;
      return drawn === inPlay;
    });
    if (!r) mismatches += 1;
    if (i === Math.floor(stops / 2)) await snap(page, 'replay-midway');
  }
  const verdict = await page.textContent('#decision');
  const where = await page.textContent('#replay-where');
  check('a golden record is scrubbed to its verdict', /won/.test(verdict) && /verdict/.test(where) && mismatches === 0, `${stops} stops; ${verdict.trim()}`);
  await snap(page, 'replay-verdict');
  await tableMatches(page, 'at the verdict');
  // The page's replay agrees with the record's own result.
  check('the verdict is the record\'s', JSON.stringify(golden.game.result.winners) === JSON.stringify(await page.evaluate(() => window.dbcoreApp.info.winners)));
}

async function hostile(page) {
  // Both sides the person's, so that nothing moves while the files are opened.
  await page.evaluate(() => { window.dbcoreApp.players = [{ who: 'person' }, { who: 'person' }]; });
  await page.click('#replay-close');
  const before = await page.evaluate(() => ({ r: window.dbcoreApp.game.info().revision, t: document.getElementById('table').innerHTML.length }));
  const cases = [
    ['not JSON', 'not-json.json', 'this is not { json'],
    ['not a game record', 'not-a-record.json', { hello: 'world' }],
    ['a record that does not replay', 'bad-record.json', (() => ({ format: 'dbcore-game', version: 1, game: 'dba', setup: JSON.parse(JSON.stringify(before)) && null, actions: [] }))()],
    ['a set-up over the limits', 'huge-setup.json', null],
  ];
  // A record whose second action is refused, and a set-up with a board far over the limits.
  const golden = JSON.parse(await readFile(join(root, 'tests', 'golden', 'into_contact.json'), 'utf8'));
  const broken = JSON.parse(JSON.stringify(golden.game));
  broken.actions[1] = { action: 'move', order: { type: 'element', id: 2, path: [{ x: 7.5, y: 40, facing: 0 }] } };
  delete broken.result;
  cases[2][2] = broken;
  const huge = JSON.parse(JSON.stringify(golden.game.setup));
  huge.battlefield.board = { width: 1e9, depth: 1e9 };
  cases[3][2] = huge;
  for (const [label, name, content] of cases) {
    await openFile(page, name, content);
    const r = await page.evaluate(() => ({
      message: document.getElementById('message').textContent,
      r: window.dbcoreApp.game.info().revision,
      t: document.getElementById('table').innerHTML.length,
      replay: !document.getElementById('replay').hidden,
    }));
    check(`hostile input: ${label} gets a clear message and changes nothing`, r.message.length > 10 && r.r === before.r && r.t === before.t && !r.replay, r.message.trim().slice(0, 150));
    await snap(page, `hostile-${name.replace('.json', '')}`);
  }
  // A panic inside the referee: an InternalError, and the game goes on where it was.
  const p = await page.evaluate(async () => {
    const mod = await import('./pkg/dbcore.js');
    const app = window.dbcoreApp;
    const r0 = app.game.info().revision;
    let error = null;
    try {
      mod.panicForTest();
    } catch (e) {
      error = { name: e.name, code: e.code, message: e.message };
    }
    const r1 = app.game.info().revision;
    const legal = app.game.call('legal_actions').actions.length;
    return { error, r0, r1, legal };
  });
  check('a panic inside the referee is an InternalError and the game goes on', p.error?.name === 'InternalError' && p.error.code === 900 && p.r0 === p.r1 && p.legal > 0,
    `${p.error?.message?.slice(0, 120)}`);
}

async function benchmarks(page, loaded) {
  const numbers = await page.evaluate(async () => {
    const { Game } = await import('./pkg/dbcore.js');
    const out = {};
    // The computer's move at its default strength, from the demonstration set-up in movement.
    const g = new Game({ demo: 'battle', seed: 11 });
    g.apply(g.legalActions()[0]);
    let t = performance.now();
    const n = 5;
    for (let i = 0; i < n; i += 1) g.call('ai');
    out.aiMoveMs = (performance.now() - t) / n;
    // Whole demonstration battles, driver against driver, as fast as possible.
    t = performance.now();
    let battles = 0;
    while (performance.now() - t < 8000 || battles < 2) {
      const b = new Game({ demo: 'battle', seed: battles + 1 });
      for (let i = 0; i < 20000; i += 1) {
        if (b.info().stage === 'finished') break;
        b.apply(b.call('driver').action);
      }
      b.free();
      battles += 1;
    }
    out.battlesPerSecond = battles / ((performance.now() - t) / 1000);
    return out;
  });
  console.log(`BENCH ready ${loaded.timings.ready.toFixed(0)} ms after navigation; ai move ${numbers.aiMoveMs.toFixed(1)} ms; demo battles ${numbers.battlesPerSecond.toFixed(2)}/s`);
  return numbers;
}

/**
 * A set-up of `perSide` elements a side in rows of 32 on a 60 x 40 board (a scenario: its own
 * army sizes), the two lines 20 paces or more apart: for timing destinations at 96 a side, more
 * than any golden table holds.
 */
async function crowdedSetup(perSide) {
  const golden = JSON.parse(await readFile(join(root, 'tests', 'golden', 'into_contact.json'), 'utf8'));
  const setup = JSON.parse(JSON.stringify(golden.game.setup));
  setup.battlefield = { board: { width: 60, depth: 40 }, features: [] };
  setup.free_army_size = true;
  const kinds = ['4Bd', '4Sp', '3Kn', 'LH', 'Ps', '4Bw'];
  let id = 1;
  setup.armies = setup.armies.map((a, side) => ({
    ...a,
    elements: Array.from({ length: perSide }, (_, i) => {
      const row = Math.floor(i / 32);
      const col = i % 32;
      return {
        id: id++,
        kind: kinds[(i + row) % kinds.length],
        pose: { x: 10 + col * 1.25, y: side === 0 ? 4 + row * 2.5 : 36 - row * 2.5, facing: side === 0 ? 0 : 180 },
        general: i === 0,
        contingent: null,
        dismounts_as: null,
      };
    }),
  }));
  return { setup, seed: 3 };
}

/** Destinations timed and drawn: on the largest golden table (Giant, after its pre-battle) and at 96 a side. */
async function bigDestinations(page) {
  const golden = JSON.parse(await readFile(join(root, 'tests', 'golden', 'giant_game_II_56_v_II_53.json'), 'utf8'));
  const record = { ...golden.game, actions: [] };
  delete record.result;
  await timeDestinations(page, { game: record }, 'Giant');
  await timeDestinations(page, await crowdedSetup(96), 'a scenario set-up');
}

async function timeDestinations(page, how, label) {
  const times = await page.evaluate(async (how) => {
    const { Game } = await import('./pkg/dbcore.js');
    const g = new Game(how);
    while (g.info().awaiting) g.apply(g.legalActions()[0]);
    const scene = g.scene();
    const army = g.info().army;
    const mine = scene.elements.filter((e) => e.army === army && e.corners);
    const svg = document.getElementById('table');
    const { scale, margin } = scene.frame;
    const ms = [];
    for (const e of mine.slice(0, 24)) {
      const t0 = performance.now();
      const d = g.call('destinations', { element: e.id }).destinations;
      const layer = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      for (const x of d) for (const m of x.movers) {
        const p = document.createElementNS('http://www.w3.org/2000/svg', 'polygon');
        p.setAttribute('points', m.corners.map((c) => `${(c.x + margin) * scale},${(scene.board.depth - c.y + margin) * scale}`).join(' '));
        layer.appendChild(p);
      }
      svg.appendChild(layer);
      svg.getBoundingClientRect();
      ms.push(performance.now() - t0);
      layer.remove();
    }
    g.free();
    return { ms, perSide: mine.length, elements: scene.elements.length };
  }, how);
  const sorted = [...times.ms].sort((a, b) => a - b);
  console.log(`BENCH destinations drawn at ${times.perSide} elements a side (${label}): median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
}

async function main() {
  await mkdir(out, { recursive: true });
  const server = await staticServer();
  const staticUrl = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let served = null;
  try {
    const first = await loadPage(browser, staticUrl, 'static files');
    const page = first.page;
    await snap(page, 'static-page-loaded');
    await tableMatches(page, 'the page opens');
    await playAgainstComputer(page);
    await wholeGameByClicking(page);
    await fightCombat(page);
    await scrubGolden(page);
    await hostile(page);
    // A phone's width: everything still in one readable column.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#replay-close').catch(() => {});
    const narrow = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    check('the page reads at a phone\'s width without sideways scrolling', narrow);
    await snap(page, 'phone-width');
    if (bench) {
      await benchmarks(page, first);
      await bigDestinations(page);
    }
    await page.close();
    if (cli) {
      served = await startCli();
      const second = await loadPage(browser, served.base, '`dbcore serve --http`');
      const r = await second.page.evaluate(async () => {
        const health = await fetch('/health').then((x) => x.json());
        return { health: health.status, wasm: document.body.dataset.ready };
      });
      check('the served page runs the referee in the page, beside the HTTP door', r.health === 'ok' && r.wasm === 'true');
      await snap(second.page, 'served-page-loaded');
      await tableMatches(second.page, 'served by dbcore serve --http');
      await second.page.close();
    }
  } catch (e) {
    check('the browser steps ran to their end', false, e.stack?.split('\n').slice(0, 3).join(' | '));
  } finally {
    await browser.close();
    server.close();
    served?.child.kill();
  }
  await writeFile(join(out, 'results.txt'), `${results.join('\n')}\n`);
  console.log(`screenshots and results in ${out}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
