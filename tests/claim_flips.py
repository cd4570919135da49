"""Every rulebook claim can fail: the harness each game's ``test_claims.py`` uses.

A game's test lists, for every claim of its ``claims.toml``, one or more :class:`Flip`:
a change that must make the claim FAIL. A flip is exactly one of: a designer edit
(``--set`` names), text appended to a catalog file (what ``--set`` cannot do), a catalog
the loader would refuse built in memory, a rule replaced by a planted bug
(monkeypatched: the claim must run the rule, not a stored number), or other claim
arguments (where the rulebook's number is structural). :func:`check_flips_cover_claims`
fails when a claim has no flip; :func:`assert_flip_fails` applies one and evaluates.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sims.core.claims import Claim, evaluate, run_claims
from tests.conftest import CATALOGS


@dataclass(frozen=True)
class Flip:
    """One change expected to fail a claim; exactly one kind is given."""

    label: str
    sets: dict[str, Any] = field(default_factory=dict)  # catalog overrides (--set)
    files: dict[str, str] = field(default_factory=dict)  # text appended to a catalog file
    edit: Callable[[Any], Any] | None = None  # a catalog the loader would refuse
    patch: tuple[Any, str, Callable[..., Any]] | None = None  # module.<name> replaced
    args: dict[str, Any] = field(default_factory=dict)  # claim args replaced

    def kinds(self) -> int:
        return sum(
            [
                bool(self.sets),
                bool(self.files),
                self.edit is not None,
                self.patch is not None,
                bool(self.args),
            ]
        )


def set_(label: str, fields: dict[str, Any] | None = None, **params: Any) -> Flip:
    """Catalog overrides: rules parameters as keywords, ``KIND.ID.FIELD`` in ``fields``."""
    return Flip(label, sets={**(fields or {}), **params})


def bug_in(module: Any) -> Callable[[str, str, Callable[..., Any]], Flip]:
    """``bug(label, name, fn)``: ``module.<name>`` replaced by the planted ``fn``."""

    def bug(label: str, name: str, fn: Callable[..., Any]) -> Flip:
        return Flip(label, patch=(module, name, fn))

    return bug


def cases(flips: Mapping[str, list[Flip]]) -> list[Any]:
    """The (claim_id, flip) parameters of ``test_flip_fails_the_claim``."""
    return [
        pytest.param(claim_id, flip, id=f"{claim_id}-{flip.label}")
        for claim_id, fs in flips.items()
        for flip in fs
    ]


def check_flips_cover_claims(flips: Mapping[str, list[Flip]], claims: Mapping[str, Claim]) -> None:
    assert set(flips) == set(claims)
    for claim_id, fs in flips.items():
        assert fs, claim_id
        for flip in fs:
            assert flip.kinds() == 1, (claim_id, flip.label)


def check_shipped_passes(
    path: Path, checks: Mapping[str, Any], catalog: Any, claims: Mapping[str, Claim], at_least: int
) -> None:
    results = run_claims(path, checks, catalog)
    assert [r.row() for r in results if not r.passed] == []
    assert len(results) == len(claims) >= at_least


def _appended_copy(tmp_path: Path, game: str, files: Mapping[str, str]) -> Path:
    root = tmp_path / "catalogs"
    shutil.copytree(CATALOGS / game, root / game)
    for name, text in files.items():
        with (root / game / name).open("a", encoding="utf-8") as fh:
            fh.write(text)
    return root


def assert_flip_fails(
    claim: Claim,
    flip: Flip,
    checks: Mapping[str, Any],
    catalog: Any,
    load_catalog: Callable[..., Any],
    game: str,
    monkeypatch: Any,
    tmp_path: Path | None = None,
    forget: Callable[[], None] | None = None,
) -> None:
    """The claim passes on the shipped ``catalog`` and fails once ``flip`` is applied.
    ``forget`` clears memoized results a replaced rule must not read."""
    before = evaluate(claim, checks, catalog)
    assert before.passed, before.row()  # the shipped catalog passes: the flip is the change
    changed = catalog
    if flip.sets:
        changed = load_catalog(CATALOGS, overrides=flip.sets)
    if flip.files:
        assert tmp_path is not None, "appended files need a tmp_path"
        changed = load_catalog(_appended_copy(tmp_path, game, flip.files))
    if flip.edit is not None:
        changed = flip.edit(catalog)
    if flip.args:
        assert set(flip.args) <= set(claim.args), "a flip changes existing args only"
        claim = dataclasses.replace(claim, args={**claim.args, **flip.args})
    if flip.patch is not None:
        module, name, planted = flip.patch
        assert callable(getattr(module, name))
        monkeypatch.setattr(module, name, planted)
        if forget is not None:
            forget()
    after = evaluate(claim, checks, changed)
    assert not after.passed, after.row()
