"""Load a table (a battlefield with elements on it), print what touches what and who stands in
whose threat zone, and draw it.

    python examples/python/draw_table.py [TABLE.json [PICTURE.svg]]

Defaults: examples/data/table.json, and table.svg in the current directory. Needs the dbcore
Python module (``bash dbcore-py/run_tests.sh VENV`` builds it into VENV).
"""

import pathlib
import sys

import dbcore

HERE = pathlib.Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    source = pathlib.Path(argv[1]) if len(argv) > 1 else HERE.parent / "data" / "table.json"
    picture = pathlib.Path(argv[2]) if len(argv) > 2 else pathlib.Path("table.svg")
    table = dbcore.Table.from_json(source.read_text(encoding="utf-8"))
    print(f"{source.name}: {table!r}")
    for e in table.elements:
        general = " (general)" if e.general else ""
        fighting = ", in close combat" if table.in_close_combat(e.id) else ""
        print(
            f"{e.id}: side {e.side} {e.kind}{general} at ({e.x:.2f}, {e.y:.2f}) facing "
            f"{e.facing:.0f}, {table.going_under(e.id)} going{fighting}"
        )
        for c in table.contacts(e.id):
            who = "friend" if c["friend"] else "enemy"
            lined = ", lined up" if c["contact"]["lined_up"] else ""
            print(f"   touches {who} {c['other']}: {c['contact']['kind']}{lined}")
        zones = table.threat_zones_on(e.id)
        if zones:
            print(f"   in the threat zones of: {', '.join(str(z) for z in zones)}")
        targets, blocked = table.shooting_targets(e.id)
        for t in targets:
            print(f"   can shoot at {t['target']} ({t['distance']:.2f} BW)")
        for b in blocked:
            print(f"   shot at {b['target']} blocked by {b['by']}")
    picture.write_text(table.svg(threat_zones=True), encoding="utf-8")
    print(f"wrote {picture}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
