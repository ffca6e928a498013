"""How people type a name: the one form every typographic spelling of a card's title shares.

Shared by the games' catalogs (``companion score`` reading a layout) and the table (``companion enrol
--card``), so a title typed with curly quotes, another case or extra spaces means the same card
everywhere.
"""

from __future__ import annotations

import unicodedata

_STRAIGHT = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4`", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"),
    }
)
"""Typographic quotes, primes and dashes, and the straight character each is typed as."""


def name_key(text: str) -> str:
    """The form every typographic spelling of a card name shares: Unicode compatibility form (NFKC),
    curly quotes and dashes as straight ones (the rules texts print "Skyrr\u2019s Blowback"), any run
    of spaces as one, the ends trimmed, the case folded."""
    # Straightened first: compatibility form would turn an acute accent into a space and a combining
    # mark; fullwidth quotes come out of it straight.
    straight = unicodedata.normalize("NFKC", text.translate(_STRAIGHT))
    return " ".join(straight.split()).casefold()
