// Saving the game record (the file `dbcore play --json` writes) and reading a file the player
// opens: a game record, a golden trace holding one under `game`, or a battle set-up. Whether the
// record replays, or the set-up keeps within the limits, is the referee's answer.

/** Files larger than this are not read at all: no game record comes near it. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

function refusal(message) {
  const e = new Error(message);
  e.name = 'ArgumentError';
  e.detail = message;
  e.rule = null;
  return e;
}

/**
 * Read `file` as JSON and tell what it holds: `{record}` (a game record in any spelling the
 * referee reads; a golden trace gives its `game`) or `{setup}` (a battle set-up). Throws a
 * plain refusal for a file that is not JSON or is neither.
 */
export async function readGameFile(file) {
  if (file.size > MAX_FILE_BYTES) {
    throw refusal(`${file.name} is ${file.size} bytes: a game record is far smaller (at most ${MAX_FILE_BYTES} bytes are read)`);
  }
  const text = await file.text();
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw refusal(`${file.name} is not a game record: it is not JSON (${e.message})`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw refusal(`${file.name} is not a game record: a record is a JSON object with "format": "dbcore-game"`);
  }
  if (v.format === 'dbcore-battle') return { setup: v };
  if (v.game && typeof v.game === 'object' && !Array.isArray(v.game)) return { record: v.game };
  if (v.format === 'dbcore-game' || v.actions || v.prebattle || v.record) return { record: v };
  throw refusal(`${file.name} is not a game record: it has none of "format": "dbcore-game", "actions" or "prebattle" (a set-up says "format": "dbcore-battle")`);
}

/** Offer the record as a download, named after its armies. */
export function saveRecord(record) {
  const text = `${JSON.stringify(record, null, 1)}\n`;
  const blob = new Blob([text], { type: 'application/json' });
  const a = document.createElement('a');
  const tags = record.tags || {};
  const stem = [tags.red, tags.blue].filter(Boolean).join(' v ').replace(/[^A-Za-z0-9 _-]+/g, '').trim() || 'game';
  a.href = URL.createObjectURL(blob);
  a.download = `${stem.replaceAll(' ', '_')}.dbcore-game.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
