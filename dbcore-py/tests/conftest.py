"""Shared fixtures for the dbcore Python tests.

Section numbers in comments refer to the rules digest, shared/rules/DBA3.md.
"""

import pytest

import dbcore


@pytest.fixture
def blades_vs_knights() -> dbcore.Situation:
    """4Bd general uphill against 3Kn overlapped on one flank: the benchmark matchup."""
    return dbcore.Situation.close_combat(
        dbcore.Combatant("4Bd", general=True, uphill=True),
        dbcore.Combatant("3Kn", flank_rear_contacts=1),
    )
