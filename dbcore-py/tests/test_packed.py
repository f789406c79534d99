"""The packed batch path (#15): ``resolve_packed`` and ``odds_packed`` give, value for value,
what ``resolve_many`` and ``odds_many`` give, and refuse what they refuse, naming the item.
Their speed is measured by bench/bench_batch.py, not here."""

from __future__ import annotations

import itertools
import struct

import pytest

import dbcore
from dbcore import Combatant, Situation
from dbcore.packed import (
    KINDS,
    ODDS_FIELDS,
    RESULT_FIELDS,
    SITUATION_FIELDS,
    kind_number,
    unpack_odds,
    unpack_results,
)

ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def varied_situations() -> list[Situation]:
    """Close combats and shots with every kind of field a record holds."""
    kinds = ["3Kn", "4Bd", "4Wb", "Ps", "4Bw", "Cv", "Sp", "El", "LH", "Art", "Mtd-4Bw", "CF"]
    out = [Situation.close_combat(a, b) for a, b in itertools.product(kinds, kinds)]
    out += [
        Situation.shooting("4Bw", "4Bd"),
        Situation.shooting("Art", "4Bw", support_shooters=1, target_shoots_back=True),
        Situation.shooting("4Bw", "LH", from_behind=True),
        Situation.shooting("4Bw", "4Bw", target_shoots_back=True).swapped(),
        Situation.close_combat(
            Combatant("4Bd", general=True, uphill=True, going="rough"),
            Combatant("3Kn", flank_rear_contacts=1, demoralised=True),
        ),
        Situation.close_combat(
            Combatant("4Sp", side_supporters=["4Sp", ("4Sp", "rough")], rear_supporter="4Sp"),
            Combatant("3Kn", cinc_bonus=True, general=True, defending_bank=True),
        ),
        Situation.close_combat(
            Combatant("4Bd", holding=("assaulting", "camp")),
            Combatant("CF", holding=("defending", "camp")),
        ),
        Situation.close_combat(
            Combatant("4Wb", holding=("assaulting", "city")),
            Combatant("4Bd", holding=("defending", "city", 2)),
        ),
        Situation.close_combat(
            Combatant("3Kn", holding=("assaulting", "fort")),
            Combatant("Ps", holding=("defending", "fort", 1), going="bad"),
        ),
        Situation.close_combat(
            Combatant("4Pk", rear_supporter=("4Pk", "rough")), Combatant("4Wb", going="bad")
        ),
    ]
    return out


def as_packed(r: dbcore.CombatResult) -> dbcore.packed.PackedResult:
    p = r.pursuit
    return dbcore.packed.PackedResult(
        r.a.total,
        r.b.total,
        r.a.outcome,
        r.b.outcome,
        r.a.band,
        r.b.band,
        p.side if p else None,
        p.distance if p else 0.0,
        p.into if p else None,
    )


def test_layouts_are_their_sizes() -> None:
    assert len(SITUATION_FIELDS) == dbcore.SITUATION_SIZE == 36
    assert len(RESULT_FIELDS) == dbcore.RESULT_SIZE == 9
    assert len(ODDS_FIELDS) == dbcore.ODDS_SIZE == 31
    assert KINDS == tuple(k.code for k in dbcore.ElementKind.all())
    assert kind_number("4Bd") == KINDS.index("4Bd")
    assert kind_number(dbcore.ElementKind("Mtd-4Bw")) == KINDS.index("Mtd-4Bw")
    assert dbcore.BANDS == ["higher", "equal", "beaten", "doubled"]


def test_records_round_trip() -> None:
    sits = varied_situations()
    data = dbcore.pack_situations(sits)
    assert len(data) == 36 * len(sits)
    assert dbcore.unpack_situations(data) == sits
    assert dbcore.pack_situations(dbcore.unpack_situations(bytearray(data))) == data
    # A record spells what it says: the kinds are KINDS indexes, a close combat ends in zeros.
    rec = dbcore.pack_situations([Situation.close_combat("4Bd", "3Kn")])
    assert rec[0] == kind_number("4Bd") and rec[16] == kind_number("3Kn")
    assert rec[14] == 255 and rec[32:] == bytes(4)
    # More than two side supporters are kept (refused at resolution, §10.3).
    crowded = Situation.close_combat(Combatant("4Sp", side_supporters=["4Sp"] * 4), "3Kn")
    assert dbcore.unpack_situations(dbcore.pack_situations([crowded])) == [crowded]


