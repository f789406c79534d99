"""Resolving close combat and shooting, and exact odds (DBA3.md §9, §10, §11, §12.5)."""

import dbcore
from dbcore import Combatant, Situation, odds, resolve


def factors(side: dbcore.SideResult) -> list[tuple[str, int]]:
    return [(f.name, f.value) for f in side.factors]


def test_knights_tied_by_blades_are_destroyed() -> None:
    # DBA3.md §11.1: Knights tied by Blades in close combat are destroyed; Solid foot tied:
    # nothing happens. 3Kn +3 vs foot, 4Bd +3 vs mounted (§10.1).
    r = resolve(Situation.close_combat("3Kn", "4Bd"), dice=(4, 4))
    assert (r.a.total, r.b.total) == (7, 7)
    assert (r.a.band, r.b.band) == ("equal", "equal")
    assert r.a.outcome == "destroyed"
    assert r.a.rule.startswith("§11.1")
    assert r.b.outcome == "no_effect"
    assert r.pursuit is None


def test_cataphracts_tied_by_knights_recoil() -> None:
    # DBA3.md §11.1: a 4Kn tied in close combat by 3Kn recoils; the 3Kn is unaffected.
    r = resolve(Situation.close_combat("4Kn", "3Kn"), dice=(3, 3))
    assert (r.a.outcome, r.b.outcome) == ("recoil", "no_effect")


def test_blades_beaten_by_knights_in_good_going_are_destroyed_and_knights_pursue() -> None:
    # DBA3.md §11.2 Sp/Pk/Bd row: destroyed by Knights while in good going.
    # §12.5: Knights other than 4Kn pursue 1 BW.
    r = resolve(Situation.close_combat("3Kn", "4Bd"), dice=(5, 3))
    assert (r.a.total, r.b.total) == (8, 6)
    assert r.b.band == "beaten" and r.b.outcome == "destroyed"
    assert r.a.band == "higher" and r.a.outcome == "no_effect"
    assert r.pursuit is not None
    assert (r.pursuit.side, r.pursuit.distance, r.pursuit.into) == ("a", 1.0, None)


def test_blades_beaten_by_knights_in_rough_going_recoil() -> None:
    # DBA3.md §11.2 Sp/Pk/Bd row: the Knights kill only while the Blades are in good going.
    sit = Situation.close_combat("3Kn", Combatant("4Bd", going="rough"))
    r = resolve(sit, dice=(5, 3))
    assert r.b.outcome == "recoil"
    assert "otherwise recoil" in r.b.rule


def test_benchmark_matchup_factors_and_outcomes(blades_vs_knights: Situation) -> None:
    # DBA3.md §10.1, §10.3: 4Bd vs mounted +3, general +1, uphill +1; 3Kn vs foot +3 and −1
    # for the overlapped flank.
    r = resolve(blades_vs_knights, dice=(3, 5))
    assert factors(r.a) == [("vs_mounted", 3), ("general", 1), ("uphill", 1)]
    assert factors(r.b) == [("vs_foot", 3), ("flank_or_rear", -1)]
    assert [f.label for f in r.b.factors] == [
        "combat factor vs foot",
        "flank or rear overlapped or contacted",
    ]
    assert (r.a.factor, r.b.factor) == (5, 2)
    assert (r.a.die, r.b.die, r.a.total, r.b.total) == (3, 5, 8, 7)
    # DBA3.md §11.2 Kn row: Knights beaten by anything but El, SCh, Cm or LH recoil.
    assert (r.a.outcome, r.b.outcome) == ("no_effect", "recoil")
    # DBA3.md §12.5: Blades pursue only after beating foot.
    assert r.pursuit is None
    text = r.explain()
    assert "4Bd" in text and "general +1" in text and "§11.2" in text


def test_cavalry_doubled_by_spears_in_good_going_flee() -> None:
    # DBA3.md §11.3 Cv row: flee from Pikes, Spears or Hordes while in good going.
    r = resolve(Situation.close_combat("Sp", "Cv"), dice=(6, 1))
    assert (r.a.total, r.b.total) == (10, 4)
    assert r.b.band == "doubled" and r.b.outcome == "flee"


