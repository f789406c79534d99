"""Battles: set-up, actions and events as plain dicts, refereed by dbcore.

These mirror the C tests of tests/c/test_dbcore.c (the same set-up, the same answers) and replay
the golden traces of tests/golden. Section numbers refer to the rules digest, DBA3.md.
"""

import copy
import doctest
import json
import pathlib
import pickle
from typing import Any

import pytest

import dbcore
from dbcore import Battle, Dice, actions

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden"


def setup_data() -> dict[str, Any]:
    """Two armies on an open sandbox table. South (army 0, first bound): 1 3Kn general, 2 and 3
    4Bd, 4 El. North (army 1): 101 4Bd general, 102 4Sp."""

    def el(i: int, kind: str, x: float, y: float, facing: float) -> dict[str, Any]:
        return {"id": i, "kind": kind, "pose": {"x": x, "y": y, "facing": facing}}

    south = [el(1, "3Kn", 7.5, 3, 0), el(2, "4Bd", 6.5, 3, 0), el(3, "4Bd", 8.5, 3, 0)]
    south.append(el(4, "El", 4.5, 3, 0))
    south[0]["general"] = True
    north = [el(101, "4Bd", 7.5, 12, 180), el(102, "4Sp", 6.5, 12, 180)]
    north[0]["general"] = True
    return {
        "format": "dbcore-battle",
        "version": 1,
        "variant": "standard",
        "battlefield": {"board": {"width": 15, "depth": 15}, "features": []},
        "sandbox": True,
        "free_army_size": True,
        "first": 0,
        "armies": [
            {"name": "South", "base_edge": "south", "elements": south},
            {"name": "North", "base_edge": "north", "elements": north},
        ],
    }


@pytest.fixture
def battle() -> Battle:
    return Battle(setup_data())


def refused(
    b: Battle, action: dict[str, Any], family: type[dbcore.DbcoreError], code: int
) -> dbcore.DbcoreError:
    """Apply an action that must be refused; check that nothing changed."""
    before = b.to_json()
    with pytest.raises(family) as info:
        b.apply(action)
    assert info.value.code == code
    assert b.to_json() == before
    return info.value


def test_a_battle_starts_awaiting_the_first_armys_pips(battle: Battle) -> None:
    # DBA3.md §6.1, §6.2
    assert battle.phase == "awaiting_pips"
    assert (battle.active_army, battle.bound, battle.pips) == (0, 1, 0)
    assert battle.awaiting() == {"for": "pips", "army": 0}
    events = battle.apply(actions.roll_pips(4))
    assert events == [{"event": "pips_rolled", "army": 0, "die": 4, "pips": 4}]
    assert battle.phase == "movement" and battle.pips == 4
    assert battle.awaiting() is None
    # DBA3.md §7.1: the legal actions list the moving army's elements with their cost.
    legal = battle.legal()
    assert legal["may_end_movement"] and legal["pips"] == 4
    assert legal["moves"] and all(m["cost"]["total"] >= 1 for m in legal["moves"])


def test_setup_and_actions_may_be_json_text() -> None:
    b = Battle(json.dumps(setup_data()))
    assert b.apply('{"action": "roll_pips", "die": 2}')[0]["pips"] == 2


def test_a_bad_setup_lists_every_problem() -> None:
    data = setup_data()
    data["armies"][1]["elements"][0]["general"] = False  # §2.5: North has no general
    data["armies"][1]["elements"][1]["id"] = 2  # id 2 used twice
    with pytest.raises(dbcore.SetupError) as info:
        Battle(data)
    e = info.value
    assert e.code == 400
    assert "2 problem(s)" in e.detail
    assert "element id #2 is used more than once" in e.detail
    assert "army `North` must have exactly one general" in e.detail
    assert sorted(p["problem"] for p in e.problems) == ["duplicate_id", "generals"]
    with pytest.raises(dbcore.SetupError):
        Battle.replay({"setup": data, "actions": []})


def test_unreadable_input_is_an_argument_error(battle: Battle) -> None:
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle("{")
    assert info.value.code == 102
    battle_before = battle.to_json()
    for bad in (
        {"action": "cast_spell"},
        "not json",
        {"action": "roll_pips", "die": object()},
    ):
        with pytest.raises(dbcore.ArgumentError) as info:
            battle.apply(bad)
        assert info.value.code == 102
    assert battle.to_json() == battle_before
    with pytest.raises(dbcore.ArgumentError):
        Battle.from_json("{")