def test_resolve_packed_is_resolve_many_value_for_value() -> None:
    # DBA3.md §10, §11, §12.5: the same totals, outcomes, bands and pursuits however called.
    sits = varied_situations()
    data = dbcore.pack_situations(sits)
    for shift in range(36):
        dice = [ALL_DICE[(i + shift) % 36] for i in range(len(sits))]
        raw = bytes(x for d in dice for x in d)
        got = unpack_results(dbcore.resolve_packed(data, raw))
        assert got == [as_packed(r) for r in dbcore.resolve_many(sits, dice)]
    # One record for every pair of dice, and a config given.
    one = sits[-5]
    raw = bytes(x for d in ALL_DICE for x in d)
    got = unpack_results(
        dbcore.resolve_packed(dbcore.pack_situations([one]), raw, dbcore.RulesConfig())
    )
    assert got == [as_packed(r) for r in dbcore.resolve_many(one, ALL_DICE)]
    assert dbcore.resolve_packed(data[:36], b"") == b""
    assert dbcore.resolve_packed(b"", b"") == b""


def test_repeated_situations_are_counted_once_with_the_same_values() -> None:
    # Records met more than once go through dbcore.Prepared; every pair of dice for each, mixed
    # with records met once, in a shuffled order.
    sits = varied_situations()
    items = [(s, d) for s in sits[:40] for d in ALL_DICE] + [(s, (3, 4)) for s in sits[40:]]
    items = items[::7] + items[1::7] + items[2::7] + items[3::7] + items[4::7] + items[5::7] + items[6::7]
    data = dbcore.pack_situations([s for s, _ in items])
    raw = bytes(x for _, d in items for x in d)
    got = unpack_results(dbcore.resolve_packed(bytearray(data), bytearray(raw)))
    want = dbcore.resolve_many([s for s, _ in items], [d for _, d in items])
    assert got == [as_packed(r) for r in want]
    # And one call at a time, which counts nothing once.
    assert got == [as_packed(dbcore.resolve(s, d)) for s, d in items]
    # The bytes themselves, for the record layout.
    first = want[0]
    assert dbcore.resolve_packed(data, raw)[:9] == struct.pack(
        "<2b7B",
        first.a.total,
        first.b.total,
        dbcore.OUTCOMES.index(first.a.outcome),
        dbcore.OUTCOMES.index(first.b.outcome),
        dbcore.BANDS.index(first.a.band),
        dbcore.BANDS.index(first.b.band),
        0 if first.pursuit is None else 1 + "ab".index(first.pursuit.side),
        0 if first.pursuit is None else int(2 * first.pursuit.distance),
        0 if first.pursuit is None or first.pursuit.into is None
        else 1 + ["city", "fort", "camp"].index(first.pursuit.into),
    )


def test_a_pursuit_into_a_stronghold_is_packed() -> None:
    # DBA3.md §4.7, §12.5: the winning assaulter of destroyed camp followers moves into the camp.
    sit = Situation.close_combat(
        Combatant("4Bd", holding=("assaulting", "camp")),
        Combatant("CF", holding=("defending", "camp")),
    )
    results = unpack_results(
        dbcore.resolve_packed(dbcore.pack_situations([sit]), bytes([6, 1]))
    )
    assert results[0].b_outcome == "destroyed"
    assert results[0].pursuer == "a" and results[0].pursuit_into == "camp"
    assert results[0] == as_packed(dbcore.resolve(sit, (6, 1)))


def test_odds_packed_is_odds_many() -> None:
    # DBA3.md §11: each combat's 36 pairs of dice counted exactly; enough situations that the
    # batch is shared among threads.
    sits = varied_situations() * 4
    assert len(sits) >= 512
    got = unpack_odds(dbcore.odds_packed(dbcore.pack_situations(sits)))
    for g, o in zip(got, dbcore.odds_many(sits), strict=True):
        assert g.pairs == {(a, b): n for a, b, n in o.outcomes}
        assert g.a == o.a and g.b == o.b
        assert g.margins == o.margins.as_dict()
        assert (g.a_factor, g.b_factor) == (o.a_factor, o.b_factor)
    assert dbcore.odds_packed(b"") == b""