def test_bows_beaten_by_mounted_are_destroyed() -> None:
    # DBA3.md §11.2 Bw row: destroyed by any mounted.
    r = resolve(Situation.close_combat("LH", "4Bw"), dice=(6, 3))
    assert r.b.band == "beaten" and r.b.outcome == "destroyed"


def test_side_and_rear_support() -> None:
    # DBA3.md §10.3: Spears supported on a side by Spears +1; Pikes with Pikes behind +3 vs foot.
    sp = Combatant("Sp", side_supporters=["Sp", ("4Bd", "good")])
    pk = Combatant("4Pk", rear_supporter="4Pk")
    r = resolve(Situation.close_combat(sp, pk), dice=(1, 1))
    assert factors(r.a) == [("vs_foot", 4), ("side_support", 1)]
    assert factors(r.b) == [("vs_foot", 3), ("rear_support", 3)]
    # Support counts only when the supporter is in good going too.
    sp_rough = Combatant("Sp", side_supporters=[("Sp", "rough")])
    r = resolve(Situation.close_combat(sp_rough, "4Pk"), dice=(1, 1))
    assert factors(r.a) == [("vs_foot", 4)]


def test_defending_a_camp() -> None:
    # DBA3.md §10.3: foot defending their own camp +2; §11.1: a tie has no effect when
    # attacking or defending a camp; §11.2 row 1: beaten defenders are destroyed.
    defender = Combatant("4Bw", holding=("defending", "camp"))
    assert defender.holding == ("defending", "camp", 0)
    attacker = Combatant("3Kn", holding=("assaulting", "camp"))
    assert attacker.holding == ("assaulting", "camp")
    sit = Situation.close_combat(attacker, defender)
    # 3Kn assaulting use their factor against foot (§4.7): +3. 4Bw against mounted +4 and +2
    # for defending their camp.
    r = resolve(sit, dice=(4, 1))
    assert factors(r.a) == [("vs_foot", 3)]
    assert factors(r.b) == [("vs_mounted", 4), ("camp_or_city_defenders", 2)]
    assert (r.a.total, r.b.total) == (7, 7)
    assert (r.a.outcome, r.b.outcome) == ("no_effect", "no_effect")
    r = resolve(sit, dice=(6, 1))
    assert r.b.band == "beaten"
    assert r.b.outcome == "destroyed" and r.b.rule.startswith("§11.2 general row 1")
    # §4.7, §12.5: a winning assaulter moves into the camp whose defenders it destroyed.
    assert r.pursuit is not None and r.pursuit.into == "camp" and r.pursuit.side == "a"


def test_shooting_blades_use_their_shot_at_factor() -> None:
    # DBA3.md §9.6: the target uses its factor against foot, Blades +4 when shot at; the
    # shooter uses its factor against the target's class (Bows +2 vs foot).
    sit = Situation.shooting("4Bw", "4Bd")
    assert sit.engagement == "shooting" and sit.shooter == "a"
    r = resolve(sit, dice=(6, 1))
    assert factors(r.a) == [("vs_foot", 2)]
    assert factors(r.b) == [("shot_at", 4)]
    # §11.2 Bd row: beaten by foot, recoil. §9.6: no pursuit after shooting.
    assert (r.a.total, r.b.total) == (8, 5)
    assert r.b.outcome == "recoil" and r.pursuit is None


def test_a_shooter_whose_target_does_not_shoot_back_suffers_nothing() -> None:
    # DBA3.md §9.6, §17.24: only the target can suffer unless it was shooting at the shooter.
    r = resolve(Situation.shooting("4Bw", "4Bd"), dice=(1, 6))
    assert r.a.band == "doubled" and r.a.outcome == "no_effect"
    assert r.a.rule.startswith("§17.24")
    # Two bowmen shooting at each other: the shooter can be hurt too.
    r = resolve(Situation.shooting("4Bw", "4Bw", target_shoots_back=True), dice=(1, 6))
    assert r.a.outcome != "no_effect"


def test_support_shooters_count_against_the_target() -> None:
    # DBA3.md §9.4: each further shooter gives the target −1, at most 2.
    r = resolve(Situation.shooting("4Bw", "4Ax", support_shooters=2), dice=(3, 3))
    assert factors(r.b) == [("vs_foot", 3), ("support_shooters", -2)]


