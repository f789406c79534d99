// The table drawn as SVG from the referee's `scene`, and the pointer and keys on it. This module
// only draws what it is given and reports what the player points at: where things may go, and
// whether they may, is always the referee's answer.

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** The readable name of an element: "4Bd #3". */
export function elementName(e) {
  return `${e.kind} #${e.id}`;
}

export class Board {
  /**
   * `svg` is the page's <svg>; `on` holds the callbacks: select(id, additive), drag(id, pose),
   * drop(id, pose), cancelDrag(id), pick(thing) for a destination, candidate, quarter or edge,
   * and point(p, phase) for a free point of the table ('move' | 'down').
   */
  constructor(svg, on) {
    this.svg = svg;
    this.on = on;
    this.scene = null;
    this.frame = { scale: 40, margin: 1 };
    this.depth = 15;
    this.movable = () => false;
    this.turn = 0;
    this.drag = null;
    this.layers = {};
    svg.addEventListener('pointermove', (e) => this.#pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.#pointerUp(e));
    svg.addEventListener('pointercancel', () => this.#cancel());
    svg.addEventListener('pointerdown', (e) => {
      if (e.target === svg || e.target.closest('.terrain')) this.on.point?.(this.toBoard(e), 'down');
    });
    svg.addEventListener('wheel', (e) => {
      if (!this.drag) return;
      e.preventDefault();
      this.rotate(e.deltaY > 0 ? 15 : -15);
    }, { passive: false });
  }

  /** Board coordinates (BW) to the picture's pixels, in the terrain picture's frame. */
  px(p) {
    const { scale, margin } = this.frame;
    return [(p.x + margin) * scale, (this.depth - p.y + margin) * scale];
  }

  points(list) {
    return list.map((p) => this.px(p).map((v) => v.toFixed(1)).join(',')).join(' ');
  }

  /** The pointer's place on the board, BW. */
  toBoard(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const m = this.svg.getScreenCTM();
    const q = m ? pt.matrixTransform(m.inverse()) : pt;
    const { scale, margin } = this.frame;
    return { x: q.x / scale - margin, y: this.depth + margin - q.y / scale };
  }

  /** Draw `scene`; `movable(e)` says which elements the person at the screen may handle now. */
  draw(scene, movable = () => false) {
    this.scene = scene;
    this.movable = movable;
    this.frame = scene.frame;
    this.depth = scene.board.depth;
    const { scale, margin } = scene.frame;
    const w = (scene.board.width + 2 * margin) * scale;
    const h = (scene.board.depth + 2 * margin) * scale;
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    const defs = el('defs', {}, svg);
    const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#111' }, marker);
    // The terrain as dbcore draws it, in the same frame.
    const terrain = new DOMParser().parseFromString(scene.terrain_svg, 'image/svg+xml').documentElement;
    const t = el('g', { class: 'terrain' }, svg);
    if (terrain && terrain.nodeName === 'svg') {
      terrain.setAttribute('x', 0);
      terrain.setAttribute('y', 0);
      t.appendChild(document.importNode(terrain, true));
    }
    this.layers = {};
    for (const name of ['camps', 'choices', 'zones', 'elements', 'marks', 'ghosts', 'drag']) {
      this.layers[name] = el('g', { class: `layer-${name}` }, svg);
    }
    for (const c of scene.camps) {
      const colour = scene.armies[c.army]?.colour || '#555';
      el('polygon', { class: 'camp', points: this.points(c.outline), stroke: colour }, this.layers.camps);
    }
    for (const e of scene.elements) {
      if (!e.corners || e.status.status !== 'in_play') continue;
      this.#drawElement(e);
    }
  }

  #drawElement(e) {
    const colour = this.scene.armies[e.army]?.colour || '#777';
    const mine = this.movable(e);
    const g = el('g', {
      class: `el${mine ? ' mine' : ''}`,
      tabindex: 0,
      role: 'button',
      'data-id': e.id,
      'data-army': e.army,
      'data-x': e.pose.x,
      'data-y': e.pose.y,
      'data-facing': e.pose.facing,
      'aria-label': `${elementName(e)}${e.general ? ', general' : ''}, ${this.scene.armies[e.army]?.name || ''}`,
    }, this.layers.elements);
    el('polygon', {
      class: 'base',
      points: this.points(e.corners),
      fill: colour,
      stroke: e.general ? '#e8c547' : '#111',
      'stroke-width': e.general ? 4 : 1.5,
    }, g);
    // The front edge, drawn thicker so that facing reads at a glance.
    const [a, b] = [this.px(e.corners[0]), this.px(e.corners[1])];
    el('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: '#fff', 'stroke-width': 3 }, g);
    const c = this.px(centre(e.corners));
    if (e.depth * this.frame.scale >= 30) {
      const label = el('text', { x: c[0], y: c[1] - 2, 'text-anchor': 'middle', 'font-size': 12, fill: '#fff' }, g);
      label.textContent = e.kind;
      const id = el('text', { x: c[0], y: c[1] + 11, 'text-anchor': 'middle', 'font-size': 10, fill: '#fff' }, g);
      id.textContent = `#${e.id}`;
    } else {
      // A shallow base (half a BW deep) has room for one line.
      const text = `${e.kind} ${e.id}`;
      const room = this.frame.scale * 0.9;
      const attrs = { x: c[0], y: c[1] + 4, 'text-anchor': 'middle', 'font-size': 10, fill: '#fff' };
      // Squeezed to the base's width when the name is longer than it.
      if (text.length * 5.6 > room) Object.assign(attrs, { textLength: room, lengthAdjust: 'spacingAndGlyphs' });
      const label = el('text', attrs, g);
      label.textContent = text;
    }
    g.addEventListener('pointerdown', (evt) => this.#pointerDown(evt, e));
    g.addEventListener('keydown', (evt) => {
      if (evt.key === 'Enter' || evt.key === ' ') {
        evt.preventDefault();
        this.on.select?.(e.id, evt.shiftKey);
      }
    });
  }

  /** The element `id` as drawn now (its <g>), or null. */
  node(id) {
    return this.svg.querySelector(`.el[data-id="${id}"]`);
  }

  markSelected(ids) {
    for (const n of this.svg.querySelectorAll('.el.selected')) n.classList.remove('selected');
    for (const id of ids) this.node(id)?.classList.add('selected');
  }

  clear(layer) {
    this.layers[layer]?.replaceChildren();
  }

  /** Where each listed move ends, drawn as outlines to click (Enter on the active one). */
  showDestinations(list, active = -1) {
    this.clear('ghosts');
    list.forEach((d, i) => {
      for (const m of d.movers) {
        const p = el('polygon', {
          class: `ghost${d.into_contact ? ' contact' : ''}${i === active ? ' active' : ''}`,
          points: this.points(m.corners),
          'data-index': i,
        }, this.layers.ghosts);
        const title = el('title', {}, p);
        title.textContent = `${d.text} (${d.pips} PIP${d.pips === 1 ? '' : 's'})`;
        p.addEventListener('pointerdown', (evt) => {
          evt.stopPropagation();
          this.on.pick?.({ destination: i });
        });
      }
    });
  }

  /** One outline at `corners` (a dragged or placed base), `ok` or refused. */
  showGhost(corners, ok, layer = 'drag') {
    this.clear(layer);
    if (!corners) return;
    el('polygon', { class: `ghost ${ok ? 'ok' : 'refused'}`, points: this.points(corners) }, this.layers[layer]);
  }

  /** Polygons offered as choices (features, camps), each picked by a click. */
  showCandidates(polys, active = -1) {
    this.clear('choices');
    polys.forEach((pts, i) => {
      const p = el('polygon', { class: `candidate${i === active ? ' active' : ''}`, points: this.points(pts), tabindex: 0, 'data-index': i }, this.layers.choices);
      p.addEventListener('pointerdown', (evt) => {
        evt.stopPropagation();
        this.on.pick?.({ candidate: i, point: this.toBoard(evt), evt });
      });
    });
  }

  /** The quarters features are laid in, each picked by a click. */
  showQuarters(quarters) {
    this.clear('choices');
    for (const q of quarters) {
      const p = el('polygon', { class: 'quarter', points: this.points(q.outline), tabindex: 0, 'data-quarter': q.quarter }, this.layers.choices);
      const c = this.px(centre(q.outline));
      const t = el('text', { x: c[0], y: c[1], 'text-anchor': 'middle', 'font-size': 40, fill: 'rgba(0,0,0,0.45)' }, this.layers.choices);
      t.textContent = String(q.quarter);
      p.addEventListener('pointerdown', () => this.on.pick?.({ quarter: q.quarter }));
      p.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.on.pick?.({ quarter: q.quarter }); });
    }
  }

  /** The board's edges named in `edges`, each picked by a click. */
  showEdges(edges) {
    this.clear('choices');
    const { width, depth } = this.scene.board;
    const ends = {
      south: [{ x: 0, y: 0 }, { x: width, y: 0 }],
      north: [{ x: 0, y: depth }, { x: width, y: depth }],
      west: [{ x: 0, y: 0 }, { x: 0, y: depth }],
      east: [{ x: width, y: 0 }, { x: width, y: depth }],
    };
    for (const edge of edges) {
      const [a, b] = ends[edge].map((p) => this.px(p));
      const l = el('line', { class: 'edge', x1: a[0], y1: a[1], x2: b[0], y2: b[1], tabindex: 0, 'data-edge': edge }, this.layers.choices);
      const title = el('title', {}, l);
      title.textContent = `${edge} edge`;
      l.addEventListener('pointerdown', () => this.on.pick?.({ edge }));
      l.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.on.pick?.({ edge }); });
    }
  }

  /** Zones round an element (threat zones), faint. */
  showZones(polys) {
    this.clear('zones');
    for (const pts of polys) el('polygon', { class: 'zone', points: this.points(pts) }, this.layers.zones);
  }

  /** Marks of what the last action did: arrows for moves, recoils and flights, crosses for losses. */
  showMarks(moves, lost) {
    this.clear('marks');
    for (const m of moves) {
      const [a, b] = [this.px(m.from), this.px(m.to)];
      if (Math.hypot(a[0] - b[0], a[1] - b[1]) < 2) continue;
      el('line', { class: 'mark-move', x1: a[0], y1: a[1], x2: b[0], y2: b[1], 'data-id': m.id }, this.layers.marks);
    }
    for (const e of lost) {
      el('polygon', { class: 'mark-lost-base', points: this.points(e.corners), 'data-id': e.id }, this.layers.marks);
      const c = this.px(centre(e.corners));
      const r = 16;
      el('path', { class: 'mark-lost', d: `M${c[0] - r},${c[1] - r}L${c[0] + r},${c[1] + r}M${c[0] + r},${c[1] - r}L${c[0] - r},${c[1] + r}`, 'data-id': e.id }, this.layers.marks);
    }
  }

  // Dragging an element: the pose follows the pointer (front-edge midpoint moved by the
  // pointer's travel), turned by the wheel or Q and E; the referee judges each pose.
  #pointerDown(evt, e) {
    if (evt.button !== 0) return;
    evt.stopPropagation();
    if (!this.movable(e)) {
      this.on.select?.(e.id, evt.shiftKey);
      return;
    }
    const start = this.toBoard(evt);
    this.drag = { id: e.id, e, start, pointer: evt.pointerId, moved: false, turn: 0, pose: { ...e.pose }, shift: evt.shiftKey };
    this.svg.setPointerCapture?.(evt.pointerId);
  }

  #pointerMove(evt) {
    if (!this.drag) {
      if (this.on.point) this.on.point(this.toBoard(evt), 'move');
      return;
    }
    const p = this.toBoard(evt);
    const d = this.drag;
    const dx = p.x - d.start.x;
    const dy = p.y - d.start.y;
    if (!d.moved && Math.hypot(dx, dy) < 0.08) return;
    d.moved = true;
    d.pose = { x: d.e.pose.x + dx, y: d.e.pose.y + dy, facing: norm(d.e.pose.facing + d.turn) };
    this.node(d.id)?.setAttribute('opacity', '0.45');
    this.on.drag?.(d.id, d.pose);
  }

  /** Turn the element being dragged by `deg` degrees. */
  rotate(deg) {
    const d = this.drag;
    if (!d) return false;
    d.turn += deg;
    d.pose = { ...d.pose, facing: norm(d.e.pose.facing + d.turn) };
    this.on.drag?.(d.id, d.pose);
    return true;
  }

  #pointerUp() {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    this.node(d.id)?.removeAttribute('opacity');
    if (d.moved) this.on.drop?.(d.id, d.pose);
    else this.on.select?.(d.id, d.shift);
  }

  #cancel() {
    const d = this.drag;
    this.drag = null;
    if (d) {
      this.node(d.id)?.removeAttribute('opacity');
      this.on.cancelDrag?.(d.id);
    }
  }
}

export function centre(points) {
  const n = points.length || 1;
  return {
    x: points.reduce((s, p) => s + p.x, 0) / n,
    y: points.reduce((s, p) => s + p.y, 0) / n,
  };
}

function norm(deg) {
  return ((deg % 360) + 360) % 360;
}
