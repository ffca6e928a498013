"""Game bundles that live only in the tests: they prove a new game needs nothing of the platform but
its own package (registered with ``companion.games.add_bundle``, as a plugin's game would be)."""