def test_a_bad_item_is_refused_by_its_number() -> None:
    good = dbcore.pack_situations([Situation.close_combat("3Kn", "4Bd")])
    # DBA3.md §9.1: Spears do not shoot.
    bad = dbcore.pack_situations([Situation.shooting("Sp", "4Bd")])
    with pytest.raises(dbcore.RuleError, match="item 2") as err:
        dbcore.resolve_packed(good + good + bad, bytes([1, 1] * 3))
    assert err.value.rule is not None
    # The same refusal when the bad record repeats (it is counted once).
    with pytest.raises(dbcore.RuleError, match="item 1"):
        dbcore.resolve_packed(good + bad + bad, bytes([1, 1] * 3))
    with pytest.raises(dbcore.RuleError, match="item 1"):
        dbcore.odds_packed(good + bad)
    with pytest.raises(dbcore.RuleError, match="item 600"):
        dbcore.odds_packed(good * 600 + bad + good * 10)
    # DBA3.md §0.3: a die is 1 to 6 (DiceError); an item's dice are read before its record.
    with pytest.raises(dbcore.DiceError, match="item 1"):
        dbcore.resolve_packed(good, bytes([1, 1, 7, 1]))
    with pytest.raises(dbcore.DiceError, match="item 2"):
        dbcore.resolve_packed(good * 3, bytes([1, 1, 6, 6, 0, 1]))
    with pytest.raises(dbcore.DiceError, match="item 1"):
        dbcore.resolve_packed(good + bad, bytes([1, 1, 0, 1]))
    # A record that is not a situation names its byte.
    kinds = bytearray(good)
    kinds[16] = 200
    with pytest.raises(dbcore.ArgumentError, match="item 1: byte 16"):
        dbcore.resolve_packed(good + bytes(kinds), bytes([1, 1] * 2))
    with pytest.raises(dbcore.ArgumentError, match="item 0: byte 16"):
        dbcore.unpack_situations(bytes(kinds))
    for at, value in [(1, 64), (2, 3), (3, 3), (4, 1), (9, 1), (15, 1), (32, 2), (33, 1), (35, 4)]:
        rec = bytearray(good)
        rec[at] = value
        if at == 35:
            rec[32] = 1
        with pytest.raises(dbcore.ArgumentError, match=f"byte {at}"):
            dbcore.unpack_situations(bytes(rec))
    # Lengths and types.
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_packed(good, bytes([1, 1, 6]))
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_packed(good[:-1], bytes([1, 1]))
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_packed(good * 2, bytes([1, 1] * 3))
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_packed([good], bytes([1, 1]))  # type: ignore[arg-type]
    with pytest.raises(dbcore.ArgumentError):
        dbcore.odds_packed(good[:-1])
    with pytest.raises(dbcore.ArgumentError):
        dbcore.pack_situations([Situation.close_combat("3Kn", "4Bd"), "3Kn"])  # type: ignore[list-item]


def test_a_long_batch_shared_among_threads_is_the_same() -> None:
    # DBA3.md §11: long batches are cut into chunks, one a thread; the values and the first
    # refusal are those of one pass (§9.1: Spears do not shoot).
    sits = varied_situations()
    items = [(sits[(i * 7) % len(sits)], ALL_DICE[i % 36]) for i in range(20000)]
    data = dbcore.pack_situations([s for s, _ in items])
    raw = bytes(x for _, d in items for x in d)
    got = unpack_results(dbcore.resolve_packed(data, raw))
    assert got == [as_packed(r) for r in dbcore.resolve_many(*zip(*items))]  # type: ignore[arg-type]
    one = unpack_results(dbcore.resolve_packed(data[:36], raw))
    assert one == [as_packed(r) for r in dbcore.resolve_many(sits[0], [d for _, d in items])]
    bad = dbcore.pack_situations([Situation.shooting("Sp", "4Bd")])
    late = bytearray(data)
    late[36 * 19000 : 36 * 19001] = bad
    late[36 * 15000 : 36 * 15001] = bad
    with pytest.raises(dbcore.RuleError, match="item 15000"):
        dbcore.resolve_packed(bytes(late), raw)
    dice = bytearray(raw)
    dice[2 * 12345] = 9
    with pytest.raises(dbcore.DiceError, match="item 12345"):
        dbcore.resolve_packed(bytes(late), bytes(dice))


