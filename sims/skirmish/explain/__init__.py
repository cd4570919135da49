"""``mechbal explain skirmish``: the working of one Mecha Skirmish resolution, as exact
fractions (DESIGN "Show the working"). One module per subject of the working:

- ``shot.py``: one Fire action, hit, location, penetration and damage (003 F);
- ``board.py``: where the shot stands on a map, line of sight, cover, high ground (003 H);
- ``shot_text.py``: both as terminal text; ``layout.py``: how numbers and tables are
  written; ``errors.py``: a shot that cannot be explained as asked.
"""

from __future__ import annotations

from sims.core.protocol import Explain, Option
from sims.skirmish.explain.board import parse_hex
from sims.skirmish.explain.shot_text import shot_text

# What `mechbal explain skirmish WHAT` can explain, with its options.
EXPLAIN = {
    "shot": Explain(
        "shot",
        "one Fire action: every modifier die, threshold and band, as exact fractions",
        (
            Option("attacker", "attacking kit id", required=True, metavar="KIT"),
            Option(
                "weapon", "weapon part id mounted on the attacker", required=True, metavar="WEAPON"
            ),
            Option("target", "target kit id", required=True, metavar="KIT"),
            Option(
                "range",
                "distance in hexes (default: the weapon's Range, 1 for melee)",
                int,
                metavar="HEXES",
            ),
            Option("cover", "target cover: none, soft or hard (default none)"),
            Option(
                "modifier",
                "extra signed modifier dice ([+] positive)",
                int,
                default=0,
                metavar="DICE",
            ),
            Option("braced", "the target is Braced (+Armor)", switch=True, default=False),
            Option(
                "map",
                "a map id (catalogs/skirmish/maps): the shot on the board, with "
                "--from and --to; the map gives distance, cover and high ground",
                metavar="ID",
            ),
            Option("from", "the attacker's hex on --map", parse_hex, metavar="COL,ROW"),
            Option("to", "the target's hex on --map", parse_hex, metavar="COL,ROW"),
        ),
        shot_text,
    ),
}
