"""Python's dicts, C's JSON and the Rust JSON of the same battle are one contract (issue #11).

The golden traces are the Rust JSON (written by `cargo run -p xtask -- golden`). Python's event
dicts must equal them, and so must the events the C library gives for the same actions, which
this test reads through ctypes from the shared library the C tests build (tests/c/run.sh). The
contacts of a table are compared the same way: Python's `Table.contacts` against C's
`dbcore_table_contacts_json`.
"""

from __future__ import annotations

import ctypes
import json
import os
from pathlib import Path
from typing import Any

import pytest

import dbcore

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def _c_library() -> ctypes.CDLL:
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    names = ["libdbcore.so", "libdbcore_ffi.so"]
    for profile in ["debug", "release"]:
        for name in names:
            path = target / profile / name
            if path.exists():
                lib = ctypes.CDLL(str(path))
                lib.dbcore_string_free.argtypes = [ctypes.c_void_p]
                lib.dbcore_string_free.restype = None
                return lib
    pytest.skip(f"the C library is not built under {target} (bash tests/c/run.sh builds it)")


def _take(lib: ctypes.CDLL, p: ctypes.c_void_p) -> Any:
    assert p.value is not None
    text = ctypes.string_at(p.value).decode()
    lib.dbcore_string_free(p)
    return json.loads(text)


def test_python_and_c_events_equal_the_rust_json() -> None:
    lib = _c_library()
    lib.dbcore_battle_new_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.dbcore_battle_new_json.restype = ctypes.c_uint32
    lib.dbcore_battle_apply_json.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_void_p),
    ]
    lib.dbcore_battle_apply_json.restype = ctypes.c_uint32
    lib.dbcore_battle_free.argtypes = [ctypes.c_void_p]
    lib.dbcore_battle_free.restype = None
    for name in ["into_contact.json", "whole_battle_seed_1.json"]:
        trace = json.loads((GOLDEN / name).read_text())
        record, rust_events = trace["record"], trace["events"]
        py = dbcore.Battle(record["setup"])
        c = ctypes.c_void_p()
        assert lib.dbcore_battle_new_json(json.dumps(record["setup"]).encode(), ctypes.byref(c)) == 0
        py_events: list[Any] = []
        c_events: list[Any] = []
        try:
            for i, action in enumerate(record["actions"]):
                py_events += py.apply(action)
                out = ctypes.c_void_p()
                status = lib.dbcore_battle_apply_json(c, json.dumps(action).encode(), ctypes.byref(out))
                assert status == 0, (name, i)
                c_events += _take(lib, out)
            # The golden trace's events, in order, are the Rust JSON of every action's events.
            assert py_events == rust_events, name
            assert c_events == rust_events, name
        finally:
            lib.dbcore_battle_free(c)


def test_python_and_c_contacts_are_the_same_dicts() -> None:
    lib = _c_library()
    lib.dbcore_table_new_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.dbcore_table_new_json.restype = ctypes.c_uint32
    lib.dbcore_table_contacts_json.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.POINTER(ctypes.c_void_p),
    ]
    lib.dbcore_table_contacts_json.restype = ctypes.c_uint32
    lib.dbcore_table_free.argtypes = [ctypes.c_void_p]
    lib.dbcore_table_free.restype = None
    # DBA3.md §8.2 (a): 4Bd and 4Wb front to front; a 3Kn beside the Blades, edge to edge.
    table = dbcore.Table(
        [
            dbcore.PlacedElement(1, 0, "4Bd", 7.5, 7.0, 0.0),
            dbcore.PlacedElement(2, 1, "4Wb", 7.5, 7.0, 180.0),
            dbcore.PlacedElement(3, 0, "3Kn", 8.5, 7.0, 0.0),
        ]
    )
    assert table.contacts(1), "the Blades touch the Warband"
    c = ctypes.c_void_p()
    assert lib.dbcore_table_new_json(table.to_json().encode(), ctypes.byref(c)) == 0
    try:
        for element in (1, 2, 3):
            out = ctypes.c_void_p()
            assert lib.dbcore_table_contacts_json(c, element, ctypes.byref(out)) == 0
            assert table.contacts(element) == _take(lib, out), element
    finally:
        lib.dbcore_table_free(c)