def test_a_die_of_7_is_a_dice_error_in_an_action_too(battle: Battle) -> None:
    # DBA3.md §0.3: a die shows 1 to 6; a 7 in an action is the same DiceError (code 300) as a 7
    # given to Dice or Combatant anywhere else, not unreadable JSON.
    before = battle.to_json()
    with pytest.raises(dbcore.DiceError) as info:
        battle.apply({"action": "roll_pips", "die": 7})
    assert info.value.code == 300 and info.value.rule == "§0.3"
    assert "not 7" in str(info.value)
    assert battle.to_json() == before


def test_bad_json_names_the_field(battle: Battle) -> None:
    setup = json.loads(battle.to_json())["setup"]
    setup["armies"][0]["elements"][1]["pose"]["facing"] = "north"
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle(setup)
    assert info.value.code == 102
    assert "armies[0].elements[1].pose.facing: invalid type" in str(info.value)
    # One spelling: the old PascalCase is refused with the snake_case named.
    setup = json.loads(battle.to_json())["setup"]
    setup["variant"] = "Standard"
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle(setup)
    assert "dbcore spells it `standard`" in str(info.value)


def test_wrong_phase_is_refused_and_changes_nothing(battle: Battle) -> None:
    # DBA3.md §6.1: no move, and no ending of moves, before the PIP die.
    e = refused(battle, actions.move_element(2, 6.5, 4, 0), dbcore.RuleError, 201)
    assert e.rule == "§6.1"
    refused(battle, actions.end_movement(), dbcore.RuleError, 201)
    battle.apply(actions.roll_pips(3))
    # One PIP die a bound; §3.5: no river on this table.
    refused(battle, actions.roll_pips(5), dbcore.RuleError, 201)
    assert refused(battle, actions.dice_river(2), dbcore.RuleError, 201).rule == "§3.5"


def test_moves_cost_pips(battle: Battle) -> None:
    battle.apply(actions.roll_pips(2))
    move = actions.move_element(2, 6.5, 4, 0)
    before = battle.state()
    checked = battle.check(move)
    assert battle.state() == before  # check is pure
    # DBA3.md §6.3: one PIP a tactical move.
    events = battle.apply(move)
    assert events == checked
    assert [e["event"] for e in events] == ["moved", "pips_spent"]
    assert events[1]["left"] == 1 and battle.pips == 1
    assert battle.element(2)["pose"] == {"x": 6.5, "y": 4.0, "facing": 0.0}
    # §6.1: not ours to move; no element 999; §7.1: Blades move 2 BW, not 6.
    assert refused(battle, actions.move_element(101, 7.5, 11, 180), dbcore.RuleError, 203)
    refused(battle, actions.move_element(999, 7.5, 5, 0), dbcore.ArgumentError, 104)
    refused(battle, actions.move_element(3, 8.5, 9, 0), dbcore.RuleError, 203)
    assert battle.apply(actions.move_element(3, 8.5, 4, 0))[1]["left"] == 0
    # §6.3: no PIPs left.
    assert refused(battle, actions.move_element(1, 7.5, 4, 0), dbcore.RuleError, 202).rule == "§6.3"
    assert battle.apply(actions.end_movement()) == [
        {"event": "bound_ended", "army": 0, "bound": 1, "unused_pips": 0},
        {"event": "bound_started", "army": 1, "bound": 2},
    ]
    assert (battle.active_army, battle.bound, battle.phase) == (1, 2, "awaiting_pips")
    battle.apply(actions.roll_pips(3))
    battle.apply(actions.end_movement())
    # South's own second bound, one PIP: §6.3 (a) Elephants now cost an extra PIP.
    battle.apply(actions.roll_pips(1))
    e = refused(battle, actions.move_element(4, 4.5, 4, 0), dbcore.RuleError, 202)
    assert "costs 2 PIPs but only 1 is left" in e.detail
    assert battle.apply(actions.move_element(2, 6.5, 5, 0))[1]["cost"]["total"] == 1


