// The side panel: where the game stands, what the person is asked now (the referee's own
// request, with its legal choices as buttons), the odds of a fight or a shot, the dice and the
// narration.

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'on') for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (k === 'class') e.className = v;
    // Through the CSSOM, which the served page's policy (style-src 'self') allows.
    else if (k === 'style') Object.assign(e.style, v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function words(tag) {
  return String(tag).replaceAll('_', ' ');
}

function armySwatch(scene, i) {
  return h('span', { class: 'army', style: { background: scene?.armies?.[i]?.colour || '#777' } });
}

/** The line above the decision: bound, side to move, phase, PIPs. */
export function status(node, info, scene) {
  node.replaceChildren();
  const name = (i) => info.armies[i] ?? `army ${i}`;
  if (info.stage === 'prebattle') {
    node.append('Pre-battle', info.awaiting ? ` · ${words(info.awaiting.for)}` : '');
    if (info.awaiting && typeof info.awaiting.army === 'number') {
      node.append(h('br'), armySwatch(scene, info.awaiting.army), name(info.awaiting.army));
    }
    return;
  }
  if (info.stage === 'finished') {
    const w = info.winners || [];
    node.append(`Bound ${info.bound} · the battle is over: `, w.length ? w.map(name).join(', ') + ' won' : 'no winner');
    return;
  }
  node.append(
    `Bound ${info.bound} · `,
    armySwatch(scene, info.army),
    `${name(info.army)} · ${words(info.phase.phase)}`,
    info.phase.phase === 'movement' ? ` · ${info.pips} PIP${info.pips === 1 ? '' : 's'} left` : '',
  );
}

/** The last throws: `[{label, dice}]`, each die drawn as a face. */
export function dice(node, throws) {
  node.replaceChildren(h('h2', {}, 'Dice'), ...throws.map((t) => h('p', { class: 'throw' },
    h('span', { class: 'what' }, t.label), ...t.dice.map((d) => h('span', { class: 'die', 'aria-label': `die ${d}` }, d)))));
}

export function appendLog(list, lines) {
  for (const line of lines) {
    if (!line) continue;
    list.append(h('li', { class: line.startsWith('--') ? 'bound' : '' }, line.replace(/^-- /, '')));
  }
  list.scrollTop = list.scrollHeight;
}

/** The odds of a combat or shot before it is fought: each result's chance out of 36. */
export function odds(node, o, a, b) {
  node.replaceChildren();
  const total = o.outcomes.reduce((s, x) => s + x.count, 0) || 36;
  const pct = (n) => `${((100 * n) / total).toFixed(1)}%`;
  const m = o.margins;
  node.append(
    h('h2', {}, `Odds: ${a} (+${o.a_factor}) v ${b} (+${o.b_factor})`),
    h('p', {}, `${a} wins ${pct(m.a_won + m.a_doubled_b)} (doubles ${pct(m.a_doubled_b)}), ties ${pct(m.tied)}, ${b} wins ${pct(m.b_won + m.b_doubled_a)} (doubles ${pct(m.b_doubled_a)})`),
  );
  const rows = o.outcomes.map((x) => h('tr', {},
    h('td', {}, `${a} ${words(x.a)}, ${b} ${words(x.b)}`),
    h('td', { class: 'n' }, `${x.count}/${total}`),
    h('td', {}, h('span', { class: 'bar', style: { width: `${(4 * x.count) / total}rem` } }))));
  node.append(h('table', {}, ...rows));
}

function diceInputs(n, go, label = 'Type the dice thrown') {
  const inputs = Array.from({ length: n }, (_, i) => h('input', { type: 'number', min: 1, max: 6, 'aria-label': `die ${i + 1}` }));
  return h('div', { class: 'row' }, `${label}:`, ...inputs,
    h('button', { type: 'button', on: { click: () => go(inputs.map((x) => Number(x.value))) } }, 'Use these'));
}

/** How many dice the awaited roll takes. */
function diceWanted(a) {
  if (!a) return 0;
  switch (a.for) {
    case 'aggression_dice': return a.armies;
    case 'command_pips': return a.commands?.length ?? 3;
    case 'shot':
    case 'combat': return 2;
    default: return 1;
  }
}

/** Ask the person for what the referee awaits. */
export function ask(node, app, act) {
  node.replaceChildren();
  const info = app.info;
  const game = app.game;
  const a = info.awaiting;
  const computer = h('button', { type: 'button', title: 'C', on: { click: () => act.computer() } }, 'Let the computer do this');
  const rollButton = (label = 'Roll') => h('button', { type: 'button', class: 'primary', title: 'R', on: { click: () => act.roll(null) } }, `${label} (seeded dice)`);
  if (info.stage === 'prebattle') {
    const { actions } = game.call('legal_actions');
    switch (a.for) {
      case 'aggression_dice':
      case 'placement_die':
        node.append(h('p', {}, a.for === 'placement_die' ? `The placement die for the ${words(a.feature)}.` : 'Each army throws its aggression die.'),
          h('div', { class: 'choices' }, rollButton(), computer), diceInputs(diceWanted(a), act.roll));
        return;
      case 'features':
        node.append(h('p', {}, `The defender chooses its terrain (home: ${words(a.home_terrain)}). The referee offers:`),
          h('div', { class: 'choices' }, ...actions.map((x) => h('button', { type: 'button', on: { click: () => act.apply(x) } },
            [...x.compulsory, ...x.optional].map(words).join(', '))), computer));
        return;
      case 'quarter':
        node.append(h('p', {}, `Choose the quarter of the ${words(a.feature)}: click it on the table, or`),
          h('div', { class: 'choices' }, ...actions.map((x) => h('button', { type: 'button', on: { click: () => act.apply(x) } }, `quarter ${x.quarter}`)), computer));
        return;
      case 'placement':
      case 'camp': {
        const placed = actions.filter((x) => x.action === 'place_feature' || x.action === 'place_camp');
        const polys = placed.map((x) => (x.action === 'place_camp' ? x.outline.points : outlineOf(x.feature)));
        act.candidates(placed, polys);
        const others = actions.filter((x) => !placed.includes(x));
        node.append(h('p', {}, a.for === 'camp'
          ? `Pitch the camp${a.compulsory ? ' (it must have one)' : ''}: click an outline on the table, or`
          : `Lay the ${words(a.feature)} in quarter ${a.quarter}: click an outline on the table, or`),
        h('div', { class: 'choices' }, ...placed.map((x, i) => h('button', { type: 'button', on: { click: () => act.apply(x) } }, `outline ${i + 1}`)),
          ...others.map((x) => h('button', { type: 'button', on: { click: () => act.apply(x) } }, words(x.action))), computer));
        return;
      }
      case 'base_edge':
        node.append(h('p', {}, 'The invader chooses its base edge: click an edge of the table, or'),
          h('div', { class: 'choices' }, ...a.allowed.map((edge) => h('button', { type: 'button', on: { click: () => act.apply({ action: 'choose_base_edge', edge }) } }, edge)), computer));
        return;
      case 'deployment': {
        const byId = new Map(app.scene.elements.map((e) => [e.id, e]));
        const tray = h('div', { class: 'tray' }, ...a.remaining.map((id) => {
          const e = byId.get(id);
          return h('button', { type: 'button', 'data-id': id, on: { click: (ev) => {
            for (const b of tray.children) b.classList.remove('chosen');
            ev.currentTarget.classList.add('chosen');
            act.place(id);
          } } }, e ? `${e.kind} #${id}${e.general ? ' (gen.)' : ''}` : `#${id}`);
        }));
        const end = actions.find((x) => x.action === 'end_deployment');
        const suggested = actions.find((x) => x.action === 'deploy');
        node.append(h('p', {}, 'Deploy: pick an element, then click on the table where its front edge goes (Q/E turn it).'), tray,
          h('div', { class: 'choices' },
            suggested ? h('button', { type: 'button', on: { click: () => act.apply(suggested) } }, `Deploy #${suggested.id} where the computer would`) : '',
            h('button', { type: 'button', on: { click: () => act.deployRest() } }, 'The computer deploys the rest'),
            end ? h('button', { type: 'button', class: 'primary', on: { click: () => act.apply(end) } }, 'End deployment') : ''));
        return;
      }
      default:
        node.append(h('p', {}, `The referee awaits: ${words(a.for)}.`),
          h('div', { class: 'choices' }, ...actions.map((x) => h('button', { type: 'button', on: { click: () => act.apply(x) } }, words(x.action))), computer));
        return;
    }
  }
  // The battle.
  if (a && (a.for === 'pips' || a.for === 'command_pips' || a.for === 'river')) {
    node.append(h('p', {}, a.for === 'river' ? 'Dice for the river.' : 'Roll the PIP dice.'),
      h('div', { class: 'choices' }, rollButton(), computer), diceInputs(diceWanted(a), act.roll));
    return;
  }
  const phase = info.phase.phase;
  if (phase === 'movement') {
    node.append(h('p', {}, 'Click one of your elements to see where it may go, shift-click to add a group; drag it (Q/E or the wheel turn it) and drop it where the referee accepts it.'),
      h('div', { class: 'choices' },
        h('button', { type: 'button', class: 'primary', title: 'M', on: { click: () => act.apply({ action: 'end_movement' }) } }, 'End movement'),
        computer));
    return;
  }
  if (phase === 'shooting' || phase === 'close_combat') {
    const { actions, texts } = game.call('legal_actions', { notation: true });
    const list = h('div', { class: 'choices' });
    let typed = null;
    actions.forEach((x, i) => {
      list.append(h('button', { type: 'button', on: {
        click: () => act.apply(x),
        focus: () => act.odds(x),
        mouseenter: () => act.odds(x),
      } }, `${texts[i].replace(/ dice \d \d$/, '')} (seeded dice)`));
    });
    if (actions[0]) act.odds(actions[0]);
    const pick = actions[0];
    if (pick) {
      typed = diceInputs(2, (d) => {
        const chosen = { ...pick, dice: d };
        act.apply(chosen);
      }, `Or type the dice for ${texts[0].replace(/ dice \d \d$/, '')}`);
    }
    node.append(h('p', {}, phase === 'shooting' ? 'Shots to make (the odds are shown before each):' : 'Combats to fight (the odds are shown before each):'),
      list, typed || '', h('div', { class: 'choices' }, computer));
    return;
  }
  node.append(h('div', { class: 'choices' }, computer));
}

/** A feature's outline to draw as a choice (an area's own outline; a road's or river's course). */
function outlineOf(feature) {
  const [kind] = Object.keys(feature);
  const f = feature[kind];
  if (f.outline) return f.outline.points;
  const line = f.path || f.course;
  if (line) {
    const back = [...line].reverse().map((p) => ({ x: p.x + 0.05, y: p.y + 0.05 }));
    return [...line, ...back];
  }
  return [];
}

export function waiting(node, info, scene, act) {
  node.replaceChildren(h('p', {}, 'The computer is choosing…'),
    h('button', { type: 'button', on: { click: act.stop } }, 'Stop the computer (play both sides)'));
}

export function finished(node, info, act) {
  const w = info.winners || [];
  node.replaceChildren(
    h('p', {}, w.length ? `${w.map((i) => info.armies[i]).join(', ')} won in bound ${info.bound}.` : 'The battle is over, with no winner.'),
    h('div', { class: 'choices' },
      h('button', { type: 'button', class: 'primary', on: { click: act.save } }, 'Save the game'),
      h('button', { type: 'button', on: { click: act.replay } }, 'Replay it')),
  );
}

export function replayDecision(node, info) {
  const w = info.winners || [];
  node.replaceChildren(h('p', {}, info.stage === 'finished'
    ? `The verdict: ${w.length ? `${w.map((i) => info.armies[i]).join(', ')} won` : 'no winner'} (bound ${info.bound}).`
    : 'Replay: scrub with the slider or ← →.'));
}

/** A line under the table saying what the person may do now. */
export function hintFor(info) {
  if (info.stage === 'prebattle') return info.awaiting ? `Pre-battle: ${words(info.awaiting.for)}.` : '';
  const p = info.phase.phase;
  if (p === 'movement') return 'Your move: click or Tab to an element of yours (Enter selects it); M ends the movement.';
  if (p === 'shooting' || p === 'close_combat') return 'Choose a shot or a combat in the panel: its odds are shown first.';
  return info.awaiting ? `Awaiting ${words(info.awaiting.for)}: R rolls the seeded dice.` : '';
}
