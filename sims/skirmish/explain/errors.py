"""The error of ``mechbal explain skirmish``: a shot that cannot be explained as asked."""

from __future__ import annotations

from sims.core.protocol import InputError


class ExplainError(InputError):
    """A shot that cannot be explained as asked: one line saying why."""
