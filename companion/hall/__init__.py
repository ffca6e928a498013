"""A hall of tables: the pure side of joining many companions through an MQTT broker (docs/hall.md).

Topic names, the messages a table publishes and how a hall checks them, duplicates dropped by
(table, sequence), result confirmations, a league or tournament's standings, Swiss pairings and
exports, and the broker's password and ACL files. No network here: ``mqtt_link`` moves the messages.
"""
