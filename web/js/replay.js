// A saved game played again in the page, stopping at each bound so that a scrubber can show it
// bound by bound. The referee replays every action (a record that does not replay is refused
// with the action at fault); this module only keeps what it drew at each stop.

/** The record's actions in playing order: the pre-battle's, then the battle's. */
function actionsOf(record) {
  return [...(record.prebattle?.actions || []), ...(record.actions || [])];
}

/** The record with no action played: where the game starts. */
function startOf(record) {
  const start = { ...record, actions: [] };
  delete start.result;
  if (record.prebattle) start.prebattle = { ...record.prebattle, actions: [] };
  return start;
}

export class Replay {
  /** Replay `record` with the referee's `Game` class; throws the referee's refusal. */
  constructor(record, Game) {
    // The whole record is read and checked first (a record that does not replay, or breaks a
    // limit, is refused here with nothing changed in the page).
    const checked = new Game({ game: record });
    const read = checked.call('record');
    checked.free();
    this.record = read;
    this.actions = actionsOf(read);
    this.Game = Game;
    const game = new Game({ game: startOf(read) });
    this.stops = [];
    this.lines = [];
    const stop = (label, done) => {
      const info = game.call('info');
      this.lines = game.call('narrate');
      this.stops.push({ label, actions: done, info, scene: game.call('scene'), lines: this.lines.length });
    };
    stop('the start', 0);
    let stage = game.call('info').stage;
    this.actions.forEach((action, i) => {
      const { events } = game.call('apply', { action });
      const info = game.call('info');
      const bound = events.find((e) => e.event === 'bound_started');
      if (info.stage !== stage && info.stage === 'battle') stop('deployed', i + 1);
      else if (bound) stop(`bound ${bound.bound}`, i + 1);
      else if (i === this.actions.length - 1) stop(info.stage === 'finished' ? 'the verdict' : 'the end', i + 1);
      stage = info.stage;
    });
    const last = this.stops[this.stops.length - 1];
    if (last.actions !== this.actions.length) stop('the end', this.actions.length);
    game.free();
  }

  /** The record cut after `n` actions, to play on from there. */
  recordUpTo(n) {
    const r = startOf(this.record);
    const pre = this.record.prebattle?.actions || [];
    if (r.prebattle) r.prebattle.actions = pre.slice(0, n);
    r.actions = (this.record.actions || []).slice(0, Math.max(0, n - (r.prebattle ? pre.length : 0)));
    return r;
  }

  free() {}
}