def test_odds_of_repeated_records_are_counted_once_with_the_same_values() -> None:
    # DBA3.md §11: a record met many times in a batch has its odds counted once and written for
    # every item; the values are those of odds one situation at a time, and of the same batch
    # with no record repeated. Few distinct records, one record, and a long batch whose
    # distinct records are shared among threads.
    sits = varied_situations()
    few = [sits[(i * 13) % 9] for i in range(300)]
    same = [sits[-3]] * 100
    many = [sits[(i * 7) % len(sits)] for i in range(3000)]
    for batch in (few, same, many, sits + sits[::-1]):
        data = dbcore.pack_situations(batch)
        got = unpack_odds(dbcore.odds_packed(data))
        want = [dbcore.odds(s) for s in batch]
        assert len(got) == len(want)
        for g, o in zip(got, want, strict=True):
            assert g.pairs == {(a, b): n for a, b, n in o.outcomes}
            assert g.a == o.a and g.b == o.b
            assert g.margins == o.margins.as_dict()
            assert (g.a_factor, g.b_factor) == (o.a_factor, o.b_factor)
        # Byte for byte, each item's record is the one its situation gives alone.
        raw = dbcore.odds_packed(data)
        recs = [data[i : i + 36] for i in range(0, len(data), 36)]
        alone = {r: dbcore.odds_packed(r) for r in set(recs)}
        assert raw == b"".join(alone[r] for r in recs)
    # Repeats really were met: fewer distinct records than items.
    for batch in (few, same, many):
        data = dbcore.pack_situations(batch)
        assert len({data[i : i + 36] for i in range(0, len(data), 36)}) < len(batch)


def test_a_repeated_bad_record_in_odds_is_refused_at_its_first_item() -> None:
    # DBA3.md §9.1: Spears do not shoot; the first item holding the bad record is the one named,
    # whether the batch is short or its distinct records are shared among threads.
    good = dbcore.pack_situations([Situation.close_combat("3Kn", "4Bd")])
    other = dbcore.pack_situations([Situation.close_combat("4Wb", "4Bd")])
    bad = dbcore.pack_situations([Situation.shooting("Sp", "4Bd")])
    with pytest.raises(dbcore.RuleError, match="item 3"):
        dbcore.odds_packed(good + other + good + bad + good + bad)
    distinct = dbcore.pack_situations(varied_situations() * 1)
    with pytest.raises(dbcore.RuleError, match="item 5"):
        dbcore.odds_packed(good * 5 + bad + distinct * 4 + bad)
    kinds = bytearray(good)
    kinds[16] = 200
    with pytest.raises(dbcore.ArgumentError, match="item 2: byte 16"):
        dbcore.odds_packed(good + other + bytes(kinds) + good + bytes(kinds))


def test_repeated_pairs_of_dice_give_the_results_of_one_call_each() -> None:
    # DBA3.md §10, §11, §12.5: a record met often in a batch resolves each of its pairs of dice
    # once and writes that result for every item repeating them; every item still gets what
    # resolve gives it alone. Few records in turn with dice in turn (so pairs repeat), one
    # record for every item, and the same record repeated in a long batch cut among threads.
    sits = varied_situations()
    few = [sits[(i * 11) % 7] for i in range(2000)]
    dice = [ALL_DICE[(i * 5 + i // 36) % 36] for i in range(2000)]
    raw = bytes(x for d in dice for x in d)
    want = [as_packed(dbcore.resolve(s, d)) for s, d in zip(few, dice)]
    assert unpack_results(dbcore.resolve_packed(dbcore.pack_situations(few), raw)) == want
    few_recs = dbcore.pack_situations(few)
    assert len({(few_recs[36 * i : 36 * i + 36], d) for i, d in enumerate(dice)}) < len(few)
    one = sits[-1]
    want_one = [as_packed(dbcore.resolve(one, d)) for d in dice]
    assert unpack_results(dbcore.resolve_packed(dbcore.pack_situations([one]), raw)) == want_one
    assert unpack_results(dbcore.resolve_packed(dbcore.pack_situations([one] * 2000), raw)) == want_one
    long = [sits[i % 5] for i in range(20000)]
    long_dice = [ALL_DICE[(i * 7) % 36] for i in range(20000)]
    got = unpack_results(
        dbcore.resolve_packed(
            dbcore.pack_situations(long), bytes(x for d in long_dice for x in d)
        )
    )
    alone = {(i, d): as_packed(dbcore.resolve(sits[i], d)) for i in range(5) for d in ALL_DICE}
    assert got == [alone[(i % 5, d)] for i, d in enumerate(long_dice)]
    # A bad die on a repeated record is still refused at its own item.
    bad = bytearray(raw)
    bad[2 * 1500 + 1] = 0
    with pytest.raises(dbcore.DiceError, match="item 1500"):
        dbcore.resolve_packed(dbcore.pack_situations(few), bytes(bad))