def test_into_contact_and_group_helpers_speak_dbcores_json(battle: Battle) -> None:
    assert actions.into_contact(2, 101) == {
        "action": "move",
        "order": {"type": "into_contact", "ids": [2], "target": 101, "contact": "front"},
    }
    assert actions.into_contact([2, 3], 101, "flank_left")["order"]["contact"] == {"flank": "left"}
    assert actions.into_contact(2, 101, {"overlap": "right"})["order"]["contact"] == {
        "overlap": "right"
    }
    battle.apply(actions.roll_pips(6))
    events = battle.apply(actions.advance_group([2, 1, 3], 1.0))
    assert events[0]["movers"] == [2, 1, 3]
    # Every helper builds an action dbcore reads (check refuses only by the rules, not JSON).
    for a in (actions.into_contact(2, 101), actions.dismount(2), actions.dice_river(3)):
        with pytest.raises(dbcore.RuleError):
            battle.check(a)


def test_roll_pips_draws_from_seeded_dice(battle: Battle) -> None:
    dice, same = Dice(2026), Dice(2026)
    die = same.roll()
    events = battle.roll_pips(dice)
    # DBA3.md §6.2: the PIPs are the die the dice gave.
    assert events == [{"event": "pips_rolled", "army": 0, "die": die, "pips": die}]
    assert battle.pips == die
    # A second roll in the same bound is refused and draws nothing.
    with pytest.raises(dbcore.RuleError) as info:
        battle.roll_pips(dice)
    assert info.value.code == 201
    assert dice.roll() == same.roll()


def test_record_replay_state_and_pickle(battle: Battle) -> None:
    battle.apply(actions.roll_pips(5))
    battle.apply(actions.move_element(2, 6.5, 4, 0))
    record = battle.record()
    assert record["actions"][0] == {"action": "roll_pips", "die": 5}
    again, events = Battle.replay(record)
    assert again == battle and again.state() == battle.state()
    assert [e["event"] for e in events] == ["pips_rolled", "moved", "pips_spent"]
    assert Battle.replay(json.dumps(record))[0] == battle
    assert Battle.from_json(battle.to_json()) == battle
    assert Battle.from_json(battle.state()) == battle
    for copied in (pickle.loads(pickle.dumps(battle)), copy.deepcopy(battle), copy.copy(battle)):
        assert copied == battle and copied is not battle
    # A copy goes its own way.
    other = copy.deepcopy(battle)
    other.apply(actions.move_element(3, 8.5, 4, 0))
    assert other.pips == 3 and battle.pips == 4 and other != battle
    # A state edited by hand is not the one its record replays to.
    forged = battle.state()
    forged["pips"] = 6
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle.from_json(forged)
    assert info.value.code == 103


def test_compact_state_is_checked_by_its_digest(battle: Battle) -> None:
    battle.apply(actions.roll_pips(4))
    battle.apply(actions.move_element(2, 6.5, 4, 0))
    text = battle.to_json()
    compact = json.loads(text)
    assert compact["format"] == "dbcore-state" and len(compact["digest"]) == 16
    # What the set-up says is not repeated: no ids in the elements.
    assert "id" not in compact["elements"][0]
    assert len(text) < len(json.dumps(battle.state()))
    # Read back as text or as a dict, with no replay; pickles go the same way.
    assert Battle.from_json(text) == battle
    assert Battle.from_json(compact) == battle
    assert Battle.from_json(text).record() == battle.record()
    assert pickle.loads(pickle.dumps(battle)).to_json() == text
    # A compact state changed after dbcore wrote it is refused by its digest.
    forged = dict(compact, pips=6)
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle.from_json(forged)
    assert info.value.code == 103 and "digest" in str(info.value)
    forged = json.loads(text)
    forged["elements"][1]["pose"]["x"] = 9.5
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle.from_json(json.dumps(forged))
    assert info.value.code == 103


def test_elements_table_and_picture(battle: Battle) -> None:
    battle.apply(actions.roll_pips(5))
    battle.apply(actions.move_element(2, 6.5, 4, 0))
    elements = battle.elements()
    assert [e["id"] for e in elements] == [1, 2, 3, 4, 101, 102]
    assert elements[0]["general"] and elements[0]["army"] == 0
    table = battle.table()
    assert isinstance(table, dbcore.Table) and len(table) == 6
    e = table.element(2)
    assert (e.side, e.x, e.y) == (0, 6.5, 4.0)
    assert not table.in_close_combat(2)
    assert battle.svg().startswith("<svg") and battle._repr_svg_() == battle.svg()
    assert isinstance(battle.config, dbcore.RulesConfig)
    with pytest.raises(dbcore.ArgumentError) as info:
        battle.element(999)
    assert info.value.code == 104
    assert repr(battle) == (
        "<Battle bound 1, army 0 (South) to move, movement, 4 PIPs left, 6 of 6 elements in "
        "play, 2 actions>"
    )


