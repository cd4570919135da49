"""Balance flags' generic parts: a limit's bounds, and bad limits.toml files in one line."""

import pytest

from analysis.flags import Limit, load_limits, outside
from sims.core.catalog import CatalogError


def test_outside():
    limit = Limit("x", "", 0.4, 0.6, "assumed")
    assert outside(0.5, limit) is None and outside(0.4, limit) is None
    assert outside(0.61, limit) == ("above", 0.6)
    assert outside(0.39, limit) == ("below", 0.4)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[win_rate]\nmeaning = "m"\nmin = "low"\nmax = 0.6\nprovenance = "assumed"\n',
            "limit 'win_rate', field 'min'",
        ),
        (
            '[win_rate]\nmeaning = "m"\nmin = 0.7\nmax = 0.6\nprovenance = "assumed"\n',
            "min is above max",
        ),
        ('[nope]\nmeaning = "m"\nmin = 0.1\nmax = 0.6\nprovenance = "assumed"\n', "unknown limit"),
        ('[win_rate]\nmeaning = "m"\nmin = 0.1\nmax = 0.6\n', "field 'provenance'"),
    ],
)
def test_bad_limits_are_one_line(tmp_path, text, words):
    path = tmp_path / "limits.toml"
    path.write_text(text)
    with pytest.raises(CatalogError) as err:
        load_limits(path, ("win_rate",))
    assert words in str(err.value) and "\n" not in str(err.value)
