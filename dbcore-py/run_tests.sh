#!/usr/bin/env bash
# Build the dbcore Python module into a virtualenv and test it.
#
#   bash dbcore-py/run_tests.sh VENV_DIR
#
# Creates VENV_DIR with `python3 -m venv` if it does not exist, installs maturin, pytest and
# mypy (and dask[distributed], pandas and tqdm for dbcore.simulate's tests) into it from PyPI (pip skips what is already there), builds and installs the module
# with `maturin develop` (the dev profile, as the C tests' library: dbcore is compiled once for
# both, where a release build would compile it again from scratch for tests that check the
# bindings, not their speed; cargo rebuilds only what changed), then runs pytest,
# mypy --strict over the tests, the package and examples/python (which exercises the stubs) and
# mypy.stubtest (which checks the stubs against the built module). Exits non-zero on any
# failure.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 VENV_DIR" >&2
    exit 2
fi
venv=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [ ! -x "$venv/bin/python" ]; then
    echo "== creating virtualenv $venv"
    python3 -m venv "$venv"
fi
venv=$(cd "$venv" && pwd)
py="$venv/bin/python"

echo "== installing build and test tools"
"$py" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2" pytest mypy
# The optional back ends of dbcore.simulate, for its tests (the Dask LocalCluster test, data
# frames, the progress bar); dbcore itself needs none of them. pip skips what is there.
"$py" -m pip install --quiet --disable-pip-version-check "dask[distributed]" pandas tqdm

echo "== building dbcore into $venv"
cd "$here"
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --quiet

echo "== pytest"
"$py" -m pytest -q tests

echo "== mypy --strict (tests, package and Python examples, against the stubs)"
"$py" -m mypy --strict --no-error-summary tests python/dbcore ../examples/python

echo "== stubtest"
"$py" -m mypy.stubtest dbcore

echo "== dbcore-py: all Python checks passed"
