"""The exact outcome of one Lab Partners battle, by dynamic programming over its states.

The round is the reference engine's (``reference.begin_round``, ``mech_dice``,
``finish_round``): nothing here restates a rule. The only dice of a round are the
mech action's, and each matters only through what its rule makes of the face: a crit
d20 as crit / no crit (probability ``rules.p_crit``), the punch's d3 by the damage
``rules.punch`` gives it (miss / hit). :func:`outcome` walks the rounds forward with
the distribution over battle states, branching on those outcome classes (one face
standing for each) and merging equal states, so each state of a round is played once.

:func:`brute_force` walks EVERY face of every die instead, each with probability
1/sides, without merging anything: feasible only for a few rounds, it is the check
that the classes and the merging lose nothing (tests/labpartners/test_exact_battle.py).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from sims.labpartners import rules
from sims.labpartners.battle import Battle
from sims.labpartners.reference import (
    Die,
    State,
    begin_round,
    finish_round,
    mech_dice,
    start,
)

Key = tuple[int, int, int]  # (result code, kaiju_hp_left, rounds)


@dataclass(frozen=True)
class Outcome:
    """A battle's exact outcome: the joint distribution of (result code, the kaiju's HP
    left, rounds played), the grade distribution (grades.toml index) and each grade's
    exact GPA."""

    joint: dict[Key, Fraction]
    grades: dict[int, Fraction]
    gpas: tuple[Fraction, ...]

    def p_result(self, code: int) -> Fraction:
        return sum((q for (c, _, _), q in self.joint.items() if c == code), Fraction(0))

    @property
    def p_win(self) -> Fraction:
        return self.p_result(rules.WIN)

    def gpa_dist(self) -> dict[Fraction, Fraction]:
        out: dict[Fraction, Fraction] = defaultdict(Fraction)
        for g, q in self.grades.items():
            out[self.gpas[g]] += q
        return dict(out)

    @property
    def expected_gpa(self) -> Fraction:
        return sum((v * q for v, q in self.gpa_dist().items()), Fraction(0))

    def rounds_dist(self) -> dict[int, Fraction]:
        return _marginal(self.joint, 2)

    @property
    def expected_rounds(self) -> Fraction:
        return sum((r * q for r, q in self.rounds_dist().items()), Fraction(0))

    def hp_left_dist(self) -> dict[int, Fraction]:
        return _marginal(self.joint, 1)


def _marginal(joint: dict[Key, Fraction], axis: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for k, q in joint.items():
        out[k[axis]] += q
    return dict(sorted(out.items()))


def _key(s: State) -> Key:
    return (s.result, max(s.kaiju, 0), s.round)


def _outcome(battle: Battle, joint: dict[Key, Fraction]) -> Outcome:
    grades: dict[int, Fraction] = defaultdict(Fraction)
    for (code, left, _), q in joint.items():
        g = int(
            rules.grade_index(int(code == rules.WIN), left, int(battle.kaiju_hp), battle.grades)
        )
        grades[g] += q
    gpas = tuple(rules.gpa(i, battle.grades) for i in range(len(battle.grades)))
    return Outcome(
        joint=dict(sorted(joint.items())), grades=dict(sorted(grades.items())), gpas=gpas
    )


def die_classes(battle: Battle, die: Die) -> list[tuple[int, Fraction]]:
    """A die's outcomes that play differently, each as (a face standing for it, its
    exact probability): crit / no crit for a crit die, the punch's damage classes."""
    p = battle.params
    if die.kind == "crit":  # rolled only at Accuracy > 0, so face 1 crits
        pc = rules.p_crit(die.acc, p)
        return [(f, q) for f, q in ((1, pc), (die.sides, 1 - pc)) if q]
    groups: dict[int, list[int]] = {}
    for face in range(1, die.sides + 1):
        groups.setdefault(int(rules.punch(0, face, p)), []).append(face)
    return [(faces[0], Fraction(len(faces), die.sides)) for faces in groups.values()]


def branches(battle: Battle, s: State) -> list[tuple[State, Fraction]]:
    """One round from ``s``: the states it can end in, with their exact probabilities."""
    m = begin_round(battle, s)
    dice = mech_dice(battle, m)
    out = []
    for combo in itertools.product(*(die_classes(battle, d) for d in dice)):
        q = Fraction(1)
        for _, qi in combo:
            q *= qi
        out.append((finish_round(battle, m, [f for f, _ in combo]), q))
    return out


def outcome(battle: Battle) -> Outcome:
    """The battle's exact outcome: the distribution over states, round by round, equal
    states merged (their tallies aside, they play on identically)."""
    joint: dict[Key, Fraction] = defaultdict(Fraction)
    frontier: dict[State, Fraction] = {start(battle): Fraction(1)}
    while frontier:
        after: dict[State, Fraction] = defaultdict(Fraction)
        for s, p in frontier.items():
            for t, q in branches(battle, s):
                if t.result == rules.ONGOING:
                    after[t] += p * q
                else:
                    joint[_key(t)] += p * q
        frontier = after
    return _outcome(battle, joint)


def brute_force(battle: Battle) -> Outcome:
    """The same outcome from every raw die sequence (every face of every die, each
    1/sides): tiny battles only (``battle_rounds`` 1..3)."""
    joint: dict[Key, Fraction] = defaultdict(Fraction)

    def walk(s: State, w: Fraction) -> None:
        m = begin_round(battle, s)
        dice = mech_dice(battle, m)
        n = 1
        for d in dice:
            n *= d.sides
        for faces in itertools.product(*(range(1, d.sides + 1) for d in dice)):
            t = finish_round(battle, m, faces)
            if t.result == rules.ONGOING:
                walk(t, w / n)
            else:
                joint[_key(t)] += w / n

    walk(start(battle), Fraction(1))
    return _outcome(battle, joint)
