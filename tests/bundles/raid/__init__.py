"""Raid: a tiny co-operative game of simultaneous plans, written only for the tests.

It uses what the two games being written need of the platform, and nothing else: zone kinds of its
own (a player's hand, a named territory, a numbered enemy model), a per-seat button (ready), a mixed
throw of different dice for the whole party, a co-operative typed result, a camera mat with named
territories, and a demo kit that plays it on the virtual device. Nothing in ``session/``,
``table/``, ``web/`` or ``vision/`` knows it.

Rules: every round each player, at the same time, lays a card from their hand on a territory or an
enemy model, or presses ready to play none. Then the party throws the clash dice (a d6 and a d8):
the round scores the cards' points, and 2 more when the dice show 9 or more. After the last round
the party wins when its tally reaches the target.
"""