def test_artillery_shooting_destroys_beaten_elephants() -> None:
    # DBA3.md §11.2 El row: destroyed by Artillery shooting. Art +4 vs mounted, El +5 vs foot.
    r = resolve(Situation.shooting("Art", "El"), dice=(6, 1))
    assert (r.a.total, r.b.total) == (10, 6)
    assert r.b.band == "beaten" and r.b.outcome == "destroyed"


def test_odds_for_factors_four_against_two() -> None:
    # DBA3.md §11 margins: Spears +4 against Psiloi +2 (§10.1) over the 36 pairs of dice.
    o = odds(Situation.close_combat("Sp", "Ps"))
    assert (o.a_factor, o.b_factor) == (4, 2)
    m = o.margins
    assert (m.a_doubled_b, m.a_won, m.tied, m.b_won, m.b_doubled_a) == (9, 17, 4, 6, 0)
    assert m.as_dict() == {
        "a_doubled_b": 9, "a_won": 17, "tied": 4, "b_won": 6, "b_doubled_a": 0,
    }
    assert sum(c for _, _, c in o.outcomes) == 36
    assert sum(o.a.values()) == 36 and sum(o.b.values()) == 36
    assert list(o.a) == dbcore.OUTCOMES
    # Psiloi: §11.1 Fast foot tied by Solid foot in close combat recoil (4), §11.2 Ps row
    # beaten by Spears recoil (17), §11.3 Ps row doubled in close combat by foot other than
    # Ax, Bw, Ps flee (9). Spears: §11.1 Solid foot tied, nothing; §11.2 Sp row beaten by
    # Psiloi recoil (6).
    assert o.b == {"no_effect": 6, "recoil": 21, "flee": 9, "destroyed": 0}
    assert o.a == {"no_effect": 30, "recoil": 6, "flee": 0, "destroyed": 0}
    assert o.count(b="flee") == 9
    assert o.count(a="recoil", b="no_effect") == 6
    assert o.probability(b="recoil") == 21 / 36
    assert o.probability() == 1.0
    # Most frequent first.
    counts = [c for _, _, c in o.outcomes]
    assert counts == sorted(counts, reverse=True)
    table = o.table()
    assert "a +4 vs b +2" in table and "flee" in table and "tied 4" in table
    assert "Odds a +4 vs b +2" in repr(o)


def test_odds_agree_with_resolving_every_pair(blades_vs_knights: Situation) -> None:
    # DBA3.md §10.2: the odds are the 36 resolutions counted.
    o = odds(blades_vs_knights)
    counted: dict[tuple[str, str], int] = {}
    for da in range(1, 7):
        for db in range(1, 7):
            r = resolve(blades_vs_knights, dice=(da, db))
            key = (r.a.outcome, r.b.outcome)
            counted[key] = counted.get(key, 0) + 1
    assert {(a, b): c for a, b, c in o.outcomes} == counted


def test_a_house_rule_is_a_changed_config() -> None:
    # DBA3.md §10.1 numbers are data: give 4Bd +4 against mounted and the total changes.
    import json

    data = json.loads(dbcore.RulesConfig.default().to_json())
    data["kinds"]["4Bd"]["factor_vs_mounted"] = 4
    house = dbcore.RulesConfig.from_json(json.dumps(data))
    assert not house.is_default and dbcore.RulesConfig().is_default
    sit = Situation.close_combat("3Kn", "4Bd")
    assert resolve(sit, dice=(1, 1)).b.total == 4
    assert resolve(sit, dice=(1, 1), config=house).b.total == 5
    assert odds(sit, config=house) != odds(sit)


def test_swapped_situation_mirrors_the_result() -> None:
    sit = Situation.close_combat("3Kn", Combatant("4Bd", going="rough"))
    r = resolve(sit, dice=(5, 2))
    s = resolve(sit.swapped(), dice=(2, 5))
    assert (r.a.outcome, r.b.outcome) == (s.b.outcome, s.a.outcome)
    shot = Situation.shooting("4Bw", "4Bd").swapped()
    assert shot.shooter == "b"
