"""Mecha Skirmish (seed 003): catalogs, rules, exact tables, claims."""

from sims.core.protocol import Engines, Game
from sims.skirmish import battle, claims, exact, experiments, reference, rules, vector
from sims.skirmish.catalog import load_catalog

TABLE_DOCS = {
    "hit": (
        "P(hit) of one shot: d20 + bonus (Gunnery + weapon Acc + Head Acc) +/- the modifier "
        "dice result >= Evasion; a natural 20 always hits, a natural 1 always misses "
        "(003 F Hit). modifier is the net count of modifier dice after cancelling, [+] "
        "positive: the highest of |modifier| d6 is added or subtracted (003 F3)."
    ),
    "penetration": (
        "One hit's penetration: d6 + Pen against the struck part's Armor (003 F5). Below "
        "Armor a glance, at least Armor + margin a crit, otherwise full. Variant nat20 adds "
        "+1 Pen (a natural-20 hit), brace adds +1 Armor (the target Braced)."
    ),
    "bands": (
        "Hit location: the six parts' Sizes scaled to 20 bands by largest remainder, ties "
        "to the larger Size then the earlier part (003 F4). Under hard cover the Legs band "
        "hits the cover (003 H5). p_strike = bands / 20, given a hit."
    ),
    "weapon_vs_kit": (
        "Each weapon against each kit: attacker Gunnery 2 (Piloting 2 for melee) + weapon "
        "Acc, no Head Acc, no modifier dice, optimal range, no cover, not moved; target "
        "undamaged with its kit's suggested pilot. crit_share = P(crit | hit); "
        "expected_damage = Shots x P(hit) x expected damage dice per hit (glance per the "
        "glance_damage rule), crit-table effects excluded."
    ),
    "damage_by_range": (
        "Each kit's best expected damage per Fire action at each range against the standard "
        "Medium (the Foreman): the kit's own pilot and Head, long range 1[-] and Engaged "
        "1[-] for ranged weapons, no cover, target undamaged; the weapon giving it."
    ),
    "strikes": (
        "Given one hit by the weapon (attacker as in weapon_vs_kit), the probability of each "
        "(part struck, penetration outcome), the natural-20 bonus weighted by "
        "P(natural 20 | hit)."
    ),
}



def sample_scenarios(catalog) -> list[tuple[str, battle.Battle]]:
    """A few matchups covering each policy, a duel mirror and a team fight."""
    sides = [
        (battle.Side(("foreman",), "gunline"), battle.Side(("reaver",), "brawler")),
        (battle.Side(("courier",), "careful"), battle.Side(("courier",), "careful")),
        (battle.Side(("courier", "foreman", "reaver"), "gunline"),
         battle.Side(("bastion", "lancer", "skiff"), "careful")),
    ]  # fmt: skip
    return [
        ("+".join(a.kits) + f"({a.policy}) v " + "+".join(b.kits) + f"({b.policy})",
         battle.compile_battle(catalog, a, b))
        for a, b in sides
    ]  # fmt: skip


ENGINES = Engines(
    scenarios=sample_scenarios,
    reference=reference.play_many,
    vector=vector.play,
    metrics=battle.metrics,
    reference_version=reference.ENGINE_VERSION,
    vector_version=vector.ENGINE_VERSION,
)

GAME = Game(
    name="skirmish",
    title="Mecha Skirmish",
    rulebook="003_25cf03a7d69a340f.txt",
    load_catalog=load_catalog,
    tables=exact.tables,
    table_docs=TABLE_DOCS,
    checks=claims.CHECKS,
    rules_version=rules.RULES_VERSION,
    engines=ENGINES,
    experiments=experiments.EXPERIMENTS,
)

__all__ = ["GAME", "load_catalog"]
