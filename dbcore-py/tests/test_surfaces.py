"""The table questions of a battle from Python: snap, outlines, outcome previews and contacts with
their edges and corners named as dbcore's JSON and the C layer name them (a test loads the C
library, when it is built, and compares). Section numbers refer to the rules digest, DBA3.md."""

import ctypes
import json
import os
import pathlib
from typing import Any

import pytest

import dbcore
from dbcore import Battle

ROOT = pathlib.Path(__file__).resolve().parents[2]


def into_contact() -> tuple[Battle, dict[str, Any]]:
    """The into_contact golden battle after its PIP die and the move into contact."""
    g = json.loads((ROOT / "tests" / "golden" / "into_contact.json").read_text())
    b = Battle(g["record"]["setup"])
    for a in g["record"]["actions"][:2]:
        b.apply(a)
    return b, g


def test_snap_gives_a_legal_pose_and_the_order_to_send() -> None:
    g = json.loads((ROOT / "tests" / "golden" / "into_contact.json").read_text())
    b = Battle(g["record"]["setup"])
    b.apply(g["record"]["actions"][0])
    # DBA3.md §8.2: a base dropped a hair off a straight move snaps to a legal pose; the order
    # it gives is accepted as it stands and changes nothing until applied.
    el = b.element(3)
    pose = {"x": el["pose"]["x"] + 0.01, "y": el["pose"]["y"] + 1.0, "facing": 0.0}
    snap = b.snap(3, pose)
    assert snap["id"] == 3 and set(snap["pose"]) == {"x", "y", "facing"}
    before = b.to_json()
    events = b.check({"action": "move", "order": snap["order"]})
    assert events == snap["events"]
    assert b.to_json() == before
    with pytest.raises(dbcore.ArgumentError):
        b.snap(3, pose, within=9.0)
    with pytest.raises(dbcore.DbcoreError) as info:
        b.snap(999, pose)
    assert info.value.code == 104


def test_outlines_and_outcome_previews() -> None:
    b, _ = into_contact()
    # DBA3.md §8.1: an element not in contact has a threat zone ahead of it.
    o = b.outlines(3)
    assert o["id"] == 3
    assert len(o["element"]["points"]) == 4 and o["threat_zone"] and "reach" in o
    # DBA3.md §12.1: a recoil preview lists its effects and moves nothing.
    before = b.to_json()
    effects = b.outcome(2, {"outcome": "recoil"})
    assert isinstance(effects, list) and effects
    assert b.to_json() == before
    with pytest.raises(dbcore.DbcoreError):
        b.outcome(2, {"outcome": "fly"})


def test_contacts_name_the_edges_that_touch() -> None:
    b, _ = into_contact()
    # DBA3.md §8.2 (a): the Blade moved into front-to-front contact with the Spear.
    front = [c for c in b.contacts(2) if c["other"] == 102]
    assert front == [
        {
            "other": 102,
            "friend": False,
            "contact": {
                "kind": "front_to_front",
                "a": {"edge": "front"},
                "b": {"edge": "front"},
                "lined_up": True,
                "shared_length": pytest.approx(1.0),
            },
        }
    ]
    assert b.contacts(2) == b.table().contacts(2, b.config)


def c_library() -> ctypes.CDLL | None:
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = target / "debug" / "libdbcore_ffi.so"
    if not path.exists():
        return None
    lib = ctypes.CDLL(str(path))
    p = ctypes.c_void_p
    lib.dbcore_battle_new_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(p)]
    lib.dbcore_battle_apply_json.argtypes = [p, ctypes.c_char_p, ctypes.POINTER(p)]
    lib.dbcore_battle_contacts_json.argtypes = [p, ctypes.c_uint32, ctypes.POINTER(p)]
    lib.dbcore_battle_free.argtypes = [p]
    lib.dbcore_string_free.argtypes = [p]
    return lib


def test_python_and_c_name_contacts_alike() -> None:
    lib = c_library()
    if lib is None:
        pytest.skip("the C library is not built (bash tests/c/run.sh builds it)")
    b, g = into_contact()
    handle = ctypes.c_void_p()
    setup = json.dumps(g["record"]["setup"]).encode()
    assert lib.dbcore_battle_new_json(setup, ctypes.byref(handle)) == 0
    try:
        for a in g["record"]["actions"][:2]:
            out = ctypes.c_void_p()
            assert lib.dbcore_battle_apply_json(handle, json.dumps(a).encode(), ctypes.byref(out)) == 0
            lib.dbcore_string_free(out)
        for id in [e["id"] for e in b.elements()]:
            out = ctypes.c_void_p()
            assert lib.dbcore_battle_contacts_json(handle, id, ctypes.byref(out)) == 0
            text = ctypes.string_at(out.value).decode() if out.value else "[]"
            lib.dbcore_string_free(out)
            # The same shape in both: `contact` nested as in dbcore's JSON.
            assert b.contacts(id) == json.loads(text), id
    finally:
        lib.dbcore_battle_free(handle)