def test_the_actions_helpers_doctests_pass() -> None:
    failures, tried = doctest.testmod(actions, raise_on_error=False)
    assert tried > 0 and failures == 0


def golden_files() -> list[pathlib.Path]:
    files = sorted(GOLDEN.glob("*.json"))
    assert len(files) >= 3, f"expected the golden traces in {GOLDEN}"
    return files


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_trace_replays_to_its_events(path: pathlib.Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    battle, events = Battle.replay(golden["record"])
    assert events == golden["events"]
    # The record a battle writes is the game record (format dbcore-game), starting from the
    # golden's set-up, with the same actions.
    record = battle.record()
    assert (record["format"], record["version"], record["game"]) == ("dbcore-game", 1, "dba")
    assert record["setup"] == golden["record"]["setup"]
    assert record["actions"] == golden["record"]["actions"]
    # The golden's own game record replays to the same events.
    again, events_again = Battle.replay(golden["game"])
    assert events_again[-len(events):] == events


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_trace_applied_action_by_action(path: pathlib.Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    battle = Battle(golden["record"]["setup"])
    events: list[dict[str, Any]] = []
    for action in golden["record"]["actions"]:
        checked = battle.check(action)
        applied = battle.apply(action)
        assert applied == checked  # check agrees with apply
        events.extend(applied)
    assert events == golden["events"]
    assert battle == Battle.replay(golden["record"])[0]


def test_the_bound_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import runpy

    script = GOLDEN.parents[1] / "examples" / "python" / "bound.py"
    main = runpy.run_path(str(script))["main"]
    assert main(["bound.py", "7"]) == 0
    out = capsys.readouterr().out
    # Seed 7 gives the Romans a 5 (§6.2); the Knights' 6 BW charge is refused (§7.3, its distance).
    assert '{"event": "pips_rolled", "army": 0, "die": 5, "pips": 5}' in out
    assert "Gauls: the Knights charge 6 BW: refused (203, §7.3)" in out
    assert "replayed 8 actions: 14 events, same battle" in out


def test_wrong_python_types(battle: Battle) -> None:
    # None is JSON null: not a set-up or an action (code 102), like NULL in C.
    with pytest.raises(dbcore.ArgumentError) as info:
        Battle(None)  # type: ignore[arg-type]
    assert info.value.code == 102
    with pytest.raises(dbcore.ArgumentError):
        battle.apply(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        battle.roll_pips(3)  # type: ignore[arg-type]
    assert battle.phase == "awaiting_pips"


def test_fight_option_recoil_own_depth_passes_through() -> None:
    # DBA3.md §12.1: the owner of beaten Cavalry may have it recoil its own depth (3/4 BW)
    # rather than 1 BW; the option is a field of the fight action, passed to dbcore as is.
    def el(i: int, x: float, y: float, facing: float) -> dict[str, Any]:
        return {"id": i, "kind": "Cv", "pose": {"x": x, "y": y, "facing": facing}}

    data = setup_data()
    data["armies"][0]["elements"] = [dict(el(1, 2, 1, 0), general=True), el(2, 7.5, 5, 0)]
    data["armies"][1]["elements"] = [dict(el(101, 12, 12, 180), general=True), el(102, 7.5, 5, 180)]
    ys = []
    for own in ([], [102]):
        b = Battle(data)
        b.apply(actions.roll_pips(3))
        b.apply(actions.end_movement())
        fight: dict[str, Any] = {"action": "fight", "a": 2, "b": 102, "dice": [6, 4]}
        if own:
            fight["recoil_own_depth"] = own
        b.apply(fight)
        assert b.record()["actions"][-1] == fight
        ys.append(next(e for e in b.state()["elements"] if e["id"] == 102)["pose"]["y"])
    assert ys[0] == pytest.approx(6.0) and ys[1] == pytest.approx(5.75)
