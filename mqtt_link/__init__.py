"""The MQTT adapter of a hall of tables (docs/hall.md): paho-mqtt clients on one shared event loop.

``publisher``: a table publishes its events, view, status and result, store-and-forward from its own
event log. ``subscriber``: a hall takes every table's messages into ``companion.hall.state``.
``broker``: a real Mosquitto process for a single machine's try, the tests and the benchmark.
"""
