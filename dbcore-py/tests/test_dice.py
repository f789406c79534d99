"""Seeded dice: the same seed gives the same scores (DBA3.md §0.3: every random event is a d6)."""

import copy
import pickle

import dbcore


def test_same_seed_same_sequence() -> None:
    a = dbcore.Dice(7)
    b = dbcore.Dice(7)
    xs = [a.roll() for _ in range(200)]
    assert xs == [b.roll() for _ in range(200)]
    assert set(xs) == {1, 2, 3, 4, 5, 6}


def test_roll_pair_is_two_rolls() -> None:
    a = dbcore.Dice(42)
    b = dbcore.Dice(42)
    pairs = [a.roll_pair() for _ in range(50)]
    singles = [b.roll() for _ in range(100)]
    assert [x for p in pairs for x in p] == singles


def rolls(dice: dbcore.Dice, n: int) -> list[int]:
    return [dice.roll() for _ in range(n)]


def test_different_seeds_differ() -> None:
    seqs = {tuple(rolls(dbcore.Dice(seed), 20)) for seed in range(10)}
    assert len(seqs) == 10


def test_pickled_and_copied_dice_go_on_with_the_same_scores() -> None:
    for make_twin in [lambda d: pickle.loads(pickle.dumps(d)), copy.deepcopy, copy.copy]:
        d = dbcore.Dice(99)
        rolls(d, 37)
        twin = make_twin(d)
        assert twin is not d and twin.seed == 99
        assert rolls(twin, 30) == rolls(d, 30)
    assert repr(dbcore.Dice(99)) == "<Dice seed=99 draws=0>"


def test_dice_feed_resolve() -> None:
    d = dbcore.Dice(3)
    sit = dbcore.Situation.close_combat("4Bd", "3Kn")
    results = [dbcore.resolve(sit, dice=d.roll_pair()) for _ in range(20)]
    d = dbcore.Dice(3)
    assert results == [dbcore.resolve(sit, dice=d.roll_pair()) for _ in range(20)]


def test_seed_seven_golden_sequence() -> None:
    # The first 20 scores of seed 7, as Rust's dbcore::SeededDice::new(7).roll() gives them
    # (checked when this test was written). A replay recorded in Rust or C must draw the same
    # scores here, so this pins the generator and the unbiased draw against drift.
    d = dbcore.Dice(7)
    assert rolls(d, 20) == [5, 5, 2, 5, 6, 5, 5, 2, 6, 5, 3, 3, 5, 3, 6, 6, 4, 6, 3, 4]
    d = dbcore.Dice(0)
    assert rolls(d, 10) == [3, 4, 5, 2, 5, 4, 3, 3, 3, 2]
