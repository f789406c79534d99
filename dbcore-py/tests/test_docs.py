"""The examples in the package docstring and the README run and say what they claim."""

import doctest
import pathlib
import re

import dbcore


def test_package_docstring_examples() -> None:
    failures, tried = doctest.testmod(dbcore, raise_on_error=False)
    assert tried > 0 and failures == 0


def test_readme_example_runs() -> None:
    readme = pathlib.Path(__file__).parent.parent / "README.md"
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    assert blocks
    namespace: dict[str, object] = {}
    exec(blocks[0], namespace)  # noqa: S102 - our own README
    r = namespace["r"]
    assert isinstance(r, dbcore.CombatResult)
    # The README says the Knights recoil on dice (3, 5).
    assert r.b.outcome == "recoil"
